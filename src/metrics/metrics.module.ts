import { type DynamicModule, Module } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { MetricsController } from './metrics.controller';
import { MetricsTokenGuard } from './metrics-token.guard';

/**
 * The app's metrics (docs/OPERATIONS.md, Metrics): Metrics for every module (global: a feature
 * injects it to add its own), and GET /metrics while METRICS_TOKEN is set. Unset, the route does
 * not exist, so /metrics is answered exactly as any unknown path.
 */
@Module({})
export class MetricsModule {
  static async forRoot(config?: AppConfig): Promise<DynamicModule> {
    const settings = await ConfigModule.settings(config);
    return {
      module: MetricsModule,
      global: true,
      controllers:
        settings.metricsToken === undefined ? [] : [MetricsController],
      providers: [Metrics, MetricsTokenGuard],
      exports: [Metrics],
    };
  }
}

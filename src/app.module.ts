import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AuthModule } from './auth/auth.module';
import { ChangesModule } from './changes/changes.module';
import { DrainModule } from './common/http/drain.module';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AppConfig } from './config/app-config';
import { CheckInsModule } from './check-ins/check-ins.module';
import { ConfigModule } from './config/config.module';
import { DiscountsModule } from './discounts/discounts.module';
import { DatabaseModule } from './database/database.module';
import { EventSeriesModule } from './event-series/event-series.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { IssuedTicketsModule } from './issued-tickets/issued-tickets.module';
import { loggerOptions } from './logger-options';
import { MetricsModule } from './metrics/metrics.module';
import { OrdersModule } from './orders/orders.module';
import { OverviewModule } from './overview/overview.module';
import { ProductsModule } from './products/products.module';
import { NEST_STEPS } from './request-pipeline';
import { RevalidationModule } from './revalidation/revalidation.module';
import { SyncModule } from './sync/sync.module';
import { VouchersModule } from './vouchers/vouchers.module';
import { WaitlistSignupsModule } from './waitlist-signups/waitlist-signups.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * Every global behaviour is registered here. App-level settings live in createApp (create-app.ts),
 * the one bootstrap: among them the request pipeline (request id, compression, CORS, API key
 * identification and rate limiting), which must run before Swagger's routes.
 */
@Module({
  imports: [
    DrainModule,
    DatabaseModule,
    RateLimitModule,
    AuthModule,
    HealthModule,
    OrdersModule,
    EventsModule,
    EventSeriesModule,
    IssuedTicketsModule,
    CheckInsModule,
    IdempotencyModule,
    SyncModule,
    RevalidationModule,
    ChangesModule,
    OverviewModule,
    ProductsModule,
    VouchersModule,
    DiscountsModule,
    WaitlistSignupsModule,
    WebhooksModule,
  ],
  // The global guard, pipe, interceptors and filter: request-pipeline.ts lists them in order.
  providers: [...NEST_STEPS],
})
export class AppModule {
  /**
   * The settings come from the environment unless `config` is given (tests); logs go to stdout
   * unless `logDestination` is given (tests capture them).
   */
  static forRoot(
    options: { config?: AppConfig; logDestination?: DestinationStream } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            loggerOptions(config, options.logDestination),
        }),
        MetricsModule.forRoot(options.config),
      ],
    };
  }
}

import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DrainModule } from '../common/http/drain.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ProbesController } from './probes.controller';
import { Readiness } from './readiness';

/**
 * `GET /v1/ping` for integrations, and the load balancer's probes (`/health/live`,
 * `/health/ready`, Terminus). Readiness reads the instance's one drain state (DrainModule), which
 * GracefulShutdown begins (graceful-shutdown.ts). Readiness logs its own changes, so
 * Terminus's failure log (one per probe) is off.
 */
@Module({
  imports: [DrainModule, TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, ProbesController],
  providers: [HealthService, Readiness],
})
export class HealthModule {}

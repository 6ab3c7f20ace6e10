import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DrainState } from '../common/http/drain-state';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ProbesController } from './probes.controller';
import { Readiness } from './readiness';

/**
 * `GET /v1/ping` for integrations, and the load balancer's probes (`/health/live`,
 * `/health/ready`, Terminus). The drain state is provided here, where readiness reads it;
 * GracefulShutdown begins it (graceful-shutdown.ts). Readiness logs its own changes, so
 * Terminus's failure log (one per probe) is off.
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, ProbesController],
  providers: [HealthService, Readiness, DrainState],
  exports: [DrainState],
})
export class HealthModule {}

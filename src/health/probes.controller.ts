import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';
import { Readiness } from './readiness';

/** Seconds a 503 of readiness asks a caller to wait (Retry-After): a few probe intervals. */
export const READY_RETRY_AFTER_S = '5';

/** The probes' paths (the request pipeline passes them by the API key and rate limit steps). */
export const PROBE_PATHS = ['/health/live', '/health/ready'] as const;

/**
 * The load balancer's probes (docs/OPERATIONS.md, Health checks), unversioned: they describe the
 * instance, not the API. No key is asked for or looked up, and they are not rate limited (the
 * request pipeline passes them by: PROBE_PATHS); they are not part of the API's OpenAPI
 * document.
 */
@ApiExcludeController()
@Controller('health')
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: Readiness,
  ) {}

  /** 200 while the process serves: it reads nothing. */
  @Get('live')
  @Public()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  live(): Promise<HealthCheckResult> {
    return this.checked([]);
  }

  /** 200 when this instance should get traffic; else 503 with the reason. */
  @Get('ready')
  @Public()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  ready(): Promise<HealthCheckResult> {
    return this.checked([() => this.readiness.check()]);
  }

  /** Terminus's result; its 503 becomes the API's error body, its message the reasons. */
  private async checked(
    indicators: HealthIndicatorFunction[],
  ): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      const result = unavailableResult(error);
      if (result === undefined) throw error;
      const failed = result.error ?? {};
      const reasons = Object.values(failed)
        .map((indicator) => indicator?.message)
        .filter((message): message is string => typeof message === 'string');
      // Draining: the connection closes too, as the shutdown gate has it for every other request.
      const draining = 'shutdown' in failed || reasons.length === 0;
      // Retry-After as every 503 of the service has it (docs/OPERATIONS.md, Health checks); the
      // exception filter adds Cache-Control: no-store, as to every error.
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        ErrorCode.SERVICE_UNAVAILABLE,
        `Not ready: ${reasons.length > 0 ? reasons.join('; ') : 'this instance is shutting down'}`,
        {
          'Retry-After': READY_RETRY_AFTER_S,
          ...(draining ? { Connection: 'close' } : {}),
        },
      );
    }
  }
}

/**
 * The result Terminus's ServiceUnavailableException carries, told by shape (Nest's exceptions may
 * come from another realm: all-exceptions.filter.ts).
 */
function unavailableResult(error: unknown): HealthCheckResult | undefined {
  const exception = error as {
    getStatus?: () => number;
    getResponse?: () => unknown;
  } | null;
  if (
    typeof exception?.getStatus !== 'function' ||
    typeof exception.getResponse !== 'function' ||
    exception.getStatus() !== HttpStatus.SERVICE_UNAVAILABLE
  ) {
    return undefined;
  }
  return exception.getResponse() as HealthCheckResult;
}

import { HttpStatus, Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Counter } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { Metrics } from '../metrics/metrics';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

/**
 * Counts every request once, whatever its route (unknown paths and HEAD included), per API key —
 * or per client IP when there is no valid key — and sets the X-Rate-Limit-* headers on every
 * response. Over the limit: 429 with Retry-After; also 429 for an address that has failed
 * authentication too often (AuthMiddleware sets `req.authThrottled`). Runs after AuthMiddleware,
 * which identifies the key. Each 429 is counted in `boxoffice_rate_limit_refusals_total` by
 * reason (docs/OPERATIONS.md, Metrics): `rate_limit`, or `auth_failures` for a throttled address.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  private readonly max: number;
  private readonly windowMs: number;
  private readonly refusals: Record<
    'rate_limit' | 'auth_failures',
    Counter.Internal
  >;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.max = config.rateLimit.max;
    this.windowMs = config.rateLimit.windowSeconds * 1000;
    const refusals = metrics.counter({
      name: 'boxoffice_rate_limit_refusals_total',
      help: 'Requests refused 429 by reason: rate_limit (over RATE_LIMIT_MAX in the window), auth_failures (an address over AUTH_FAILURE_MAX)',
      labelNames: ['reason'],
    });
    // Both series exist from the start, at 0, so that rate() sees the first refusal.
    this.refusals = {
      rate_limit: refusals.labels('rate_limit'),
      auth_failures: refusals.labels('auth_failures'),
    };
    for (const counter of Object.values(this.refusals)) counter.inc(0);
  }

  async use(req: Request, res: Response, next: NextFunction) {
    const identity = req.caller
      ? `key:${req.caller.apiKeyId}`
      : `ip:${req.ip ?? 'unknown'}`;
    let hit;
    try {
      hit = await this.store.hit(identity, this.windowMs);
    } catch (error) {
      next(error);
      return;
    }
    const resetSeconds = String(Math.max(0, Math.ceil(hit.resetMs / 1000)));
    res.setHeader('X-Rate-Limit-Limit', String(this.max));
    res.setHeader(
      'X-Rate-Limit-Remaining',
      String(Math.max(0, this.max - hit.count)),
    );
    res.setHeader('X-Rate-Limit-Reset', resetSeconds);
    if (hit.count > this.max) {
      this.refusals.rate_limit.inc();
      next(
        new ApiError(
          HttpStatus.TOO_MANY_REQUESTS,
          ErrorCode.TOO_MANY_REQUESTS,
          `Rate limit of ${this.max} requests per ${this.windowMs / 1000} seconds exceeded; retry in ${resetSeconds} seconds`,
          { 'Retry-After': resetSeconds },
        ),
      );
      return;
    }
    if (req.authThrottled !== undefined) {
      this.refusals.auth_failures.inc();
      const retryAfter = String(req.authThrottled);
      next(
        new ApiError(
          HttpStatus.TOO_MANY_REQUESTS,
          ErrorCode.TOO_MANY_REQUESTS,
          `Too many failed authentications from this address; retry in ${retryAfter} seconds`,
          { 'Retry-After': retryAfter },
        ),
      );
      return;
    }
    next();
  }
}

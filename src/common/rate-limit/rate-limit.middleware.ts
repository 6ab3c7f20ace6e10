import { HttpStatus, Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

/**
 * Counts every request once, whatever its route (unknown paths and HEAD included), per API key —
 * or per client IP when there is no valid key — and sets the X-Rate-Limit-* headers on every
 * response. Over the limit: 429 with Retry-After; also 429 for an address that has failed
 * authentication too often (AuthMiddleware sets `req.authThrottled`). Runs after AuthMiddleware,
 * which identifies the key.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  private readonly max: number;
  private readonly windowMs: number;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    config: AppConfig,
  ) {
    this.max = config.rateLimit.max;
    this.windowMs = config.rateLimit.windowSeconds * 1000;
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

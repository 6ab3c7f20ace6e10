import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';
import { AuthService } from './auth.service';

/**
 * Identifies the caller before routing, so that the rate limiter can count per key and the guard
 * can decide. It never rejects: `req.caller` is the verified caller, `req.authFailed` says a
 * credential was sent and is wrong, `req.authThrottled` that this address has failed too often
 * (docs/API.md, Limits: Failed authentications). A throttled address's credentials are looked up
 * only when they hold a key this instance has found valid before: guesses cost nothing.
 */
@Injectable()
export class AuthMiddleware implements NestMiddleware {
  constructor(
    private readonly auth: AuthService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async use(req: Request, _res: Response, next: NextFunction) {
    const header = req.headers.authorization;
    if (header !== undefined) {
      try {
        const ip = req.ip ?? 'unknown';
        const refusedFor = this.failures.refusedFor(ip);
        const caller =
          refusedFor > 0
            ? await this.auth.verifyIfKnown(header)
            : await this.auth.verify(header);
        if (caller) {
          req.caller = caller;
        } else {
          req.authFailed = true;
          const throttled =
            refusedFor > 0 ? refusedFor : await this.failures.recordFailure(ip);
          if (throttled > 0) req.authThrottled = throttled;
        }
      } catch (error) {
        next(error);
        return;
      }
    }
    next();
  }
}

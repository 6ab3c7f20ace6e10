import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AuthService } from './auth.service';

/**
 * Identifies the caller before routing, so that the rate limiter can count per key and the guard
 * can decide. It never rejects: `req.caller` is the verified caller, `req.authFailed` says a
 * credential was sent and is wrong.
 */
@Injectable()
export class AuthMiddleware implements NestMiddleware {
  constructor(private readonly auth: AuthService) {}

  async use(req: Request, _res: Response, next: NextFunction) {
    const header = req.headers.authorization;
    if (header !== undefined) {
      try {
        const caller = await this.auth.verify(header);
        if (caller) req.caller = caller;
        else req.authFailed = true;
      } catch (error) {
        next(error);
        return;
      }
    }
    next();
  }
}

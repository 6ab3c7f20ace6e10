import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Injectable,
} from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics asks for `Authorization: Bearer <METRICS_TOKEN>` (docs/OPERATIONS.md, Metrics).
 * Without it, or with another token: 401, so that Prometheus's target page says the token is
 * wrong rather than the path (which is no secret). Compared in constant time; the token is never
 * logged.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: AppConfig) {
    this.expected = digest(`Bearer ${config.metricsToken ?? ''}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>()
      .headers.authorization;
    // The scheme is case-insensitive (RFC 9110); the token is not.
    const sent =
      header === undefined ? '' : header.replace(/^bearer /i, 'Bearer ');
    if (timingSafeEqual(digest(sent), this.expected)) return true;
    throw new ApiError(
      HttpStatus.UNAUTHORIZED,
      ErrorCode.UNAUTHORIZED,
      'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>',
      { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    );
  }
}

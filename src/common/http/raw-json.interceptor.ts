import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Response } from 'express';
import { Observable, map } from 'rxjs';
import { RawJson } from './raw-json';

/**
 * Sends RawJson bodies untouched, as `application/json` (the bytes reach res.send through
 * JsonBufferExpressAdapter); other results pass through.
 */
@Injectable()
export class RawJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof RawJson)) return result;
        context
          .switchToHttp()
          .getResponse<Response>()
          .setHeader('Content-Type', 'application/json; charset=utf-8');
        return result.body;
      }),
    );
  }
}

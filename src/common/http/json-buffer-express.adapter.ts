import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, except that a Buffer returned by a handler (or an interceptor) is JSON
 * already encoded: it is sent as those bytes with res.send, as `application/json; charset=utf-8`
 * unless the handler chose another type, instead of being serialised again. res.send adds the
 * ETag and answers a matching If-None-Match with 304. Any other result takes Nest's usual path.
 */
export class JsonBufferExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number) {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    if (!response.hasHeader('Content-Type')) {
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
    }
    return response.send(body);
  }
}

import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, except that a Buffer returned by a handler is sent as it is with
 * res.send (Content-Type, ETag and 304 handling included) instead of being JSON-serialised as an
 * object. The RawJsonInterceptor hands it JSON bytes with their Content-Type set.
 */
export class JsonBufferExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number) {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    return response.send(body);
  }
}

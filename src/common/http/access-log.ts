import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { isCatchAll } from '../errors/route-methods';
import { requestIdOf } from './request-id';

/** What the access log writes for one request (docs/OPERATIONS.md, Logs). */
export interface AccessLogFields {
  method: string;
  /** The route template that answered (`/v1/orders/:order_id`), null when none did. */
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  /** The verified caller's box office, null without a valid key. */
  box_office_id: number | null;
  /** Present (true) when the connection closed before the response was complete. */
  aborted?: true;
}

/**
 * One JSON line per request, written by one pino call when the response is done (or the
 * connection is gone). The line carries the route template, never the path or the query as
 * sent (they can hold e-mail addresses, or a key pasted in the wrong place) and no header (so
 * never `Authorization`).
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = performance.now();
    res.once('close', () => {
      const route = routeOf(req);
      const fields: AccessLogFields = {
        method: req.method,
        route,
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - start) * 10) / 10,
        request_id: requestIdOf(req),
        box_office_id: req.caller?.boxOfficeId ?? null,
      };
      if (!res.writableFinished) fields.aborted = true;
      logger.info(
        fields,
        `${fields.method} ${route ?? '-'} ${fields.status} ${fields.duration_ms}ms ${fields.request_id}`,
      );
    });
    next();
  };
}

/** The template of the route that answered `req`, null when none did (an unknown path). */
export function routeOf(req: Request): string | null {
  const route = req.route as
    { path?: unknown; methods: Record<string, boolean> } | undefined;
  if (!route || isCatchAll(route.methods) || typeof route.path !== 'string') {
    return null;
  }
  return req.baseUrl + route.path;
}

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Printable ASCII without spaces, at most 128 characters. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's X-Request-Id when it is sane (short, printable, no spaces), else a new UUID. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)
    ? incoming
    : randomUUID();
}

/** Gives every request an id, echoed in the `X-Request-Id` response header and in the logs. */
export function requestIdMiddleware(
  req: Request,
  res: Response,
  next: NextFunction,
) {
  req.id = requestIdFor(req.headers['x-request-id']);
  res.setHeader('X-Request-Id', req.id);
  next();
}

/** The id requestIdMiddleware gave this request ('-' before it ran). */
export function requestIdOf(req: { id?: unknown }): string {
  return typeof req.id === 'string' ? req.id : '-';
}

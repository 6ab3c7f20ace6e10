import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

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

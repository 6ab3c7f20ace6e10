import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * Letters, digits, `.`, `_` and `-`, at most 64: enough for UUIDs, ULIDs and trace ids, and
 * nothing that could mean something in a log line, a header or a shell (no quotes, separators,
 * `=`, `/`, spaces or control characters).
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when it is sane (see SANE_REQUEST_ID), else a new UUID. */
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

import type { NextFunction, Request, Response } from 'express';

/**
 * The `Cache-Control` of each kind of response (docs/API.md, Headers: "Cache-Control"):
 * - `authenticated`: a response to a request with a valid API key. It belongs to the key's box
 *   office, so no shared cache may keep it; the client's own cache revalidates it with the ETag.
 * - `public`: a success without a key (`GET /v1/ping`): the same for everyone, still revalidated
 *   before reuse, so a liveness probe through a cache reaches the service.
 * - `write`: every answer to a write (common/writes): of its moment, never reused by a cache.
 * - `error`: every error. An error is an answer for one moment (a rate limit, an outage, a key
 *   revoked a second ago); 404 and 405 would otherwise be heuristically cacheable.
 */
export const CACHE_CONTROL = {
  authenticated: 'private, no-cache',
  public: 'no-cache',
  write: 'no-store',
  error: 'no-store',
} as const;

/**
 * Sets the success policy once the caller is known (after AuthMiddleware); the exception filter
 * replaces it with `no-store` on errors. 304s keep it, as RFC 9110 asks of a 304.
 */
export function cacheControlMiddleware(
  req: Request,
  res: Response,
  next: NextFunction,
) {
  res.setHeader(
    'Cache-Control',
    req.caller ? CACHE_CONTROL.authenticated : CACHE_CONTROL.public,
  );
  next();
}

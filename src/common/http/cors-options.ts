/**
 * The CORS policy (docs/API.md, Headers: "CORS"): what createApp gives the cors middleware, and
 * what the OpenAPI document says the CORS headers carry. Origins come from CORS_ORIGINS.
 */
export const CORS_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST'] as const;
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'X-Request-Id',
] as const;
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Idempotent-Replayed',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'X-Rate-Limit-Limit',
  'X-Rate-Limit-Remaining',
  'X-Rate-Limit-Reset',
  'X-Sync-Watermark',
  'X-Change-Head',
] as const;
/** Seconds a browser may reuse a preflight's answer. */
export const CORS_MAX_AGE = 600;

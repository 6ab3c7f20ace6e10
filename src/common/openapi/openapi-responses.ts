import type { OpenAPIObject } from '@nestjs/swagger';
import { CACHE_CONTROL } from '../http/cache-control';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE,
  CORS_METHODS,
} from '../http/cors-options';
import { COUNT } from './api-properties';

/** The security scheme's name in the document: HTTP Basic, the API key as user name. */
export const BASIC_AUTH = 'basicAuth';

type Schema = Record<string, unknown>;
interface Header {
  description: string;
  required: boolean;
  schema: Schema;
}
interface Response {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema: Schema; example?: unknown }>;
}
type Responses = Record<string, Response | { $ref: string }>;

const header = (
  description: string,
  required: boolean,
  schema: Schema,
): Header => ({ description, required, schema });
const oneString = (value: string): Schema => ({
  type: 'string',
  enum: [value],
});
const seconds = (): Schema => ({ type: 'integer', ...COUNT });

/**
 * The headers a response can carry, by name (docs/API.md, Headers). `required` says whether every
 * response of its kind has it. Transport headers (Content-Type, Content-Length, Content-Encoding,
 * Vary, Date, Connection) and helmet's protective headers are not listed.
 */
const REQUEST_ID = header(
  'Your X-Request-Id when it is sane (1–128 printable ASCII characters, no spaces), else a new UUID. The logs carry it.',
  true,
  { type: 'string', pattern: '^[\\x21-\\x7e]+$', maxLength: 128 },
);
const rateLimitHeaders = (required: boolean) => ({
  'X-Rate-Limit-Limit': header('Requests allowed per window', required, {
    type: 'integer',
    ...COUNT,
    minimum: 1,
  }),
  'X-Rate-Limit-Remaining': header(
    'Requests left in this window (never negative)',
    required,
    { type: 'integer', ...COUNT },
  ),
  'X-Rate-Limit-Reset': header(
    'Whole seconds until the window resets',
    required,
    seconds(),
  ),
});
/** CORS on an actual request: present when the request's Origin is allowed. */
const CORS_RESPONSE = {
  'Access-Control-Allow-Origin': header(
    "`*`, or the request's Origin when CORS_ORIGINS lists it; absent for other origins",
    false,
    {
      type: 'string',
      pattern: '^(\\*|[A-Za-z][A-Za-z0-9+.-]*://[^\\s/]+)$',
      maxLength: 2048,
    },
  ),
  'Access-Control-Expose-Headers': header(
    'The response headers a browser script may read',
    false,
    oneString(CORS_EXPOSED_HEADERS.join(',')),
  ),
};
/** CORS on a preflight: what the browser may send next, and for how long to remember it. */
const CORS_PREFLIGHT = {
  ...CORS_RESPONSE,
  'Access-Control-Allow-Methods': header(
    'The methods allowed',
    true,
    oneString(CORS_METHODS.join(',')),
  ),
  'Access-Control-Allow-Headers': header(
    'The request headers allowed',
    true,
    oneString(CORS_ALLOWED_HEADERS.join(',')),
  ),
  'Access-Control-Max-Age': header(
    'Seconds the browser may reuse this answer',
    true,
    {
      type: 'integer',
      format: 'int32',
      enum: [CORS_MAX_AGE],
      minimum: CORS_MAX_AGE,
      maximum: CORS_MAX_AGE,
    },
  ),
};
const ETAG = header(
  'A strong validator of the body: `"<byte length>-<CRC-32>"`, both base 36, followed on a revalidated order, issued ticket, check-in or event by `.<version>` (the data version it was read at). Send it back in If-None-Match to get 304 while nothing changed. docs/API.md, "ETag and If-None-Match".',
  true,
  {
    type: 'string',
    pattern: '^"[0-9a-z]+-[0-9a-z]+(\\.[0-9A-Za-z_-]{22})?"$',
    maxLength: 56,
  },
);
const ERROR_ETAG = header('The validator of the error body', true, {
  type: 'string',
  pattern: '^"[0-9a-z]+-[0-9a-z]+"$',
  maxLength: 32,
});
const cacheControl = (description: string, values: readonly string[]) =>
  header(description, true, { type: 'string', enum: [...values] });
const PRIVATE = cacheControl(
  'For this API key only (no shared cache may store it); revalidate with If-None-Match before reuse',
  [CACHE_CONTROL.authenticated],
);
const PUBLIC_OR_PRIVATE = cacheControl(
  '`no-cache` without a key (revalidate before reuse); `private, no-cache` with a valid key',
  [CACHE_CONTROL.public, CACHE_CONTROL.authenticated],
);
const NO_STORE = cacheControl('Errors are never stored', [CACHE_CONTROL.error]);
const retryAfter = (description: string) =>
  header(description, true, seconds());

/** The headers of a success (200, 201 or 304), whose Cache-Control depends on the operation. */
const successHeaders = (cache: Header) => ({
  ...rateLimitHeaders(true),
  'X-Request-Id': REQUEST_ID,
  ...CORS_RESPONSE,
  'Cache-Control': cache,
  ETag: ETAG,
});

/**
 * The headers of an error: those the rate limiter set, unless the error came before it. An error
 * body has an ETag like any body; it never earns a 304.
 */
const errorHeaders = (countedByRateLimiter = true) => ({
  ...rateLimitHeaders(countedByRateLimiter),
  'X-Request-Id': REQUEST_ID,
  ...CORS_RESPONSE,
  'Cache-Control': NO_STORE,
  ETag: ERROR_ETAG,
});

const ERROR_BODY = { $ref: '#/components/schemas/ErrorBodyDto' };

const errorResponse = (
  description: string,
  headers: Record<string, Header>,
  example?: { status: number; error_code: string; message: string },
): Response => ({
  description,
  headers,
  content: {
    'application/json': {
      schema: ERROR_BODY,
      ...(example ? { example } : {}),
    },
  },
});

/**
 * The errors every operation can answer, shared as components (docs/API.md, Errors). A 500 or a
 * 503 can come before the rate limiter counted the request (a key lookup that fails), so their
 * rate-limit headers are not promised.
 */
const SHARED_RESPONSES: Record<string, Response> = {
  Unauthorized: errorResponse(
    'UNAUTHORIZED: the API key is missing (where one is needed), malformed, unknown or revoked. The message is the same whatever was wrong.',
    {
      ...errorHeaders(),
      'WWW-Authenticate': header('How to authenticate', true, {
        ...oneString('Basic realm="Box Office API"'),
      }),
    },
    {
      status: 401,
      error_code: 'UNAUTHORIZED',
      message:
        'Send a valid API key as the user name of HTTP Basic auth with an empty password: Authorization: Basic base64("<api key>:")',
    },
  ),
  TooManyRequests: errorResponse(
    'TOO_MANY_REQUESTS: over the rate limit of this API key (of this client IP without one)',
    {
      ...errorHeaders(),
      'Retry-After': retryAfter('Seconds until the window resets'),
    },
    {
      status: 429,
      error_code: 'TOO_MANY_REQUESTS',
      message:
        'Rate limit of 5000 requests per 1800 seconds exceeded; retry in 1234 seconds',
    },
  ),
  InternalServerError: errorResponse(
    'INTERNAL_SERVER_ERROR: an unexpected error, logged with its request id',
    errorHeaders(false),
    {
      status: 500,
      error_code: 'INTERNAL_SERVER_ERROR',
      message: 'An unexpected error occurred; it has been logged',
    },
  ),
  ServiceUnavailable: errorResponse(
    'SERVICE_UNAVAILABLE: the database cannot be reached; retry later',
    { ...errorHeaders(false), 'Retry-After': retryAfter('Seconds to wait') },
    {
      status: 503,
      error_code: 'SERVICE_UNAVAILABLE',
      message:
        'The service is temporarily unable to reach its database; retry shortly',
    },
  ),
};

const ref = (name: keyof typeof SHARED_RESPONSES) => ({
  $ref: `#/components/responses/${name}`,
});

/** What any request can get whatever it asks: over the limit, or the service failing. */
const ANY_REQUEST: Responses = {
  '429': ref('TooManyRequests'),
  '500': ref('InternalServerError'),
  '503': ref('ServiceUnavailable'),
};

/**
 * Requests that match no operation, described for clients and for the e2e suite's response
 * check (docs/API.md, Headers: "CORS"; Errors: "Codes"): a CORS preflight (OPTIONS on any path),
 * another method on a documented path, an unknown path (any method).
 */
const UNMATCHED_REQUESTS = {
  description:
    'What requests that match no operation are answered: `preflight` for OPTIONS on any path (a CORS preflight, counted by the rate limiter), `methodNotAllowed` for any other method than the path’s operations (GET and HEAD, and POST where documented) on a documented path, `unknownPath` for any method on any other path.',
  preflight: {
    '204': {
      description: 'The CORS preflight, answered with no body',
      headers: {
        ...rateLimitHeaders(true),
        'X-Request-Id': REQUEST_ID,
        ...CORS_PREFLIGHT,
      },
    },
    '429': errorResponse(
      'TOO_MANY_REQUESTS: preflights count like any request',
      {
        ...errorHeaders(),
        ...CORS_PREFLIGHT,
        'Retry-After': retryAfter('Seconds until the window resets'),
      },
    ),
    '500': ref('InternalServerError'),
    '503': ref('ServiceUnavailable'),
  },
  methodNotAllowed: {
    '405': errorResponse(
      'METHOD_NOT_ALLOWED: the path exists, the method does not',
      {
        ...errorHeaders(),
        Allow: header('The methods the path takes', true, {
          type: 'string',
          enum: [
            'GET, HEAD, OPTIONS',
            // Where a POST operation is documented (POST /v1/check_ins).
            CORS_METHODS.join(', '),
            // Where a POST is the only operation (POST /v1/issued_tickets/{id}/void): no reads.
            'POST',
          ],
        }),
      },
    ),
    ...ANY_REQUEST,
  },
  unknownPath: {
    '404': errorResponse('NOT_FOUND: no resource at this path', errorHeaders()),
    ...ANY_REQUEST,
  },
};

/**
 * Completes every operation with what any operation can answer, and the headers of each
 * response: on a GET, 304 for a matching If-None-Match; 401, 429, 500 and 503 (as shared
 * components); and on its own successes and errors the headers of a success or an error.
 * Operations without a security requirement say so (`security: []`), and their successes may be
 * public (Cache-Control). The responses to requests that match no operation go in
 * `x-unmatched-requests`.
 */
export function documentCommonResponses(
  document: OpenAPIObject,
): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'delete'] as const) {
      const operation = pathItem[method];
      if (!operation) continue;
      operation.security ??= [];
      const cache = operation.security.length > 0 ? PRIVATE : PUBLIC_OR_PRIVATE;
      const responses = operation.responses as Responses;
      // A write's success is its 2xx: 201 for a creation, 200 for a change or a deletion, 202 for
      // work that follows (a webhook replay).
      const isSuccess = (status: string) =>
        method === 'get' ? status === '200' : /^2\d\d$/.test(status);
      const successStatus = method === 'get' ? '200' : '201';
      for (const [status, response] of Object.entries(responses)) {
        if ('$ref' in response) continue;
        // An operation's own success headers (a list's page headers, a write's Location) come on
        // top of every success's; its own error headers (the change feed's head) on top of every
        // error's.
        response.headers = isSuccess(status)
          ? { ...successHeaders(cache), ...response.headers }
          : { ...errorHeaders(), ...response.headers };
      }
      const ok = responses[successStatus];
      const success =
        ok && !('$ref' in ok) ? ok.headers : successHeaders(cache);
      if (method === 'get') {
        responses['304'] = {
          description:
            'Not Modified: If-None-Match matched the ETag (whatever Cache-Control or Pragma the request carries). No body.',
          headers: success,
        };
      }
      Object.assign(responses, { '401': ref('Unauthorized'), ...ANY_REQUEST });
      operation.responses = sortByStatus(responses);
    }
  }
  document.components = {
    ...document.components,
    responses: { ...document.components?.responses, ...SHARED_RESPONSES },
  };
  (document as unknown as Record<string, unknown>)['x-unmatched-requests'] =
    UNMATCHED_REQUESTS;
  return document;
}

function sortByStatus(responses: Responses): Responses {
  return Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  );
}

import type { OpenAPIObject } from '@nestjs/swagger';

type Header = { description: string; schema: { type: 'string' | 'integer' } };
type Response = {
  description: string;
  headers?: Record<string, Header>;
  content?: unknown;
};

const header = (
  description: string,
  type: 'string' | 'integer' = 'integer',
): Header => ({
  description,
  schema: { type },
});

/** Headers on every response, whatever the status (docs/API.md, Headers). */
const EVERY_RESPONSE: Record<string, Header> = {
  'X-Request-Id': header(
    'Your X-Request-Id when it is sane, else a new one',
    'string',
  ),
  'X-Rate-Limit-Limit': header('Requests allowed per window'),
  'X-Rate-Limit-Remaining': header('Requests left in this window'),
  'X-Rate-Limit-Reset': header('Seconds until the window resets'),
};

const BY_STATUS: Record<string, Record<string, Header>> = {
  '200': {
    ETag: header(
      'Send it back in If-None-Match to get 304 when nothing changed',
      'string',
    ),
  },
  '401': {
    'WWW-Authenticate': header('Basic realm="Box Office API"', 'string'),
  },
  '429': {
    'Retry-After': header('Seconds until a request will be accepted again'),
  },
  '503': { 'Retry-After': header('Seconds after which to retry') },
};

const errorResponse = (description: string): Response => ({
  description,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorBodyDto' },
    },
  },
});

/**
 * What every operation can answer besides its own responses, so that the document describes the
 * whole behaviour: 304 for a matching If-None-Match, 500 and 503, and the headers each status
 * carries. (405 for other methods is not an operation's response; the description says it.)
 */
export function documentCommonResponses(
  document: OpenAPIObject,
): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    const operation = pathItem.get;
    if (operation) {
      const responses = operation.responses as Record<string, Response>;
      responses['304'] ??= {
        description: 'Not Modified: If-None-Match matched the ETag',
      };
      responses['500'] ??= errorResponse(
        'INTERNAL_SERVER_ERROR: an unexpected error, logged with its request id',
      );
      responses['503'] ??= errorResponse(
        'SERVICE_UNAVAILABLE: the database cannot be reached; retry later',
      );
      for (const [status, response] of Object.entries(responses)) {
        response.headers = {
          ...EVERY_RESPONSE,
          ...BY_STATUS[status],
          ...response.headers,
        };
      }
    }
  }
  return document;
}

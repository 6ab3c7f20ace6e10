import { type Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '../errors/error-body.dto';
import { PaginationLinksInterceptor } from '../pagination/pagination-links.interceptor';

/**
 * The OpenAPI description every resource controller shares, so that each operation is described
 * the same way: authentication, the errors any operation may answer, lists and retrievals.
 */

/** On a resource's controller: its tag, Basic auth, 401 and 429. */
export function ApiResource(tag: string) {
  return applyDecorators(
    ApiTags(tag),
    ApiBasicAuth('apiKey'),
    ApiUnauthorizedResponse({
      type: ErrorBodyDto,
      description:
        'UNAUTHORIZED: missing, malformed, unknown or revoked API key',
    }),
    ApiTooManyRequestsResponse({
      type: ErrorBodyDto,
      description: 'TOO_MANY_REQUESTS: over the rate limit; see Retry-After',
    }),
  );
}

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  type: Type;
  /** What one item is called (`order`), for the error descriptions. */
  noun: string;
}

/** A keyset-paginated list: links built from the handler's Page. */
export function ApiList({
  operationId,
  summary,
  description,
  type,
  noun,
}: Operation) {
  return applyDecorators(
    UseInterceptors(PaginationLinksInterceptor),
    ApiOperation({ operationId, summary, description }),
    ApiOkResponse({ type }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: `VALIDATION_ERROR: a bad or unknown query parameter. INVALID_CURSOR: a cursor that is malformed or names no ${noun} of this box office.`,
    }),
  );
}

/** One item by its id, `param` in the path. */
export function ApiRetrieve({
  operationId,
  summary,
  description,
  type,
  noun,
  param,
  example,
}: Operation & { param: string; example: string }) {
  return applyDecorators(
    ApiOperation({ operationId, summary, description }),
    ApiParam({ name: param, example }),
    ApiOkResponse({ type }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: 'VALIDATION_ERROR: this path takes no query parameters',
    }),
    ApiNotFoundResponse({
      type: ErrorBodyDto,
      description: `NOT_FOUND: no such ${noun} in this box office`,
    }),
  );
}

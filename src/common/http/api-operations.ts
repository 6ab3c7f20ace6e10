import { type Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '../errors/error-body.dto';
import { PaginationLinksInterceptor } from '../pagination/pagination-links.interceptor';
import { idSchema } from './api-properties';
import { BASIC_AUTH } from './openapi-responses';

/**
 * The OpenAPI description every resource controller shares, so that each operation is described
 * the same way: authentication, lists and retrievals. What every operation can answer (304, 401,
 * 429, 500, 503) and the headers of each response are added to the whole document by
 * documentCommonResponses (openapi-responses.ts).
 */

/** On a resource's controller: its tag and Basic auth. */
export function ApiResource(tag: string) {
  return applyDecorators(ApiTags(tag), ApiBasicAuth(BASIC_AUTH));
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  type: Type;
  /** What one item is called (`order`), for the error descriptions. */
  noun: string;
}

/** A response header a list sends with every page, described for the OpenAPI document. */
export interface PageHeader {
  description: string;
  schema: { type: 'string' | 'integer'; [keyword: string]: unknown };
}

/** A keyset-paginated list: links built from the handler's Page. */
export function ApiList({
  operationId,
  summary,
  description,
  type,
  noun,
  pageHeaders = {},
}: Operation & { pageHeaders?: Record<string, PageHeader> }) {
  return applyDecorators(
    UseInterceptors(PaginationLinksInterceptor),
    ApiOperation({ operationId, summary, description }),
    ApiOkResponse({
      type,
      description: `A page of ${noun}s`,
      headers: Object.fromEntries(
        Object.entries(pageHeaders).map(([name, header]) => [
          name,
          { ...header, required: true },
        ]),
      ),
    }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: `VALIDATION_ERROR: a bad, repeated or unknown query parameter. INVALID_CURSOR: a cursor that is malformed or names no ${noun} of this box office.`,
    }),
  );
}

/** One item by its id, `param` in the path, ids `<prefix><number>`. */
export function ApiRetrieve({
  operationId,
  summary,
  description,
  type,
  noun,
  param,
  prefix,
}: Operation & { param: string; prefix: string }) {
  return applyDecorators(
    ApiOperation({ operationId, summary, description }),
    ApiParam({
      name: param,
      description: `The ${noun}'s id; anything else names no ${noun} (404)`,
      schema: { ...idSchema(prefix), example: `${prefix}1` },
    }),
    ApiOkResponse({ type, description: `The ${noun}` }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      description: 'VALIDATION_ERROR: this path takes no query parameters',
    }),
    ApiNotFoundResponse({
      type: ErrorBodyDto,
      description: `NOT_FOUND: no such ${noun} in this box office, or a malformed id`,
    }),
  );
}

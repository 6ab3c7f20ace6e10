import { type Type, applyDecorators } from '@nestjs/common';
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
import { ListPage } from '../pagination/pagination-links.interceptor';
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
  /** What several are called, when not the noun + `s`. */
  plural?: string;
  /** For a path under another resource (`/v1/event_series/{event_series_id}/events`): it. */
  parent?: { param: string; prefix: string; noun: string };
}

/** The parent's path parameter. */
const parentParam = (parent: NonNullable<Operation['parent']>) =>
  ApiParam({
    name: parent.param,
    description: `The ${parent.noun}'s id`,
    schema: { ...idSchema(parent.prefix), example: `${parent.prefix}1` },
  });

/** The parent's path parameter, and the 404 of a parent that is not the box office's. */
function parentDocs(parent: Operation['parent']) {
  if (!parent) return [];
  return [
    parentParam(parent),
    ApiNotFoundResponse({
      type: ErrorBodyDto,
      description: `NOT_FOUND: no such ${parent.noun} in this box office, or a malformed id`,
    }),
  ];
}

/** A response header a list sends with every page, described for the OpenAPI document. */
export interface PageHeader {
  description: string;
  schema: { type: 'string' | 'integer'; [keyword: string]: unknown };
}

/** Headers as a response's `headers`, each sent every time. */
export const requiredHeaders = (headers: Record<string, PageHeader>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [
      name,
      { ...header, required: true },
    ]),
  );

/** A keyset-paginated list: its body and links built from the handler's Page (ListPage). */
export function ApiList({
  operationId,
  summary,
  description,
  type,
  noun,
  plural = `${noun}s`,
  parent,
  pageHeaders = {},
  errorHeaders = {},
}: Operation & {
  pageHeaders?: Record<string, PageHeader>;
  /** Headers its 400 carries too (the change feed's head). */
  errorHeaders?: Record<string, PageHeader>;
}) {
  return applyDecorators(
    ListPage(),
    ApiOperation({ operationId, summary, description }),
    ...parentDocs(parent),
    ApiOkResponse({
      type,
      description: `A page of ${plural}`,
      headers: requiredHeaders(pageHeaders),
    }),
    ApiBadRequestResponse({
      type: ErrorBodyDto,
      ...(Object.keys(errorHeaders).length > 0
        ? { headers: requiredHeaders(errorHeaders) }
        : {}),
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
  parent,
}: Operation & { param: string; prefix: string }) {
  return applyDecorators(
    ApiOperation({ operationId, summary, description }),
    ...(parent ? [parentParam(parent)] : []),
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
      description: parent
        ? `NOT_FOUND: no such ${noun} in this ${parent.noun} of this box office, or a malformed id`
        : `NOT_FOUND: no such ${noun} in this box office, or a malformed id`,
    }),
  );
}

import { type Type, applyDecorators } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorBodyDto, InvalidBodyDto } from '../errors/error-body.dto';
import { CACHE_CONTROL } from '../http/cache-control';
import { BODY_TYPES, MAX_BODY_BYTES } from '../http/request-body';
import { ListPage } from '../pagination/pagination-links.interceptor';
import { itemPathOf } from '../resources/resource-identities';
import { MAX_ID, idSchema } from './api-properties';
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

/** The response headers a write's answer carries besides every response's. */
const WRITE_HEADERS = {
  'Idempotent-Replayed': {
    description:
      '`true` on the answer to a retry: the first request’s status and body, sent again (nothing was written)',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** What a write answers when it succeeds. */
type WriteSuccess =
  /** 201 with the created item and its `Location`, the item's own path (`RESOURCE.checkIn`). */
  | { created: { readonly prefix: string; readonly segment: string } }
  /** 200 with the item as the write left it. */
  | { changed: true }
  /** 202 with the item: the work it asked for goes on after the answer (`description`). */
  | { accepted: string };

/** A write's answer, success or refusal, is of its moment: never stored (writes.ts). */
/** The Cache-Control of every write's success (docs/API.md, "Cache-Control"). */
export const WRITE_CACHE_CONTROL = {
  'Cache-Control': {
    description: 'An answer to a write is never stored',
    required: true,
    schema: { type: 'string', enum: [CACHE_CONTROL.write] },
  },
};

/**
 * Any write (`POST`, `DELETE`), described once (docs/DEVELOPMENT.md, "Adding a write"): its body
 * (JSON or form fields; a write without one, a DELETE, has none and takes its retry key from the
 * header alone), its success (201 with `Location`, 200, or 202), and the errors of every write
 * (400, 403, 404, 413, 415, the Idempotency-Key's 409 and 422). `refusal` describes the 409s the
 * item's own rules answer, if it has any, told apart from the Idempotency-Key's 409 by their
 * `error_code`; its `type` is their body when it is more than the error body (a scan's refusal
 * carries the ticket). `param` is the path's item, for a write on one item
 * (`/v1/issued_tickets/{id}/void`).
 */
export function ApiWrite(
  options: Omit<Operation, 'parent' | 'plural'> &
    WriteSuccess & {
      body?: Type;
      /** The key scope the write needs. */
      scope: string;
      /** Its 404s, for a write that names an item (in its path or its body). */
      notFound?: string;
      refusal?: { type?: Type; description: string };
      param?: { name: string; prefix: string };
    },
) {
  const { operationId, summary, description, type, noun, body, scope } =
    options;
  const { notFound, refusal, param } = options;
  const error = { $ref: getSchemaPath(ErrorBodyDto) };
  const success =
    'created' in options
      ? ApiCreatedResponse({
          type,
          description: `The ${noun}, created`,
          headers: {
            Location: {
              description: `The ${noun}'s own path`,
              required: true,
              schema: {
                type: 'string',
                pattern: `^${itemPathOf(options.created, '[1-9][0-9]*')}$`,
                maxLength: itemPathOf(options.created, MAX_ID).length,
              },
            },
            ...WRITE_HEADERS,
            ...WRITE_CACHE_CONTROL,
          },
        })
      : 'accepted' in options
        ? ApiAcceptedResponse({
            type,
            description: options.accepted,
            headers: { ...WRITE_HEADERS, ...WRITE_CACHE_CONTROL },
          })
        : ApiOkResponse({
            type,
            description: `The ${noun}, as the write left it`,
            headers: { ...WRITE_HEADERS, ...WRITE_CACHE_CONTROL },
          });
  return applyDecorators(
    ApiExtraModels(...(refusal?.type ? [refusal.type] : []), InvalidBodyDto),
    ApiOperation({ operationId, summary, description }),
    ...(param
      ? [
          ApiParam({
            name: param.name,
            description: `The ${noun}'s id; anything else names no ${noun} (404)`,
            schema: { ...idSchema(param.prefix), example: `${param.prefix}1` },
          }),
        ]
      : []),
    ...(body ? [ApiConsumes(...BODY_TYPES), ApiBody({ type: body })] : []),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the same key from the same API key within 24 hours gets the first answer again (`Idempotent-Replayed: true`) and writes nothing',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x20-\\x7e]+$',
      },
    }),
    success,
    ApiBadRequestResponse({
      description:
        'VALIDATION_ERROR: bad fields (InvalidBody: `errors` lists each), or a body that does not parse, or a malformed Idempotency-Key',
      schema: { oneOf: [{ $ref: getSchemaPath(InvalidBodyDto) }, error] },
    }),
    ApiForbiddenResponse({
      type: ErrorBodyDto,
      description: `FORBIDDEN: the API key's scope is not ${scope}`,
    }),
    ...(notFound
      ? [ApiNotFoundResponse({ type: ErrorBodyDto, description: notFound })]
      : []),
    ApiConflictResponse({
      description: `${refusal ? `${refusal.description} ` : ''}IDEMPOTENCY_KEY_IN_USE: the first request with this Idempotency-Key is still running (Retry-After).`,
      headers: {
        ...WRITE_HEADERS,
        'Retry-After': {
          description: 'IDEMPOTENCY_KEY_IN_USE: seconds to wait',
          required: false,
          schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 1 },
        },
      },
      schema: refusal?.type
        ? { oneOf: [{ $ref: getSchemaPath(refusal.type) }, error] }
        : error,
    }),
    ...(body
      ? [
          ApiPayloadTooLargeResponse({
            type: ErrorBodyDto,
            description: `PAYLOAD_TOO_LARGE: a body of more than ${MAX_BODY_BYTES} bytes`,
          }),
          ApiUnsupportedMediaTypeResponse({
            type: ErrorBodyDto,
            description: `UNSUPPORTED_MEDIA_TYPE: a body that is not ${BODY_TYPES.join(' or ')}`,
          }),
        ]
      : []),
    ApiUnprocessableEntityResponse({
      type: ErrorBodyDto,
      description:
        'IDEMPOTENCY_KEY_REUSED: this Idempotency-Key came with a different request in the last 24 hours',
    }),
  );
}

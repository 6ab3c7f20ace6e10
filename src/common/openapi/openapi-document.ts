import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { license, version } from '../../../package.json';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_METHODS,
} from '../http/cors-options';
import { ErrorBodyDto } from '../errors/error-body.dto';
import { BASIC_AUTH, documentCommonResponses } from './openapi-responses';
import committedExamples from './openapi-examples.json';

/** A 200 example per operationId: what the demo data (seed 1) answers. */
export type OpenApiExamples = Record<string, unknown>;

const DESCRIPTION = `Access to a box office's orders, events and issued tickets, in the style of the Ticket Tailor API, and the one write: door apps recording scans (POST /v1/check_ins). The full reference is docs/API.md in the repository.

**Authentication.** HTTP Basic: the API key as the user name, an empty password (\`curl -u sk_…:\`). Only \`GET /v1/ping\` answers without a key; a wrong key is refused everywhere. A key's scope is \`read\` or \`check_in\`; only \`check_in\` may record scans (else 403).

**Conditional requests.** Every 200 carries a strong \`ETag\`. Send it back in \`If-None-Match\` (a list, \`W/\` forms and \`*\` work too) and an unchanged response is \`304 Not Modified\` with no body, whatever \`Cache-Control\` or \`Pragma\` the request carries (browsers and \`fetch\` add \`no-cache\` to such requests). \`HEAD\` answers as \`GET\` without a body.

**Caching.** Responses to a request with a valid key are \`Cache-Control: private, no-cache\`; \`GET /v1/ping\` without a key is \`no-cache\`; errors are \`no-store\`.

**CORS.** Origins are those of the server's CORS_ORIGINS setting (any by default). Methods ${CORS_METHODS.join(', ')}; request headers ${CORS_ALLOWED_HEADERS.join(', ')}; the ${CORS_EXPOSED_HEADERS.join(', ')} response headers are exposed. OPTIONS on any path is a preflight, answered 204 (see \`x-unmatched-requests\`), remembered for 600 seconds.

**Errors.** Every non-2xx response has the ErrorBody body (InvalidBody adds \`errors\` for a request body's bad fields, ScanRefusal \`check_in\` for a refused scan) and \`Cache-Control: no-store\`. A method a path does not serve answers 405 METHOD_NOT_ALLOWED with an Allow header; unknown paths answer 404 NOT_FOUND.

**Rate limits.** Per API key (per client IP without one), every request counted, reported in the X-Rate-Limit-* headers of every response.`;

/** The tags of the operations, in the order the document lists them. */
const TAGS: [string, string][] = [
  ['health', 'Liveness, and a check of an API key'],
  ['orders', "The box office's orders, with their line items and tickets"],
  ['events', "The box office's events, with their ticket types"],
  [
    'event-series',
    'Series of dated events (a weekly club night, a tour): the template, counts, and the dates',
  ],
  [
    'issued tickets',
    'Tickets on their own, for door scanning, attendee lists and incremental sync',
  ],
  ['check-ins', 'Door scans of issued tickets: check-ins and check-outs'],
  ['products', 'Add-ons sold beside tickets: programmes, merchandise, parking'],
  [
    'vouchers',
    'Gift vouchers and credit: batches of codes a buyer spends in an order',
  ],
  ['discounts', 'Discount codes and what they take off'],
  [
    'overview',
    "The box office's numbers of the last four weeks; the call integrations test a key with",
  ],
  [
    'changes',
    'The change feed: every change of a resource, deletions included, in commit order',
  ],
  [
    'webhook-endpoints',
    'Webhooks: the change feed pushed to URLs of the box office, signed, in order, retried',
  ],
];

/**
 * The OpenAPI document of the app: what /docs-json serves and what `npm run openapi` writes to
 * openapi.json, built the same way for both. `examples` are the 200 examples by operationId; by
 * default the committed ones (openapi-examples.json, written by `npm run openapi`).
 */
export function buildOpenApiDocument(
  app: INestApplication,
  examples: OpenApiExamples = committedExamples,
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Box Office API')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .addServer(
      '/',
      'The server that serves this document: local, staging or production alike',
    )
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description:
          'The API key as the user name, an empty password: `Authorization: Basic base64("<api key>:")`',
      },
      BASIC_AUTH,
    );
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  // package.json says UNLICENSED: the API is proprietary and no licence is granted.
  config.info.license = {
    name: `${license}: proprietary, no licence is granted`,
  };
  delete config.info.contact;
  for (const server of config.servers ?? []) {
    // Public: the document describes the API its clients call.
    Object.assign(server, { 'x-internal': false });
  }

  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorBodyDto],
  });
  documentCommonResponses(document);
  orderPathsByTag(document);
  inlineNullableObjects(document.components?.schemas ?? {});
  closeObjectSchemas(document.components?.schemas ?? {});
  attachExamples(document, examples);
  return withoutDtoSuffix(document);
}

/**
 * Paths in their tags' order, and under one tag a resource before the paths beneath it: the order
 * Nest registers controllers in follows the modules (a series' events are the events module's).
 */
function orderPathsByTag(document: OpenAPIObject) {
  const ranked = Object.entries(document.paths).map(([path, item]) => {
    const tag = Object.values(item)
      .flatMap((operation: { tags?: string[] }) => operation.tags ?? [])
      .at(0);
    const rank = TAGS.findIndex(([name]) => name === tag);
    if (rank < 0) throw new Error(`${path} has no tag of the document's`);
    return { path, item, rank };
  });
  ranked.sort(
    (a, b) =>
      a.rank - b.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  document.paths = Object.fromEntries(
    ranked.map(({ path, item }) => [path, item]),
  );
}

/**
 * Schemas named for what they describe (`Order`, not the class's `OrderDto`): the names clients'
 * generated types carry. Every `$ref` follows the rename.
 */
function withoutDtoSuffix(document: OpenAPIObject): OpenAPIObject {
  const rename = (name: string) => name.replace(/Dto$/, '');
  const schemas = document.components?.schemas ?? {};
  const renamed = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [rename(name), schema]),
  );
  if (Object.keys(renamed).length !== Object.keys(schemas).length) {
    throw new Error('two schemas have the same name once Dto is dropped');
  }
  const refs = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(refs);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string'
          ? value.replace(/^(#\/components\/schemas\/.+)Dto$/, '$1')
          : refs(value),
      ]),
    );
  };
  return refs({
    ...document,
    components: { ...document.components, schemas: renamed },
  }) as OpenAPIObject;
}

/**
 * A field that is an object or null (a series' `next_occurrence_date`): OpenAPI 3.0 cannot make a
 * `$ref` nullable (`nullable` widens only the `type` beside it, and the referenced schema still
 * refuses null), so the object's schema is written out in place, with `nullable: true`.
 */
function inlineNullableObjects(schemas: Record<string, unknown>) {
  for (const schema of Object.values(schemas)) {
    const properties = (schema as { properties?: Record<string, unknown> })
      .properties;
    for (const [name, property] of Object.entries(properties ?? {})) {
      const field = property as Record<string, unknown>;
      const refs = field.allOf as { $ref?: string }[] | undefined;
      if (field.nullable !== true || refs?.length !== 1 || !refs[0].$ref) {
        continue;
      }
      const target = schemas[refs[0].$ref.replace('#/components/schemas/', '')];
      const { allOf: _, ...rest } = field;
      properties![name] = {
        ...structuredClone(target as object),
        ...rest,
        type: 'object',
      };
    }
  }
}

/**
 * Every object schema lists exactly the fields served: `additionalProperties: false`, so a
 * field that appears undocumented is a contract violation rather than an extension.
 */
function closeObjectSchemas(schemas: Record<string, unknown>) {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (schema.properties !== undefined) {
      schema.type ??= 'object';
      schema.additionalProperties = false;
    }
    Object.values(schema).forEach(visit);
  };
  visit(schemas);
}

/** The 200 example of each operation that has one. */
function attachExamples(document: OpenAPIObject, examples: OpenApiExamples) {
  for (const pathItem of Object.values(document.paths)) {
    const operation = pathItem.get;
    const example = operation?.operationId
      ? examples[operation.operationId]
      : undefined;
    if (example === undefined) continue;
    const ok = operation?.responses['200'] as {
      content?: Record<string, { example?: unknown }>;
    };
    const json = ok.content?.['application/json'];
    if (json) json.example = example;
  }
}

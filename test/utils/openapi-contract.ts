import { readFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, Server } from 'node:http';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Every response an e2e test's server sends is checked against openapi.json, the API's contract:
 * its status must be documented for the request (the operation matched by method and path
 * template, or, for a request that matches none, `x-unmatched-requests`), every header it carries
 * must be documented (and valid) unless it is a transport or protective header, every header the
 * document requires must be there, and the body (decompressed) must match the documented schema.
 * HEAD, 204 and 304 responses must have no body. Violations are collected, and the jest setup
 * file (contract-violations.setup.ts) fails the test, or the file, that caused them.
 */

type Schema = Record<string, unknown>;
interface Header {
  required?: boolean;
  schema: Schema;
}
interface Response {
  description: string;
  headers?: Record<string, Header | Ref>;
  content?: Record<string, { schema: Schema }>;
}
interface Ref {
  $ref: string;
}
type Responses = Record<string, Response | Ref>;
interface Document {
  paths: Record<
    string,
    {
      get?: { responses: Responses };
      post?: { responses: Responses };
      delete?: { responses: Responses };
    }
  >;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
  };
  'x-unmatched-requests': Record<
    'preflight' | 'methodNotAllowed' | 'unknownPath',
    Responses
  >;
}

export const OPENAPI_FILE = join(__dirname, '../../openapi.json');
const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;

/**
 * Headers outside the contract: HTTP framing and content negotiation, and helmet's protective
 * headers (docs/API.md, Headers: "Response headers").
 */
const UNDOCUMENTED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'vary',
  'date',
  'connection',
  'keep-alive',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** Swagger UI and the document itself are documentation, not operations of the API. */
const isDocumentation = (path: string) => /^\/docs(-json)?(\/|$)/i.test(path);

/** Nor is the door app's static files (docs/API.md, "The door app"): test/door-app.e2e-spec.ts. */
const isDoorApp = (path: string, status: number) =>
  /^\/door(\/|$)/.test(path) && [200, 304].includes(status);

/**
 * Nor are the operator's endpoints (docs/OPERATIONS.md, Health checks and Metrics). With
 * METRICS_TOKEN unset, /metrics answers as any unknown path: test/metrics.e2e-spec.ts compares
 * the two.
 */
const isOperations = (path: string) =>
  /^\/(health\/(live|ready)|metrics)\/?$/.test(path);

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addVocabulary(['example']); // an annotation in OpenAPI 3.0 schemas
// The component schemas under the document's own pointers, so that `#/components/schemas/X`
// resolves as `openapi.json#/components/schemas/X`; `components` is only their container.
ajv.addKeyword('components');
ajv.addSchema(
  { components: { schemas: document.components.schemas } },
  'openapi.json',
);

/** A schema of the document with its `$ref`s pointing into it (`#/components/…` → `openapi.json#/…`). */
function inDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inDocument);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `openapi.json${value}`
        : inDocument(value),
    ]),
  );
}

const validators = new WeakMap<object, ValidateFunction>();
/** One compiled validator per schema object of the document, made when first needed. */
function validatorFor(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(inDocument(schema) as Schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** `validate`'s errors on its last value, one line each, paths under `root` (`body`, `Order`). */
const errorLines = (root: string, validate: ValidateFunction): string[] =>
  (validate.errors ?? []).map(
    (error) =>
      `${root}${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );

const componentRefs = new Map<string, Schema>();
/**
 * Where `value` departs from the document's component schema `name` (`Order`), one line per
 * problem: none when it conforms. The test helpers' resource shapes are these schemas, which a
 * unit spec ties to the field tables (src/resource-descriptions.spec.ts).
 */
export function schemaProblems(name: string, value: unknown): string[] {
  if (!(name in document.components.schemas)) {
    throw new Error(`openapi.json has no schema ${name}`);
  }
  let ref = componentRefs.get(name);
  if (!ref) {
    ref = { $ref: `#/components/schemas/${name}` };
    componentRefs.set(name, ref);
  }
  const validate = validatorFor(ref);
  return validate(value) ? [] : errorLines(name, validate);
}

const resolve = <T>(item: T | Ref): T => {
  if (item && typeof item === 'object' && '$ref' in item) {
    const [, , kind, name] = item.$ref.split('/');
    return (
      document.components as unknown as Record<string, Record<string, T>>
    )[kind][name];
  }
  return item;
};

/** `/v1/orders/{order_id}` → a matcher as the app routes: letter case exact, one optional `/`. */
const TEMPLATES = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

/** The documented responses a request can get, and what they are documented as. */
/** Whether every segment of the path percent-decodes: one that does not names no resource. */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function responsesFor(method: string, path: string): [Responses, string] {
  const unmatched = document['x-unmatched-requests'];
  if (method === 'OPTIONS') return [unmatched.preflight, 'a preflight'];
  const match = decodable(path)
    ? TEMPLATES.find(({ pattern }) => pattern.test(path))
    : undefined;
  if (!match) return [unmatched.unknownPath, 'an unknown path'];
  const { get, post, delete: remove } = document.paths[match.template];
  if ((method === 'GET' || method === 'HEAD') && get) {
    return [get.responses, `GET ${match.template}`];
  }
  if (method === 'POST' && post) {
    return [post.responses, `POST ${match.template}`];
  }
  if (method === 'DELETE' && remove) {
    return [remove.responses, `DELETE ${match.template}`];
  }
  return [unmatched.methodNotAllowed, `${method} on ${match.template}`];
}

interface Sent {
  method: string;
  url: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** What is wrong with one response, by the document; empty when nothing is. */
export function contractProblems(sent: Sent): string[] {
  // An absolute-form target (`GET http://host/v1/orders`) is routed by its path.
  const target = /^https?:\/\//i.test(sent.url)
    ? new URL(sent.url).pathname
    : sent.url;
  const path = target.split('?')[0];
  if (isDocumentation(path) || isOperations(path)) return [];
  if (isDoorApp(path, sent.status)) return [];
  const [responses, documentedAs] = responsesFor(sent.method, path);
  const documented = responses[String(sent.status)];
  if (documented === undefined) {
    return [
      `status ${sent.status} is not documented for ${documentedAs} (documented: ${Object.keys(responses).join(', ')})`,
    ];
  }
  const response = resolve(documented);
  return [
    ...headerProblems(response, sent.headers),
    ...bodyProblems(response, sent),
  ];
}

const text = (value: OutgoingHttpHeaders[string]) =>
  Array.isArray(value) ? value.join(', ') : String(value);

function headerProblems(
  response: Response,
  headers: OutgoingHttpHeaders,
): string[] {
  const problems: string[] = [];
  const documented = new Map(
    Object.entries(response.headers ?? {}).map(([name, header]) => [
      name.toLowerCase(),
      { name, header: resolve(header) },
    ]),
  );
  for (const [key, { name, header }] of documented) {
    const value = headers[key];
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const raw = text(value);
    const typed = header.schema.type === 'integer' ? Number(raw) : raw;
    if (header.schema.type === 'integer' && !/^-?(0|[1-9][0-9]*)$/.test(raw)) {
      problems.push(`header ${name}: ${JSON.stringify(raw)} is not an integer`);
      continue;
    }
    const validate = validatorFor(header.schema);
    if (!validate(typed)) {
      for (const error of validate.errors ?? []) {
        problems.push(
          `header ${name}: ${JSON.stringify(raw)} ${error.message}`,
        );
      }
    }
  }
  for (const key of Object.keys(headers)) {
    if (!documented.has(key) && !UNDOCUMENTED_HEADERS.has(key)) {
      problems.push(
        `header ${key} is not documented for this response (${text(headers[key])})`,
      );
    }
  }
  return problems;
}

function bodyProblems(response: Response, sent: Sent): string[] {
  const bodiless =
    sent.method === 'HEAD' || sent.status === 204 || sent.status === 304;
  if (bodiless || !response.content) {
    return sent.body.length === 0
      ? []
      : [`a body of ${sent.body.length} bytes where none is documented`];
  }
  const type = text(sent.headers['content-type'] ?? '');
  const mediaType = Object.keys(response.content).find((documented) =>
    type.startsWith(documented),
  );
  if (mediaType === undefined) {
    return [`Content-Type ${JSON.stringify(type)} is not documented`];
  }
  let body: unknown;
  try {
    body = JSON.parse(decode(sent).toString('utf8'));
  } catch (error) {
    return [`the body is not JSON: ${(error as Error).message}`];
  }
  const schema = response.content[mediaType].schema;
  const validate = validatorFor(schema);
  if (!validate(body)) return errorLines('body', validate);
  // An error body's `status` is documented as the HTTP status, repeated.
  const { status: repeated, error_code: code } = body as Record<
    string,
    unknown
  >;
  if (code !== undefined && repeated !== sent.status) {
    return [`body/status is ${String(repeated)}, not the HTTP status`];
  }
  return [];
}

/** The body as JSON bytes, whatever Content-Encoding it was sent with. */
function decode({ headers, body }: Sent): Buffer {
  switch (text(headers['content-encoding'] ?? 'identity')) {
    case 'br':
      return brotliDecompressSync(body);
    case 'gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      return body;
  }
}

/** A response that broke the contract, for the report. */
export interface Violation {
  request: string;
  problems: string[];
}

const violations: Violation[] = [];

/** The violations collected since the last call. */
export function takeViolations(): Violation[] {
  return violations.splice(0);
}

/** Explains collected violations, one request after another. */
export function describeViolations(found: Violation[]): string {
  return [
    `${found.length} response(s) do not match openapi.json (fix the code, or the document with \`npm run openapi\`):`,
    ...found.map(
      ({ request, problems }) =>
        `  ${request}\n${problems.map((p) => `    - ${p}`).join('\n')}`,
    ),
  ].join('\n');
}

type Chunk = string | Buffer | Uint8Array;

/**
 * Checks every response `server` sends. It wraps each response's write and end, so it sees the
 * bytes as sent (compressed or not) and checks them in end, before the client can have them all.
 */
export function checkResponsesAgainstContract(server: Server): void {
  server.prependListener(
    'request',
    (req: IncomingMessage, res: ServerResponse) => {
      const method = req.method ?? '';
      const url = req.url ?? '';
      const chunks: Buffer[] = [];
      const keep = (chunk: unknown, encoding: unknown) => {
        if (typeof chunk === 'string') {
          chunks.push(
            Buffer.from(
              chunk,
              typeof encoding === 'string'
                ? (encoding as BufferEncoding)
                : 'utf8',
            ),
          );
        } else if (chunk instanceof Uint8Array) {
          chunks.push(Buffer.from(chunk));
        }
      };
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      let checked = false;
      res.write = ((chunk: Chunk, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as ServerResponse['write'];
      res.end = ((...args: unknown[]) => {
        if (!checked) {
          checked = true;
          if (typeof args[0] !== 'function') keep(args[0], args[1]);
          record({
            method,
            url,
            status: res.statusCode,
            headers: res.getHeaders(),
            body: Buffer.concat(chunks),
          });
        }
        return end(...args);
      }) as ServerResponse['end'];
    },
  );
}

function record(sent: Sent) {
  let problems: string[];
  try {
    problems = contractProblems(sent);
  } catch (error) {
    problems = [`the check itself failed: ${(error as Error).stack}`];
  }
  if (problems.length > 0) {
    violations.push({
      request: `${sent.method} ${sent.url} → ${sent.status}`,
      problems,
    });
  }
}

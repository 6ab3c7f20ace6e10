import Database, { type Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { DataSource } from 'typeorm';
import { ApiError } from '../src/common/errors/api-error';
import { ErrorCode } from '../src/common/errors/error-codes';
import {
  pageLinks,
  wrapPage,
} from '../src/common/pagination/pagination-links.interceptor';
import {
  ResourceReader,
  pageRequest,
} from '../src/common/resources/resource-reader';
import { parseDatabaseUrl } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import type { ReadRows, Row } from '../src/database/row-reader';
import { ListOrdersQueryDto } from '../src/orders/dto/list-orders-query.dto';
import { ORDER_SOURCE } from '../src/orders/order.fields';
import { orderFilters } from '../src/orders/orders.service';

/**
 * The framework-free baseline (bench/README.md, "Servers"): `node:http`, the database driver and
 * the service's own statements and JSON assembly (the orders' ResourceReader), with nothing
 * between the socket and the reader: no Nest pipeline, Express, validation, interceptors,
 * ETags, rate limits, request ids or security headers, and on SQLite no TypeORM either (the
 * reader's statements run as better-sqlite3 prepared statements; on PostgreSQL they already go
 * straight to the pool as named statements). It serves the orders list (`limit`, the cursors,
 * `created_at` ranges, `event_id`, `status`) and `GET /v1/orders/{id}` with the same statements
 * and bytes as the service, less the sync horizon a list of ours reads for its
 * `X-Sync-Watermark` header; what ours costs beyond it is the pipeline's.
 * `DATABASE_URL=… PORT=… node dist/bench/bare.js`
 */

const LIST_PARAMETERS = new Set([
  'limit',
  'starting_after',
  'ending_before',
  'created_at',
  'created_at.gt',
  'created_at.gte',
  'created_at.lt',
  'created_at.lte',
  'event_id',
  'status',
]);
const NUMBERS = new Set(['limit', 'created_at']);

/** SQLite: each statement text prepared once, kept in both row shapes the reader asks for. */
function sqliteReader(file: string): ReadRows {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  const objects = new Map<string, Statement>();
  const arrays = new Map<string, Statement>();
  return (sql, params, options) => {
    const cache = options?.arrays ? arrays : objects;
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (options?.arrays) statement.raw(true);
      cache.set(sql, statement);
    }
    return Promise.resolve(statement.all(...params) as Row[]);
  };
}

async function start(): Promise<void> {
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  const dataSource = new DataSource(buildDataSourceOptions(target));
  let reader: ResourceReader;
  if (target.type === 'sqlite') {
    // The data source only names the dialect here: it is never connected.
    const read = sqliteReader(target.database);
    reader = new ResourceReader(dataSource, ORDER_SOURCE, read);
  } else {
    await dataSource.initialize();
    reader = new ResourceReader(dataSource, ORDER_SOURCE);
  }

  const callers = new Map<string, number>();
  const keySql =
    target.type === 'sqlite'
      ? 'SELECT box_office_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL'
      : 'SELECT box_office_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL';
  /** The box office of the Basic auth user name, looked up once per key. */
  async function boxOffice(req: IncomingMessage): Promise<number> {
    const header = req.headers.authorization ?? '';
    const user = Buffer.from(header.replace(/^Basic /, ''), 'base64')
      .toString('utf8')
      .split(':')[0];
    const hash = createHash('sha256').update(user, 'utf8').digest('hex');
    let id = callers.get(hash);
    if (id === undefined) {
      const [row] = await reader.read(keySql, [hash]);
      if (!row) throw new ApiError(401, ErrorCode.UNAUTHORIZED, 'No such key');
      id = Number(row.box_office_id);
      callers.set(hash, id);
    }
    return id;
  }

  async function list(url: URL, tenant: number): Promise<Buffer> {
    const raw: Record<string, string> = {};
    const query = new ListOrdersQueryDto() as unknown as Record<
      string,
      unknown
    >;
    for (const [name, value] of url.searchParams) {
      if (!LIST_PARAMETERS.has(name)) {
        throw ApiError.validation(`bare serves no parameter ${name}`);
      }
      raw[name] = value;
      const numeric = NUMBERS.has(name) || name.startsWith('created_at.');
      if (numeric && !/^\d+$/.test(value)) {
        throw ApiError.validation(`${name} must be a whole number`);
      }
      query[name] = numeric ? Number(value) : value;
    }
    const dto = query as unknown as ListOrdersQueryDto;
    const page = await reader.page(
      tenant,
      pageRequest(dto, orderFilters(tenant, dto)),
    );
    return wrapPage(page.items, pageLinks(page, '/v1/orders', raw));
  }

  async function answer(req: IncomingMessage): Promise<Buffer> {
    const url = new URL(req.url ?? '/', 'http://bare');
    const tenant = await boxOffice(req);
    if (url.pathname === '/v1/orders') return list(url, tenant);
    const one = /^\/v1\/orders\/([^/]+)$/.exec(url.pathname);
    if (one) {
      let id: string;
      try {
        id = decodeURIComponent(one[1]);
      } catch {
        throw new ApiError(404, ErrorCode.NOT_FOUND, 'No such order');
      }
      return reader.one(tenant, id);
    }
    throw new ApiError(404, ErrorCode.NOT_FOUND, 'bare serves orders only');
  }

  const send = (res: ServerResponse, status: number, body: Buffer) => {
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
    });
    res.end(body);
  };

  createServer((req, res) => {
    answer(req).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (!(error instanceof ApiError)) {
          console.error(error);
          send(res, 500, Buffer.from('{"status":500}'));
          return;
        }
        const status = error.getStatus();
        const body = {
          status,
          error_code: error.code,
          message: error.message,
        };
        send(res, status, Buffer.from(JSON.stringify(body)));
      },
    );
  }).listen(Number(process.env.PORT ?? 3003));
}

process.on('SIGTERM', () => process.exit(0));
void start();

import Database, { type Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../src/common/errors/api-error';
import { ErrorCode } from '../../src/common/errors/error-codes';
import {
  pageLinks,
  wrapPage,
} from '../../src/common/pagination/pagination-links.interceptor';
import {
  ResourceReader,
  pageRequest,
} from '../../src/common/resources/resource-reader';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import type { ReadRows, Row } from '../../src/database/row-reader';
import { ListOrdersQueryDto } from '../../src/orders/dto/list-orders-query.dto';
import { ORDER_SOURCE } from '../../src/orders/order.fields';
import { orderFilters } from '../../src/orders/orders.service';

/**
 * The orders' reader as the floors below ours use it (bench/README.md, "Servers"): `bare`
 * (node:http) and `nest` (Nest on Express, one controller) both answer with it, so that the two
 * differ from each other, and from ours, only in what carries a request to it. The service's own
 * statements and JSON assembly (the orders' ResourceReader); on SQLite without TypeORM (each
 * statement a better-sqlite3 prepared statement), on PostgreSQL straight to the pool as named
 * statements, as ours sends them. What ours adds beyond it is the pipeline's.
 */
export interface OrderReader {
  /** The box office of the Basic auth user name, looked up once per key (no key check beyond). */
  boxOffice(authorization: string | undefined): Promise<number>;
  /** GET /v1/orders: `limit`, the cursors, `created_at` ranges, `event_id`, `status`. */
  list(searchParams: URLSearchParams, tenant: number): Promise<Buffer>;
  /** GET /v1/orders/{id}. */
  one(tenant: number, id: string): Promise<Buffer>;
}

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

export async function openOrderReader(
  databaseUrl: string | undefined,
): Promise<OrderReader> {
  const target = parseDatabaseUrl(databaseUrl);
  const dataSource = new DataSource(buildDataSourceOptions(target));
  let reader: ResourceReader;
  if (target.type === 'sqlite') {
    // The data source only names the dialect here: it is never connected.
    reader = new ResourceReader(
      dataSource,
      ORDER_SOURCE,
      sqliteReader(target.database),
    );
  } else {
    await dataSource.initialize();
    reader = new ResourceReader(dataSource, ORDER_SOURCE);
  }

  const callers = new Map<string, number>();
  const keySql =
    target.type === 'sqlite'
      ? 'SELECT box_office_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL'
      : 'SELECT box_office_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL';

  return {
    async boxOffice(authorization) {
      const user = Buffer.from(
        (authorization ?? '').replace(/^Basic /, ''),
        'base64',
      )
        .toString('utf8')
        .split(':')[0];
      const hash = createHash('sha256').update(user, 'utf8').digest('hex');
      let id = callers.get(hash);
      if (id === undefined) {
        const [row] = await reader.read(keySql, [hash]);
        if (!row)
          throw new ApiError(401, ErrorCode.UNAUTHORIZED, 'No such key');
        id = Number(row.box_office_id);
        callers.set(hash, id);
      }
      return id;
    },

    async list(searchParams, tenant) {
      const raw: Record<string, string> = {};
      const query = new ListOrdersQueryDto() as unknown as Record<
        string,
        unknown
      >;
      for (const [name, value] of searchParams) {
        if (!LIST_PARAMETERS.has(name)) {
          throw ApiError.validation(`this floor serves no parameter ${name}`);
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
    },

    one: (tenant, id) => reader.one(tenant, id),
  };
}

/** An error as the floors answer it: the ApiError's status and body, else a bare 500. */
export function floorError(error: unknown): { status: number; body: Buffer } {
  if (!(error instanceof ApiError)) {
    console.error(error);
    return { status: 500, body: Buffer.from('{"status":500}') };
  }
  const status = error.getStatus();
  return {
    status,
    body: Buffer.from(
      JSON.stringify({
        status,
        error_code: error.code,
        message: error.message,
      }),
    ),
  };
}

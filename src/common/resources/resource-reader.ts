import type { DataSource } from 'typeorm';
import { type ReadRows, type Row, rowReader } from '../../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  type Statement,
  dialectFor,
} from '../../database/sql-dialect';
import { ApiError } from '../errors/api-error';
import { parsePrefixedId } from '../ids';
import type { Fields } from './field-table';
import {
  type ResourceJson,
  compileResourceJson,
} from './resource-json';
import type { Filter } from '../pagination/list-filters';
import { type CursorQuery, DEFAULT_PAGE_SIZE } from '../pagination/list-query.dto';
import { type Page, emptyPage } from '../pagination/page';

/** Where a resource lives and how its list is ordered; one per resource. */
export interface ResourceSource {
  /** What one item is called in messages (`order`), and its id prefix (`or_`). */
  readonly noun: string;
  readonly prefix: string;
  /** The resource's table with its alias (`orders o`), and the joins its fields need. */
  readonly table: string;
  readonly joins: string;
  /** The column that names the owning box office, and the integer id column. */
  readonly tenant: string;
  readonly id: string;
  /** The list order: this column, then the id, both in `order`. */
  readonly sortKey: string;
  readonly order: 'ASC' | 'DESC';
  readonly fields: Fields;
}

export interface PageRequest {
  readonly limit: number;
  readonly starting_after?: unknown;
  readonly ending_before?: unknown;
  readonly filters: readonly Filter[];
}

/** A list query's page parameters (limit defaulted) with the filters the resource made of it. */
export function pageRequest(
  query: CursorQuery,
  filters: readonly Filter[],
): PageRequest {
  return {
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    starting_after: query.starting_after,
    ending_before: query.ending_before,
    filters,
  };
}

export type CursorParameter = 'starting_after' | 'ending_before';

/** A place in the list order. */
interface Position {
  readonly key: number;
  readonly id: number;
}

export type { Statement } from '../../database/sql-dialect';

/**
 * Reads one resource for a box office: a keyset page of its list, or one item. Every statement
 * is scoped to the caller's box office, so another box office's item is indistinguishable from
 * a missing one.
 *
 * Keyset pagination on an index that starts (tenant, sort key, id): a page costs the same at any
 * depth and a fixed number of statements whatever the limit — the cursor lookup, the page
 * (limit + 1 rows, to know whether more follow), the children of its items when the service
 * builds the JSON (one statement per child array), and, when a page is reached through a cursor,
 * one probe for the other direction. An item is one statement, its children included.
 */
export class ResourceReader {
  readonly dialect: SqlDialect;
  readonly json: ResourceJson;
  /** Runs every statement the reader sends (see `rowReader`). */
  readonly read: ReadRows;

  constructor(
    dataSource: DataSource,
    readonly source: ResourceSource,
  ) {
    this.dialect = dialectFor(dataSource.options.type);
    this.json = compileResourceJson(source.fields, this.dialect);
    this.read = rowReader(dataSource);
  }

  async page(tenantId: number, request: PageRequest): Promise<Page> {
    // Both cursors given: ending_before wins (docs/API.md, "Pagination").
    const cursorName: CursorParameter | null =
      request.ending_before !== undefined
        ? 'ending_before'
        : request.starting_after !== undefined
          ? 'starting_after'
          : null;
    const cursor =
      cursorName === null
        ? null
        : await this.position(tenantId, request[cursorName], cursorName);
    // ending_before walks back: read in reverse list order from the cursor, then flip.
    const backwards = cursorName === 'ending_before';

    const page = this.pageStatement(tenantId, request, cursor, backwards);
    const rows = await this.read(page.sql, page.params);
    const more = rows.length > request.limit;
    const pageRows = rows.slice(0, request.limit);
    if (backwards) pageRows.reverse();
    if (pageRows.length === 0) return emptyPage();

    const first = pageRows[0];
    const last = pageRows[pageRows.length - 1];
    // Reached through a cursor: whether anything lies the other way needs one probe.
    let other = false;
    if (cursor) {
      const probe = backwards
        ? this.probeStatement(tenantId, request, positionOf(last), 'after')
        : this.probeStatement(tenantId, request, positionOf(first), 'before');
      other = (await this.read(probe.sql, probe.params)).length > 0;
    }
    await this.json.readChildren(pageRows, this.read);
    return {
      items: this.json.render(pageRows),
      firstId: `${this.source.prefix}${String(first.id)}`,
      lastId: `${this.source.prefix}${String(last.id)}`,
      hasNext: backwards ? other : more,
      hasPrevious: backwards ? more : other,
    };
  }

  /** One item's JSON bytes; 404 for a malformed id, a missing item or another box office's. */
  async one(tenantId: number, publicId: string): Promise<Buffer> {
    const { noun, prefix } = this.source;
    const id = parsePrefixedId(prefix, publicId);
    if (id !== null) {
      const statement = this.oneStatement(tenantId, id);
      const rows = this.json.resourceRows(
        await this.read(statement.sql, statement.params),
      );
      if (rows.length === 1) return Buffer.from(this.json.render(rows)[0]);
    }
    throw ApiError.notFound(
      id === null
        ? `No such ${noun} in this box office (${noun} ids are ${prefix}<number>)`
        : `No ${noun} ${publicId} in this box office`,
    );
  }

  oneStatement(tenantId: number, id: number): Statement {
    const { table, joins, tenant, id: idColumn } = this.source;
    const params = new SqlParams(this.dialect);
    const sql = [
      `SELECT ${idColumn} AS id,\n  ${this.json.selectList}`,
      `FROM ${table}${joins ? ` ${joins}` : ''}`,
      `WHERE ${tenant} = ${params.add(tenantId)} AND ${idColumn} = ${params.add(id)}`,
    ].join('\n');
    return this.json.withChildren({ sql, params: params.values });
  }

  cursorStatement(tenantId: number, id: number): Statement {
    const { table, tenant, id: idColumn, sortKey } = this.source;
    const params = new SqlParams(this.dialect);
    const sql = `SELECT ${idColumn} AS id, ${sortKey} AS sort_key FROM ${table} WHERE ${tenant} = ${params.add(
      tenantId,
    )} AND ${idColumn} = ${params.add(id)}`;
    return { sql, params: params.values };
  }

  pageStatement(
    tenantId: number,
    request: PageRequest,
    cursor: Position | null,
    backwards: boolean,
  ): Statement {
    const { table, joins, id, sortKey, order } = this.source;
    const params = new SqlParams(this.dialect);
    const where = this.where(
      params,
      tenantId,
      request.filters,
      cursor,
      backwards ? 'before' : 'after',
    );
    const direction = backwards ? reverse(order) : order;
    const sql = [
      `SELECT ${id} AS id, ${sortKey} AS sort_key,\n  ${this.json.selectList}`,
      `FROM ${table}${joins ? ` ${joins}` : ''}`,
      `WHERE ${where}`,
      `ORDER BY ${sortKey} ${direction}, ${id} ${direction}`,
      `LIMIT ${params.add(request.limit + 1)}`,
    ].join('\n');
    return { sql, params: params.values };
  }

  probeStatement(
    tenantId: number,
    request: PageRequest,
    from: Position,
    side: 'before' | 'after',
  ): Statement {
    const params = new SqlParams(this.dialect);
    const where = this.where(params, tenantId, request.filters, from, side);
    return {
      sql: `SELECT 1 AS found FROM ${this.source.table} WHERE ${where} LIMIT 1`,
      params: params.values,
    };
  }

  /** The list position of the cursor's item, which must belong to this box office. */
  private async position(
    tenantId: number,
    value: unknown,
    parameter: CursorParameter,
  ): Promise<Position> {
    const { noun, prefix } = this.source;
    const id = parsePrefixedId(prefix, value);
    if (id === null) throw ApiError.invalidCursor(parameter, noun, prefix);
    const statement = this.cursorStatement(tenantId, id);
    const rows = await this.read(statement.sql, statement.params);
    if (rows.length === 0)
      throw ApiError.invalidCursor(parameter, noun, prefix);
    return positionOf(rows[0]);
  }

  /** Tenant, filters (AND), then the keyset position: the items `side` of it in list order. */
  private where(
    params: SqlParams,
    tenantId: number,
    filters: readonly Filter[],
    position: Position | null,
    side: 'before' | 'after',
  ): string {
    const { tenant, sortKey, id, order } = this.source;
    // "After" in a newest-first list is "smaller".
    const op = (side === 'after') === (order === 'DESC') ? '<' : '>';
    const clauses = [`${tenant} = ${params.add(tenantId)}`];
    for (const filter of filters) {
      if (position && impliedByPosition(filter, position, op)) continue;
      clauses.push(filter.condition(params));
    }
    if (position) {
      clauses.push(
        `(${sortKey}, ${id}) ${op} (${params.add(position.key)}, ${params.add(position.id)})`,
      );
    }
    return clauses.join(' AND ');
  }
}

const reverse = (order: 'ASC' | 'DESC') => (order === 'ASC' ? 'DESC' : 'ASC');

/**
 * Whether a bound on the sort key adds nothing to the keyset condition: `(key, id) < (c, i)`
 * implies `key <= c`, so `key < x` (x > c) or `key <= x` (x >= c) is redundant, and likewise
 * the other way. Leaving it out matters: SQLite bounds the index scan with one of two range
 * conditions on the key and would pick the filter, scanning from the filter's end of the range
 * to the cursor instead of starting at the cursor.
 */
function impliedByPosition(
  filter: Filter,
  position: Position,
  op: '<' | '>',
): boolean {
  const bound = filter.sortKeyBound;
  if (!bound) return false;
  const c = position.key;
  return op === '<'
    ? (bound.op === '<' && c < bound.value) ||
        (bound.op === '<=' && c <= bound.value)
    : (bound.op === '>' && c > bound.value) ||
        (bound.op === '>=' && c >= bound.value);
}

// PostgreSQL hands BIGINT back as a string.
function positionOf(row: Row): Position {
  return { key: Number(row.sort_key), id: Number(row.id) };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { DEFAULT_PAGE_SIZE } from '../common/pagination/cursor-query.dto';
import { Page, emptyPage } from '../common/pagination/page';
import { SqlDialect, SqlParams, dialectFor } from '../database/sql-dialect';
import {
  CREATED_AT_FILTERS,
  ListOrdersQueryDto,
} from './dto/list-orders-query.dto';
import { parsePrefixedId } from './order-ids';
import {
  ORDER_FROM,
  OrderRow,
  assembleOrderJson,
  orderSelectList,
} from './orders.mapper';

/** A place in the list order (created_at DESC, id DESC). */
interface Position {
  createdAt: number;
  id: number;
}

const NEWEST_FIRST = 'ORDER BY o.created_at DESC, o.id DESC';
const OLDEST_FIRST = 'ORDER BY o.created_at ASC, o.id ASC';

/**
 * Reads a box office's orders. Every statement is scoped to the caller's box office, so another
 * box office's order is indistinguishable from a missing one.
 *
 * Keyset pagination on the (box_office_id, created_at, id) index family: a page costs the same at
 * any depth and a fixed number of statements whatever the limit — the cursor lookup, the page
 * (limit + 1 rows, to know whether more follow) and, when a page is reached through a cursor, one
 * EXISTS probe for the other direction.
 */
@Injectable()
export class OrdersService {
  private readonly dialect: SqlDialect;
  private readonly selectList: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectFor(dataSource.options.type);
    this.selectList = orderSelectList(this.dialect);
  }

  async list(boxOfficeId: number, query: ListOrdersQueryDto): Promise<Page> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    // Both cursors given: only ending_before is used (contract §3).
    const cursorName =
      query.ending_before !== undefined
        ? 'ending_before'
        : query.starting_after !== undefined
          ? 'starting_after'
          : null;
    const cursor = cursorName
      ? await this.findPosition(boxOfficeId, query[cursorName], cursorName)
      : null;
    // ending_before walks towards newer orders: read oldest-first from the cursor, then flip.
    const backwards = cursorName === 'ending_before';

    const params = new SqlParams(this.dialect);
    const where = this.where(
      params,
      boxOfficeId,
      query,
      cursor,
      backwards ? '>' : '<',
    );
    const rows = await this.dataSource.query<OrderRow[]>(
      `SELECT ${this.selectList} FROM ${ORDER_FROM} WHERE ${where} ${
        backwards ? OLDEST_FIRST : NEWEST_FIRST
      } LIMIT ${params.add(limit + 1)}`,
      params.values,
    );
    const more = rows.length > limit;
    const pageRows = rows.slice(0, limit);
    if (backwards) pageRows.reverse();
    if (pageRows.length === 0) return emptyPage();

    const first = pageRows[0];
    const last = pageRows[pageRows.length - 1];
    // Reached through a cursor: whether anything lies the other way needs one probe.
    let other = false;
    if (cursor) {
      other = backwards
        ? await this.exists(boxOfficeId, query, positionOf(last), '<')
        : await this.exists(boxOfficeId, query, positionOf(first), '>');
    }
    return {
      items: pageRows.map(assembleOrderJson),
      firstId: `or_${first.id}`,
      lastId: `or_${last.id}`,
      hasNext: backwards ? other : more,
      hasPrevious: backwards ? more : other,
    };
  }

  /** One order's JSON text; 404 for a malformed id, a missing order or another box office's. */
  async retrieve(boxOfficeId: number, orderId: string): Promise<string> {
    const id = parsePrefixedId('or_', orderId);
    if (id !== null) {
      const params = new SqlParams(this.dialect);
      const rows = await this.dataSource.query<OrderRow[]>(
        `SELECT ${this.selectList} FROM ${ORDER_FROM} WHERE o.box_office_id = ${params.add(
          boxOfficeId,
        )} AND o.id = ${params.add(id)}`,
        params.values,
      );
      if (rows.length === 1) return assembleOrderJson(rows[0]);
    }
    throw ApiError.notFound(
      id === null
        ? 'No such order in this box office (order ids are or_<number>)'
        : `No order ${orderId} in this box office`,
    );
  }

  /** The list position of the cursor's order, which must belong to this box office. */
  private async findPosition(
    boxOfficeId: number,
    value: unknown,
    parameter: 'starting_after' | 'ending_before',
  ): Promise<Position> {
    const id = parsePrefixedId('or_', value);
    if (id === null) throw ApiError.invalidCursor(parameter);
    const params = new SqlParams(this.dialect);
    const rows = await this.dataSource.query<
      { id: number; created_at: number }[]
    >(
      `SELECT o.id AS id, o.created_at AS created_at FROM orders o WHERE o.box_office_id = ${params.add(
        boxOfficeId,
      )} AND o.id = ${params.add(id)}`,
      params.values,
    );
    if (rows.length === 0) throw ApiError.invalidCursor(parameter);
    return positionOf(rows[0]);
  }

  private async exists(
    boxOfficeId: number,
    query: ListOrdersQueryDto,
    from: Position,
    direction: '<' | '>',
  ): Promise<boolean> {
    const params = new SqlParams(this.dialect);
    const where = this.where(params, boxOfficeId, query, from, direction);
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 AS found FROM orders o WHERE ${where} LIMIT 1`,
      params.values,
    );
    return rows.length > 0;
  }

  /** The WHERE clause of a list query: tenant, filters (AND), then the keyset position. */
  private where(
    params: SqlParams,
    boxOfficeId: number,
    query: ListOrdersQueryDto,
    position: Position | null,
    direction: '<' | '>',
  ): string {
    const clauses = [`o.box_office_id = ${params.add(boxOfficeId)}`];
    for (const [key, op] of CREATED_AT_FILTERS) {
      const value = query[key];
      if (
        value === undefined ||
        impliedByPosition(op, value, position, direction)
      )
        continue;
      clauses.push(`o.created_at ${op} ${params.add(value)}`);
    }
    if (query.event_id !== undefined) {
      const ids = [...new Set(query.event_id.split(','))].map(
        (id) => parsePrefixedId('ev_', id) ?? 0,
      );
      clauses.push(
        ids.length === 1
          ? `o.event_id = ${params.add(ids[0])}`
          : `o.event_id IN (${ids.map((id) => params.add(id)).join(', ')})`,
      );
    }
    if (query.status !== undefined) {
      clauses.push(`o.status = ${params.add(query.status)}`);
    }
    if (query.email !== undefined) {
      clauses.push(
        `o.buyer_email_lookup = ${params.add(query.email.toLowerCase())}`,
      );
    }
    if (query.txn_id !== undefined) {
      clauses.push(`o.txn_id = ${params.add(query.txn_id)}`);
    }
    if (query.barcode !== undefined) {
      clauses.push(
        `o.id IN (SELECT t.order_id FROM issued_tickets t WHERE t.barcode = ${params.add(
          query.barcode,
        )})`,
      );
    }
    if (position) {
      clauses.push(
        `(o.created_at, o.id) ${direction} (${params.add(position.createdAt)}, ${params.add(
          position.id,
        )})`,
      );
    }
    return clauses.join(' AND ');
  }
}

/**
 * Whether a created_at bound adds nothing to the keyset condition: `(created_at, id) < (c, i)`
 * implies `created_at <= c`, so `created_at < x` (x > c) or `<= x` (x >= c) is redundant, and
 * likewise the other way. Leaving it out matters: SQLite bounds the index scan with one of two
 * range conditions on created_at and would pick the filter, scanning from the filter's end of
 * the range to the cursor (thousands of rows) instead of starting at the cursor.
 */
function impliedByPosition(
  op: string,
  value: number,
  position: Position | null,
  direction: '<' | '>',
): boolean {
  if (!position) return false;
  const c = position.createdAt;
  return direction === '<'
    ? (op === '<' && c < value) || (op === '<=' && c <= value)
    : (op === '>' && c > value) || (op === '>=' && c >= value);
}

// PostgreSQL hands BIGINT back as a string.
function positionOf(row: {
  id: number | string;
  created_at: number | string;
}): Position {
  return { createdAt: Number(row.created_at), id: Number(row.id) };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type ReadRows, rowReader } from '../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  dialectFor,
} from '../database/sql-dialect';

/** The overview's period: the 28 days before the request. */
export const OVERVIEW_PERIOD_S = 28 * 86_400;

/** The rollups' bucket: an hour, as migration ActivityHours keeps them. */
const HOUR_S = 3600;

/**
 * The overview (docs/API.md, "Overview"): a dashboard's first numbers, and the call Ticket
 * Tailor's clients make to test a key. Each number is a count the lists give for the same box
 * office. The period's completed orders, revenue and valid tickets are read from the hourly
 * rollups that triggers keep (migration ActivityHours) for its whole hours, and from the orders
 * and tickets themselves, by (status, created_at), for the parts of an hour at its two ends:
 * 672 rows of each of three rollups and two hours of rows, whatever the box office's size.
 * Series and events are counted by status, index-only. All in one statement.
 */
@Injectable()
export class OverviewService {
  private readonly dialect: SqlDialect;
  private readonly read: ReadRows;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectFor(dataSource.options.type);
    this.read = rowReader(dataSource);
  }

  /** The overview's JSON bytes, as of now. */
  async overview(boxOfficeId: number): Promise<Buffer> {
    const now = Math.floor(Date.now() / 1000);
    const from = now - OVERVIEW_PERIOD_S;
    // Whole hours [firstHour, lastHour), the rest at either end from the rows.
    const firstHour = Math.ceil(from / HOUR_S);
    const lastHour = Math.floor(now / HOUR_S);
    // One statement: one round trip, one plan.
    const params = new SqlParams(this.dialect);
    const office = () => params.add(boxOfficeId);
    const hours = (alias: string) =>
      `${alias}.box_office_id = ${office()} AND ${alias}.hour >= ${params.add(firstHour)} AND ${alias}.hour < ${params.add(lastHour)}`;
    /**
     * A count or sum over the rows of the period's two ends, outside its whole hours: one
     * subquery per end, each a range of the (status, created_at) index.
     */
    const ends = (select: string, rows: string) =>
      [
        [from, firstHour * HOUR_S],
        [lastHour * HOUR_S, now + 1],
      ]
        .map(
          ([lo, hi]) =>
            `(SELECT ${select} FROM ${rows} AND x.box_office_id = ${office()}
               AND x.created_at >= ${params.add(lo)} AND x.created_at < ${params.add(hi)})`,
        )
        .join(' + ');
    /** Rows of `table` in `status` now: an index-only count. */
    const inStatus = (table: string, status: string) =>
      `(SELECT count(*) FROM ${table} x WHERE x.box_office_id = ${office()} AND x.status = '${status}')`;
    const [row] = await this.read(
      `SELECT b.name, b.currency,
          (SELECT coalesce(sum(h.completed_orders), 0) FROM order_hours h WHERE ${hours('h')})
          + ${ends('count(*)', "orders x WHERE x.status = 'completed'")} AS orders,
          (SELECT coalesce(sum(h.revenue), 0) FROM revenue_hours h
            WHERE h.currency = b.currency AND ${hours('h')})
          + ${ends(
            'coalesce(sum(x.total - x.refund_amount), 0)',
            "orders x WHERE x.status = 'completed' AND x.currency = b.currency",
          )} AS revenue,
          (SELECT coalesce(sum(h.valid_tickets), 0) FROM ticket_hours h WHERE ${hours('h')})
          + ${ends('count(*)', "issued_tickets x WHERE x.status = 'valid'")} AS tickets,
          ${inStatus('event_series', 'published')} AS series_published,
          ${inStatus('event_series', 'draft')} AS series_draft,
          ${inStatus('events', 'published')} AS events_published,
          ${inStatus('events', 'draft')} AS events_draft
        FROM box_offices b WHERE b.id = ${office()}`,
      params.values,
    );
    const currency = String(row.currency);
    return Buffer.from(
      JSON.stringify({
        object: 'overview',
        box_office_name: row.name,
        currency: { code: currency, symbol: currencySymbol(currency) },
        period: 'four weeks',
        revenue: Number(row.revenue),
        orders_received: Number(row.orders),
        total_issued_tickets: Number(row.tickets),
        event_series_published: Number(row.series_published),
        event_series_draft: Number(row.series_draft),
        event_occurrences_published: Number(row.events_published),
        event_occurrences_draft: Number(row.events_draft),
      }),
    );
  }
}

const symbols = new Map<string, string>();

/** `£` for gbp, `$` for usd, `A$` for aud: the symbol English-speaking buyers read. */
export function currencySymbol(code: string): string {
  let symbol = symbols.get(code);
  if (symbol === undefined) {
    const parts = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: code.toUpperCase(),
    }).formatToParts(0);
    symbol = parts.find((part) => part.type === 'currency')?.value ?? code;
    symbols.set(code, symbol);
  }
  return symbol;
}

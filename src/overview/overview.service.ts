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

/** The rollups' buckets, as migrations ActivityHours and ActivityDays keep them. */
const HOUR_S = 3600;
const DAY_S = 86_400;

/** A sum the overview reads from a pair of rollups (`order_hours` and `order_days`, …). */
interface RollupSum {
  readonly stem: 'order' | 'revenue' | 'ticket';
  readonly column: string;
  /** More of the WHERE clause, after the box office. */
  readonly and?: string;
}

/**
 * The overview (docs/API.md, "Overview"): a dashboard's first numbers, and the call Ticket
 * Tailor's clients make to test a key. Each number is a count the lists give for the same box
 * office. The period's completed orders, revenue and valid tickets are read from the rollups that
 * triggers keep: its whole days from the daily ones (migration ActivityDays), the whole hours
 * before and after those days from the hourly ones (ActivityHours), and the parts of an hour at
 * its two ends from the orders and tickets themselves, by (status, created_at). That is at most
 * 51 rollup rows of each of three rollups (27 days and 24 hours, or 28 days) and two hours of
 * rows, whatever the box office's size. Series and events are counted by status, index-only. All in one statement.
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
    // Whole days [firstDay, lastDay); whole hours from firstHour to the first whole day's start
    // and from the last one's end to lastHour; the parts of an hour at either end from the rows.
    const firstHour = Math.ceil(from / HOUR_S);
    const lastHour = Math.floor(now / HOUR_S);
    const firstDay = Math.ceil(from / DAY_S);
    const lastDay = Math.floor(now / DAY_S);
    const hoursPerDay = DAY_S / HOUR_S;
    // One statement: one round trip, one plan.
    const params = new SqlParams(this.dialect);
    const office = () => params.add(boxOfficeId);
    /** A rollup's sum over its buckets in [lo, hi) (`<stem>_hours` or `<stem>_days`). */
    const sum = (
      rollup: RollupSum,
      bucket: 'hour' | 'day',
      lo: number,
      hi: number,
    ) =>
      `(SELECT coalesce(sum(h.${rollup.column}), 0) FROM ${rollup.stem}_${bucket}s h
          WHERE h.box_office_id = ${office()}${rollup.and ?? ''}
          AND h.${bucket} >= ${params.add(lo)} AND h.${bucket} < ${params.add(hi)})`;
    /**
     * PostgreSQL: the deltas of the period's whole hours not folded into the rollups yet
     * (migration CountsWithoutHotRows; src/database/pending-counts.ts), read in the same
     * statement as the rollups, so a fold between two reads changes nothing.
     */
    const pending = (rollup: RollupSum) =>
      `(SELECT coalesce(sum(h.${rollup.column}), 0) FROM activity_deltas h
          WHERE h.box_office_id = ${office()}${rollup.and ?? ''}
          AND h.hour >= ${params.add(firstHour)} AND h.hour < ${params.add(lastHour)})`;
    /** The period's whole days, and its whole hours before and after them. */
    const whole = (rollup: RollupSum) =>
      [
        sum(rollup, 'hour', firstHour, firstDay * hoursPerDay),
        sum(rollup, 'day', firstDay, lastDay),
        sum(rollup, 'hour', lastDay * hoursPerDay, lastHour),
        ...(this.dialect.countsPending ? [pending(rollup)] : []),
      ].join('\n          + ');
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
          ${whole({ stem: 'order', column: 'completed_orders' })}
          + ${ends('count(*)', "orders x WHERE x.status = 'completed'")} AS orders,
          ${whole({
            stem: 'revenue',
            column: 'revenue',
            and: ' AND h.currency = b.currency',
          })}
          + ${ends(
            'coalesce(sum(x.total - x.refund_amount), 0)',
            "orders x WHERE x.status = 'completed' AND x.currency = b.currency",
          )} AS revenue,
          ${whole({ stem: 'ticket', column: 'valid_tickets' })}
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

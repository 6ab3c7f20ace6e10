import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type ReadRows, type Row, rowReader } from '../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  dialectFor,
} from '../database/sql-dialect';

/** The overview's period: the 28 days before the request. */
export const OVERVIEW_PERIOD_S = 28 * 86_400;

/**
 * The overview (docs/API.md, "Overview"): a dashboard's first numbers, and the call Ticket
 * Tailor's clients make to test a key. Each number is a count the lists give for the same box
 * office, read through the same indexes: the period's completed orders and valid tickets by
 * (status, created_at), series and events by status.
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
    const statement = (build: (params: SqlParams) => string) => {
      const params = new SqlParams(this.dialect);
      const sql = build(params);
      return this.read(sql, params.values);
    };
    const inPeriod = (params: SqlParams, alias: string) =>
      `${alias}.box_office_id = ${params.add(boxOfficeId)} AND ${alias}.created_at >= ${params.add(from)} AND ${alias}.created_at <= ${params.add(now)}`;
    const byStatus = (table: string) =>
      statement(
        (params) => `SELECT status, count(*) AS n FROM ${table}
          WHERE box_office_id = ${params.add(boxOfficeId)} AND status IN ('published', 'draft')
          GROUP BY status`,
      );
    const [[office], [sales], [tickets], series, events] = await Promise.all([
      statement(
        (params) =>
          `SELECT name, currency FROM box_offices WHERE id = ${params.add(boxOfficeId)}`,
      ),
      statement(
        (params) => `SELECT count(*) AS orders,
            coalesce(sum(CASE WHEN o.currency = b.currency THEN o.total - o.refund_amount
                              ELSE 0 END), 0) AS revenue
          FROM orders o JOIN box_offices b ON b.id = o.box_office_id
          WHERE o.status = 'completed' AND ${inPeriod(params, 'o')}`,
      ),
      statement(
        (params) =>
          `SELECT count(*) AS n FROM issued_tickets t WHERE t.status = 'valid' AND ${inPeriod(params, 't')}`,
      ),
      byStatus('event_series'),
      byStatus('events'),
    ]);
    const count = (rows: Row[], status: string) =>
      Number(rows.find((row) => row.status === status)?.n ?? 0);
    const currency = String(office.currency);
    return Buffer.from(
      JSON.stringify({
        object: 'overview',
        box_office_name: office.name,
        currency: { code: currency, symbol: currencySymbol(currency) },
        period: 'four weeks',
        revenue: Number(sales.revenue),
        orders_received: Number(sales.orders),
        total_issued_tickets: Number(tickets.n),
        event_series_published: count(series, 'published'),
        event_series_draft: count(series, 'draft'),
        event_occurrences_published: count(events, 'published'),
        event_occurrences_draft: count(events, 'draft'),
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

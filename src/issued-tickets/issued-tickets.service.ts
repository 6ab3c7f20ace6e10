import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { parsePrefixedId } from '../common/ids';
import {
  type Filter,
  filters,
  inSeries,
} from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { EVENT_KEY_SCALE } from '../database/migrations/1766850000000-TicketSearchByEvent';
import { searchFold, searchFoldSql } from '../database/search-fold';
import type { SqlParams } from '../database/sql-dialect';
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { ListIssuedTicketsQueryDto } from './dto/list-issued-tickets-query.dto';
import { ISSUED_TICKET_SOURCE } from './issued-ticket.fields';
import { RESOURCE } from '../common/resources/resource-identities';

const TICKET_SYNC_COLUMNS = {
  created_at: 't.created_at',
  updated_at: 't.updated_at',
};

/** Reads a box office's issued tickets on their own (docs/API.md, "Issued tickets"). */
@Injectable()
export class IssuedTicketsService {
  readonly reader: ResourceReader;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
  ) {
    this.reader = new ResourceReader(dataSource, ISSUED_TICKET_SOURCE);
  }

  /** A page, read below the sync horizon taken first (docs/API.md, "Incremental sync"). */
  async list(
    boxOfficeId: number,
    query: ListIssuedTicketsQueryDto,
  ): Promise<Page> {
    const horizon = await this.horizon.read(boxOfficeId);
    return this.reader.page(
      boxOfficeId,
      pageRequest(
        query,
        issuedTicketFilters(boxOfficeId, query),
        syncPage(query, TICKET_SYNC_COLUMNS, horizon),
      ),
    );
  }

  /** One ticket's JSON bytes; 404 for a malformed id, a missing ticket or another box office's. */
  retrieve(boxOfficeId: number, ticketId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, ticketId);
  }
}

/** The list's filters, as SQL on the issued_tickets table. */
export function issuedTicketFilters(
  boxOfficeId: number,
  query: ListIssuedTicketsQueryDto,
): Filter[] {
  const found = [
    ...filters.range(query, 'created_at', 't.created_at'),
    ...filters.range(query, 'updated_at', 't.updated_at'),
  ];
  if (query.event_id !== undefined) {
    found.push(
      filters.oneOf(
        't.event_id',
        filters.prefixedIds(RESOURCE.event.prefix, query.event_id),
      ),
    );
  }
  if (query.order_id !== undefined) {
    found.push(
      filters.equals(
        't.order_id',
        parsePrefixedId(RESOURCE.order.prefix, query.order_id),
      ),
    );
  }
  if (query.status !== undefined) {
    found.push(filters.equals('t.status', query.status));
  }
  if (query.barcode !== undefined) {
    found.push(filters.equals('t.barcode', query.barcode));
  }
  if (query.ticket_type_id !== undefined) {
    found.push(
      filters.equals(
        't.ticket_type_id',
        parsePrefixedId(RESOURCE.ticketType.prefix, query.ticket_type_id),
      ),
    );
  }
  if (query.checked_in !== undefined) {
    // A boolean column read as such: the same SQL on both databases, no parameter to type.
    const checkedIn = query.checked_in === 'true';
    found.push({
      condition: () => (checkedIn ? 't.checked_in' : 'NOT t.checked_in'),
    });
  }
  if (query.event_series_id !== undefined) {
    found.push(
      inSeries(
        't.event_id',
        boxOfficeId,
        filters.prefixedIds(RESOURCE.eventSeries.prefix, query.event_series_id),
      ),
    );
  }
  if (query.email !== undefined) {
    const email = query.email.toLowerCase();
    // The tickets of the box office's orders with that buyer, found through the orders' index,
    // and those issued without an order to that e-mail (their own column, a few rows found
    // through the order index's null entries): one list of ids, which each database reads arm
    // by arm, where an OR of the two made SQLite merge two index scans of the tickets
    // (MULTI-INDEX OR) and PostgreSQL test every ticket of the box office against the orders.
    found.push({
      condition: (params) =>
        `t.id IN (SELECT et.id FROM orders eo JOIN issued_tickets et ON et.order_id = eo.id WHERE eo.box_office_id = ${params.add(
          boxOfficeId,
        )} AND eo.buyer_email_lookup = ${params.add(email)}
          UNION ALL SELECT et.id FROM issued_tickets et WHERE et.order_id IS NULL AND et.box_office_id = ${params.add(
            boxOfficeId,
          )} AND lower(et.email) = ${params.add(email)})`,
    });
  }
  if (query.search !== undefined) {
    const events =
      query.event_id === undefined
        ? []
        : filters.prefixedIds(RESOURCE.event.prefix, query.event_id);
    found.push(ticketSearch(boxOfficeId, query.search, events));
  }
  return found;
}

/** The largest order id there can be (ids are PostgreSQL integers on both databases). */
const MAX_ID = 2_147_483_647;

/** The shortest folded search a trigram index can look up: one trigram. */
const TRIGRAM = 3;

/**
 * `search` (docs/API.md, "Searching issued tickets"): the holder's name or e-mail contains the
 * text, or the barcode or the order's id (`or_12`) starts with it, all in the search fold, with
 * `%` and `_` plain characters. The condition names only the ticket's row and subqueries, as
 * every list filter does (the probe for an earlier page joins nothing).
 */
function ticketSearch(
  boxOfficeId: number,
  text: string,
  events: readonly number[],
): Filter {
  const folded = searchFold(text);
  const literal = folded.replace(/[\\%_]/g, (c) => `\\${c}`);
  const inside = `%${literal}%`;
  const start = `${literal}%`;
  const like = (column: string, pattern: string, params: SqlParams) =>
    `${searchFoldSql(column)} LIKE ${params.add(pattern)} ESCAPE '\\'`;
  // `or_12` names orders 12, 120-129, 1200-1299, ...: id ranges, which the orders' index serves.
  const orderDigits = new RegExp(
    `^${RESOURCE.order.prefix}([1-9]\\d{0,9})$`,
  ).exec(folded)?.[1];
  const orderRanges: [number, number][] = [];
  if (orderDigits !== undefined) {
    for (let scale = 1; Number(orderDigits) * scale <= MAX_ID; scale *= 10) {
      const low = Number(orderDigits) * scale;
      orderRanges.push([low, Math.min(low + scale - 1, MAX_ID)]);
    }
  }
  const byOrderId = (column: string, params: SqlParams) =>
    orderRanges.map(
      ([low, high]) =>
        `${column} BETWEEN ${params.add(low)} AND ${params.add(high)}`,
    );
  return {
    condition: (params) => {
      // Characters as the indexes count them: code points.
      if (Array.from(folded).length >= TRIGRAM) {
        // The box office's matching tickets, found through the trigram indexes (migration
        // IssuedTicketSearch), whatever else the list asks: a search across the box office reads
        // its matches, not its tickets. An order's tickets by id, a ticket without an order by
        // its own e-mail (a few rows, found through the order index's null entries).
        const tenant = () => params.add(boxOfficeId);
        // Built in the order they are written: SQLite's parameters are positional.
        const orderless = () =>
          `SELECT st.id FROM issued_tickets st WHERE st.order_id IS NULL AND st.box_office_id = ${tenant()} AND ${like(
            'st.email',
            inside,
            params,
          )}`;
        const byOrder = () =>
          orderRanges.length === 0
            ? []
            : [
                `SELECT st.id FROM issued_tickets st WHERE st.box_office_id = ${tenant()} AND (${byOrderId(
                  'st.order_id',
                  params,
                ).join(' OR ')})`,
              ];
        if (params.dialect.name === 'sqlite') {
          // FTS5 phrases: `%` and `_` mean themselves, a double quote is doubled.
          const phrase = `"${folded.replaceAll('"', '""')}"`;
          const match = `({name email} : ${phrase}) OR (barcode : ^${phrase})`;
          // Rows keyed by event (migration TicketSearchByEvent): within events, each event's
          // range of keys alone.
          const matches = (event?: number) =>
            `SELECT rowid % ${EVENT_KEY_SCALE} FROM issued_ticket_search_by_event WHERE issued_ticket_search_by_event MATCH ${params.add(
              match,
            )}${
              event === undefined
                ? ''
                : // Computed by SQLite in 64-bit integers: better-sqlite3 binds a JavaScript
                  // number as a REAL, and FTS5 read the whole MATCH for a range of REAL bounds
                  // (29 ms against 0.5 ms for an e-mail's part within the biggest event at a
                  // million orders), and beyond 2^53 either would round.
                  ` AND rowid BETWEEN CAST(${params.add(event)} AS INTEGER) * ${EVENT_KEY_SCALE} AND CAST(${params.add(
                    event,
                  )} AS INTEGER) * ${EVENT_KEY_SCALE} + ${EVENT_KEY_SCALE - 1}`
            }`;
          return `t.id IN (${[
            ...(events.length === 0
              ? [matches()]
              : events.map((event) => matches(event))),
            orderless(),
            ...byOrder(),
          ].join(' UNION ALL ')})`;
        }
        // The event filter repeated inside, so a look-up at one event's door reads that event's
        // matches (its index and the trigram index together), not the whole box office's.
        const inEvents = (column: string) =>
          events.length === 0
            ? ''
            : ` AND ${filters.oneOf(column, events).condition(params)}`;
        return `t.id IN (${[
          `SELECT st.id FROM issued_tickets st WHERE st.box_office_id = ${tenant()}${inEvents('st.event_id')} AND (${like(
            'st.full_name',
            inside,
            params,
          )} OR ${like('st.barcode', start, params)})`,
          `SELECT st.id FROM orders so JOIN issued_tickets st ON st.order_id = so.id WHERE so.box_office_id = ${tenant()}${inEvents('so.event_id')} AND ${like(
            'so.buyer_email',
            inside,
            params,
          )}`,
          orderless(),
          ...byOrder(),
        ].join(' UNION ALL ')})`;
      }
      // Each ticket the other filters leave, checked on its own row and its order's key.
      return `(${[
        like('t.full_name', inside, params),
        like('t.barcode', start, params),
        `EXISTS (SELECT 1 FROM orders so WHERE so.id = t.order_id AND ${like(
          'so.buyer_email',
          inside,
          params,
        )})`,
        // A ticket issued without an order keeps its own e-mail (null on a ticket of an order).
        like('t.email', inside, params),
        ...byOrderId('t.order_id', params),
      ].join(' OR ')})`;
    },
  };
}

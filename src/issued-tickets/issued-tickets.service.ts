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
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { ListIssuedTicketsQueryDto } from './dto/list-issued-tickets-query.dto';
import { ISSUED_TICKET_SOURCE } from './issued-ticket.fields';

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
      filters.oneOf('t.event_id', filters.prefixedIds('ev_', query.event_id)),
    );
  }
  if (query.order_id !== undefined) {
    found.push(
      filters.equals('t.order_id', parsePrefixedId('or_', query.order_id)),
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
        parsePrefixedId('tt_', query.ticket_type_id),
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
        filters.prefixedIds('es_', query.event_series_id),
      ),
    );
  }
  if (query.email !== undefined) {
    const email = query.email.toLowerCase();
    // The tickets of the box office's orders with that buyer, found through the orders' index,
    // and those issued without an order to that e-mail (their own column).
    found.push({
      condition: (params) =>
        `(t.order_id IN (SELECT eo.id FROM orders eo WHERE eo.box_office_id = ${params.add(
          boxOfficeId,
        )} AND eo.buyer_email_lookup = ${params.add(email)})
          OR (t.order_id IS NULL AND lower(t.email) = ${params.add(email)}))`,
    });
  }
  return found;
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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
import { ListOrdersQueryDto } from './dto/list-orders-query.dto';
import { ORDER_SOURCE } from './order.fields';
import { RESOURCE } from '../common/resources/resource-identities';

const ORDER_SYNC_COLUMNS = {
  created_at: 'o.created_at',
  updated_at: 'o.updated_at',
};

/** Reads a box office's orders (docs/API.md, "Orders"). */
@Injectable()
export class OrdersService {
  readonly reader: ResourceReader;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
  ) {
    this.reader = new ResourceReader(dataSource, ORDER_SOURCE);
  }

  /** A page, read below the sync horizon taken first (docs/API.md, "Incremental sync"). */
  async list(boxOfficeId: number, query: ListOrdersQueryDto): Promise<Page> {
    const horizon = await this.horizon.read(boxOfficeId);
    return this.reader.page(
      boxOfficeId,
      pageRequest(
        query,
        orderFilters(boxOfficeId, query),
        syncPage(query, ORDER_SYNC_COLUMNS, horizon),
      ),
    );
  }

  /** One order's JSON bytes; 404 for a malformed id, a missing order or another box office's. */
  retrieve(boxOfficeId: number, orderId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, orderId);
  }
}

/** The list's filters, as SQL on the orders table (each served by an index of its own). */
export function orderFilters(
  boxOfficeId: number,
  query: ListOrdersQueryDto,
): Filter[] {
  const found = [
    ...filters.range(query, 'created_at', 'o.created_at'),
    ...filters.range(query, 'updated_at', 'o.updated_at'),
  ];
  if (query.event_id !== undefined) {
    found.push(
      filters.oneOf(
        'o.event_id',
        filters.prefixedIds(RESOURCE.event.prefix, query.event_id),
      ),
    );
  }
  if (query.status !== undefined) {
    found.push(filters.equals('o.status', query.status));
  }
  if (query.event_series_id !== undefined) {
    found.push(
      inSeries(
        'o.event_id',
        boxOfficeId,
        filters.prefixedIds(RESOURCE.eventSeries.prefix, query.event_series_id),
      ),
    );
  }
  if (query.email !== undefined) {
    found.push(
      filters.equals('o.buyer_email_lookup', query.email.toLowerCase()),
    );
  }
  if (query.txn_id !== undefined) {
    found.push(filters.equals('o.txn_id', query.txn_id));
  }
  if (query.barcode !== undefined) {
    const barcode = query.barcode;
    found.push({
      condition: (params) =>
        `o.id IN (SELECT t.order_id FROM issued_tickets t WHERE t.barcode = ${params.add(barcode)})`,
    });
  }
  return found;
}

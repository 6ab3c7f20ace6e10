import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { CHECK_IN_SOURCE } from './check-in.fields';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';

/** Check-ins never change: sync reads them by created_at (docs/API.md, "Incremental sync"). */
const CHECK_IN_SYNC_COLUMNS = { created_at: 'ci.created_at' };

/** Reads a box office's check-ins (docs/API.md, "Check-ins"). */
@Injectable()
export class CheckInsService {
  readonly reader: ResourceReader;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
  ) {
    this.reader = new ResourceReader(dataSource, CHECK_IN_SOURCE);
  }

  /** A page, read below the sync horizon taken first. */
  async list(boxOfficeId: number, query: ListCheckInsQueryDto): Promise<Page> {
    const horizon = await this.horizon.read(boxOfficeId);
    return this.reader.page(
      boxOfficeId,
      pageRequest(
        query,
        checkInFilters(query),
        syncPage(query, CHECK_IN_SYNC_COLUMNS, horizon),
      ),
    );
  }

  /** One check-in's JSON bytes; 404 for a malformed id, a missing one or another box office's. */
  retrieve(boxOfficeId: number, checkInId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, checkInId);
  }
}

/** The list's filters, each served by an index that starts (box office, its column). */
export function checkInFilters(query: ListCheckInsQueryDto): Filter[] {
  const found = [
    ...filters.range(query, 'created_at', 'ci.created_at'),
    ...filters.range(query, 'check_in_at', 'ci.check_in_at'),
  ];
  const ids = [
    ['event_id', 'ev_', 'ci.event_id'],
    ['event_series_id', 'es_', 'ci.event_series_id'],
    ['issued_ticket_id', 'it_', 'ci.issued_ticket_id'],
  ] as const;
  for (const [key, prefix, column] of ids) {
    const list = query[key];
    if (list !== undefined) {
      found.push(filters.oneOf(column, filters.prefixedIds(prefix, list)));
    }
  }
  if (query.quantity !== undefined) {
    found.push(filters.equals('ci.quantity', Number(query.quantity)));
  }
  return found;
}

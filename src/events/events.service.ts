import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { parsePrefixedId } from '../common/ids';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EVENT_SOURCE } from './event.fields';

/** Reads a box office's events (docs/API.md, "Events"). */
@Injectable()
export class EventsService {
  readonly reader: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.reader = new ResourceReader(dataSource, EVENT_SOURCE);
  }

  list(boxOfficeId: number, query: ListEventsQueryDto): Promise<Page> {
    return this.reader.page(
      boxOfficeId,
      pageRequest(query, eventFilters(query)),
    );
  }

  /** One event's JSON bytes; 404 for a malformed id, a missing event or another box office's. */
  retrieve(boxOfficeId: number, eventId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, eventId);
  }
}

/** The list's filters, as SQL on the events table. */
export function eventFilters(query: ListEventsQueryDto): Filter[] {
  const found = [
    ...filters.range(query, 'start_at', 'ev.start_at'),
    ...filters.range(query, 'end_at', 'ev.end_at'),
  ];
  if (query.name !== undefined) {
    found.push(filters.contains('ev.name', query.name));
  }
  if (query.venue !== undefined) {
    found.push(filters.contains('ev.venue_name', query.venue));
  }
  if (query.status !== undefined) {
    found.push(filters.oneOf('ev.status', query.status.split(',')));
  }
  if (query.event_series_id !== undefined) {
    found.push(
      filters.equals(
        'ev.event_series_id',
        parsePrefixedId('es_', query.event_series_id),
      ),
    );
  }
  return found;
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { ListEventSeriesQueryDto } from './dto/list-event-series-query.dto';
import { EVENT_SERIES_SOURCE } from './event-series.fields';

/**
 * Reads a box office's event series (docs/API.md, "Event series"); their events are served by
 * src/events (SeriesEventsController).
 */
@Injectable()
export class EventSeriesService {
  readonly reader: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.reader = new ResourceReader(dataSource, EVENT_SERIES_SOURCE);
  }

  list(boxOfficeId: number, query: ListEventSeriesQueryDto): Promise<Page> {
    return this.reader.page(
      boxOfficeId,
      pageRequest(query, seriesFilters(query)),
    );
  }

  /** One series' JSON bytes; 404 for a malformed id, a missing series or another box office's. */
  retrieve(boxOfficeId: number, seriesId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, seriesId);
  }
}

/** The list's filters, as SQL on the event_series table. */
export function seriesFilters(query: ListEventSeriesQueryDto): Filter[] {
  const found = [...filters.range(query, 'created_at', 'es.created_at')];
  if (query.status !== undefined) {
    found.push(filters.oneOf('es.status', query.status.split(',')));
  }
  if (query.name !== undefined) {
    found.push(filters.contains('es.name', query.name));
  }
  if (query.venue !== undefined) {
    found.push(filters.contains('es.venue_name', query.venue));
  }
  return found;
}

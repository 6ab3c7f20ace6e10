import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { parsePrefixedId } from '../common/ids';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  type ParentResource,
  parentScope,
} from '../common/resources/parent-scope';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import {
  ListEventsQueryDto,
  ListSeriesEventsQueryDto,
} from './dto/list-events-query.dto';
import { EVENT_SOURCE } from './event.fields';
import { RESOURCE } from '../common/resources/resource-identities';

/** The series whose dates are listed under its path. */
const SERIES: ParentResource = {
  table: 'event_series',
  prefix: RESOURCE.eventSeries.prefix,
  noun: RESOURCE.eventSeries.noun,
  column: 'ev.event_series_id',
};

/** No row has this: the filter of a value nothing matches (a date's override id). */
const NOTHING: Filter = { condition: () => '1 = 0' };

/** Reads a box office's events, and those of one of its series (docs/API.md, "Events"). */
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

  /**
   * A page of a series' events, as `/v1/events?event_series_id=` gives them: the series is the
   * list's scope, so a cursor naming an event outside it is refused.
   */
  async listOfSeries(
    boxOfficeId: number,
    seriesId: string,
    query: ListSeriesEventsQueryDto,
  ): Promise<Page> {
    const scope = await this.seriesScope(boxOfficeId, seriesId);
    const found = eventFilters(query);
    if (query.override_id !== undefined) found.push(NOTHING);
    return this.reader.page(boxOfficeId, pageRequest(query, found, { scope }));
  }

  /** One event of a series; 404 unless the series is the box office's and the event its. */
  async retrieveOfSeries(
    boxOfficeId: number,
    seriesId: string,
    eventId: string,
  ): Promise<Buffer> {
    const scope = await this.seriesScope(boxOfficeId, seriesId);
    return this.reader.one(boxOfficeId, eventId, scope);
  }

  /** The events of a series of the box office; 404 when it has no such series. */
  private seriesScope(boxOfficeId: number, seriesId: string): Promise<Filter> {
    return parentScope(this.reader, boxOfficeId, seriesId, SERIES);
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
        parsePrefixedId(RESOURCE.eventSeries.prefix, query.event_series_id),
      ),
    );
  }
  return found;
}

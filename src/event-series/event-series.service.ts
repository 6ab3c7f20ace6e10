import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { parsePrefixedId } from '../common/ids';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { SqlParams } from '../database/sql-dialect';
import { EventsService, eventFilters } from '../events/events.service';
import {
  ListEventSeriesQueryDto,
  ListSeriesEventsQueryDto,
} from './dto/list-event-series-query.dto';
import { EVENT_SERIES_SOURCE } from './event-series.fields';

/** No row has this: the filter of a value nothing matches (a date's override id). */
const NOTHING: Filter = { condition: () => '1 = 0' };

/** Reads a box office's event series, and the events of one (docs/API.md, "Event series"). */
@Injectable()
export class EventSeriesService {
  readonly reader: ResourceReader;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly events: EventsService,
  ) {
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

  /**
   * A page of the series' events, as `/v1/events?event_series_id=` gives them: the series is the
   * list's scope, so a cursor naming an event outside it is refused.
   */
  async listEvents(
    boxOfficeId: number,
    seriesId: string,
    query: ListSeriesEventsQueryDto,
  ): Promise<Page> {
    const scope = await this.scope(boxOfficeId, seriesId);
    const found = eventFilters(query);
    if (query.override_id !== undefined) found.push(NOTHING);
    return this.events.reader.page(
      boxOfficeId,
      pageRequest(query, found, { scope }),
    );
  }

  /** One event of the series; 404 unless the series is the box office's and the event its. */
  async retrieveEvent(
    boxOfficeId: number,
    seriesId: string,
    eventId: string,
  ): Promise<Buffer> {
    const scope = await this.scope(boxOfficeId, seriesId);
    return this.events.reader.one(boxOfficeId, eventId, scope);
  }

  /** The events of a series of the box office; 404 when it has no such series. */
  private async scope(boxOfficeId: number, seriesId: string): Promise<Filter> {
    const id = parsePrefixedId('es_', seriesId);
    if (id === null || !(await this.exists(boxOfficeId, id))) {
      throw ApiError.notFound(
        id === null
          ? 'No such event series in this box office (event series ids are es_<number>)'
          : `No event series ${seriesId} in this box office`,
      );
    }
    return {
      ...filters.equals('ev.event_series_id', id),
      describes: `event series ${seriesId} of this box office`,
    };
  }

  private async exists(boxOfficeId: number, id: number): Promise<boolean> {
    const params = new SqlParams(this.reader.dialect);
    const sql = `SELECT 1 AS found FROM event_series WHERE box_office_id = ${params.add(boxOfficeId)} AND id = ${params.add(id)}`;
    return (await this.reader.read(sql, params.values)).length > 0;
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

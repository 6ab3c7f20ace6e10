import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { EventDto } from '../events/dto/event.dto';
import { RevalidatedByDataVersion } from '../sync/revalidation';
import {
  EventSeriesDto,
  EventSeriesListDto,
  SeriesEventListDto,
} from './dto/event-series.dto';
import {
  ListEventSeriesQueryDto,
  ListSeriesEventsQueryDto,
} from './dto/list-event-series-query.dto';
import { EventSeriesService } from './event-series.service';

const SERIES = {
  param: 'event_series_id',
  prefix: 'es_',
  noun: 'event series',
};

@ApiResource('event-series')
@Controller({ path: 'event_series', version: '1' })
export class EventSeriesController {
  constructor(private readonly series: EventSeriesService) {}

  @Get()
  @ApiList({
    operationId: 'listEventSeries',
    summary: "List the box office's event series",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: EventSeriesListDto,
    noun: 'event series',
    plural: 'event series',
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListEventSeriesQueryDto,
  ): Promise<Page> {
    return this.series.list(caller.boxOfficeId, query);
  }

  @Get(':event_series_id')
  @ApiRetrieve({
    operationId: 'retrieveEventSeries',
    summary: 'Retrieve one event series',
    description:
      'The same object as its entry in the list; another box office’s series is not found.',
    type: EventSeriesDto,
    noun: 'event series',
    param: 'event_series_id',
    prefix: 'es_',
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.series.retrieve(caller.boxOfficeId, seriesId);
  }

  // A series' dates are events: revalidated as the events list is (the series' own body moves
  // with the clock: its upcoming counts).
  @RevalidatedByDataVersion({ stock: true })
  @Get(':event_series_id/events')
  @ApiList({
    operationId: 'listEventSeriesEvents',
    summary: "List a series' events (its dates)",
    description:
      'Exactly what /v1/events?event_series_id= gives, item for item: next event first (start, then id, ascending). An unknown series is not found; a cursor naming an event outside the series is an INVALID_CURSOR.',
    type: SeriesEventListDto,
    noun: 'event',
    parent: SERIES,
  })
  listEvents(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Query() query: ListSeriesEventsQueryDto,
  ): Promise<Page> {
    return this.series.listEvents(caller.boxOfficeId, seriesId, query);
  }

  @RevalidatedByDataVersion({ stock: true })
  @Get(':event_series_id/events/:event_id')
  @ApiRetrieve({
    operationId: 'retrieveEventSeriesEvent',
    summary: 'Retrieve one event of a series',
    description:
      'The same object as /v1/events/{event_id}; not found unless the event belongs to the series.',
    type: EventDto,
    noun: 'event',
    param: 'event_id',
    prefix: 'ev_',
    parent: SERIES,
  })
  retrieveEvent(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Param('event_id') eventId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.series.retrieveEvent(caller.boxOfficeId, seriesId, eventId);
  }
}

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
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { EventDto, SeriesEventListDto } from './dto/event.dto';
import { ListSeriesEventsQueryDto } from './dto/list-events-query.dto';
import { EventsService } from './events.service';
import { RESOURCE } from '../common/resources/resource-identities';

const SERIES = {
  param: 'event_series_id',
  prefix: RESOURCE.eventSeries.prefix,
  noun: RESOURCE.eventSeries.noun,
};

/**
 * A series' dates, under its path (docs/API.md, "Event series"): events, so the events feature
 * serves them, listed under the series in the document. Revalidated as the events list is.
 */
@ApiResource(RESOURCE.eventSeries.tag)
@Controller({
  path: `${RESOURCE.eventSeries.segment}/:event_series_id/events`,
  version: '1',
})
export class SeriesEventsController {
  constructor(private readonly events: EventsService) {}

  @RevalidatedByDataVersion({ stock: true })
  @Get()
  @ApiList({
    operationId: 'listEventSeriesEvents',
    summary: "List a series' events (its dates)",
    description:
      'Exactly what /v1/events?event_series_id= gives, item for item: next event first (start, then id, ascending). An unknown series is not found; a cursor naming an event outside the series is an INVALID_CURSOR.',
    type: SeriesEventListDto,
    noun: RESOURCE.event.noun,
    parent: SERIES,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Query() query: ListSeriesEventsQueryDto,
  ): Promise<Page> {
    return this.events.listOfSeries(caller.boxOfficeId, seriesId, query);
  }

  @RevalidatedByDataVersion({ stock: true })
  @Get(':event_id')
  @ApiRetrieve({
    operationId: 'retrieveEventSeriesEvent',
    summary: 'Retrieve one event of a series',
    description:
      'The same object as /v1/events/{event_id}; not found unless the event belongs to the series.',
    type: EventDto,
    noun: RESOURCE.event.noun,
    param: 'event_id',
    prefix: RESOURCE.event.prefix,
    parent: SERIES,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Param('event_id') eventId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.events.retrieveOfSeries(caller.boxOfficeId, seriesId, eventId);
  }
}

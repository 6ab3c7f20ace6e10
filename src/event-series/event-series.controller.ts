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
import { EventSeriesDto, EventSeriesListDto } from './dto/event-series.dto';
import { ListEventSeriesQueryDto } from './dto/list-event-series-query.dto';
import { EventSeriesService } from './event-series.service';
import { RESOURCE } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.eventSeries.tag)
@Controller({ path: RESOURCE.eventSeries.segment, version: '1' })
export class EventSeriesController {
  constructor(private readonly series: EventSeriesService) {}

  @Get()
  @ApiList({
    operationId: 'listEventSeries',
    summary: "List the box office's event series",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: EventSeriesListDto,
    noun: RESOURCE.eventSeries.noun,
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
    noun: RESOURCE.eventSeries.noun,
    param: 'event_series_id',
    prefix: RESOURCE.eventSeries.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.series.retrieve(caller.boxOfficeId, seriesId);
  }
}

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
import { RevalidatedByDataVersion } from '../sync/revalidation';
import { EventDto, EventListDto } from './dto/event.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventsService } from './events.service';

@ApiResource('events')
@Controller({ path: 'events', version: '1' })
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @RevalidatedByDataVersion({ stock: true })
  @Get()
  @ApiList({
    operationId: 'listEvents',
    summary: "List the box office's events, with their ticket types",
    description:
      'Next event first (start, then id, ascending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: EventListDto,
    noun: 'event',
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListEventsQueryDto,
  ): Promise<Page> {
    return this.events.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion({ stock: true })
  @Get(':event_id')
  @ApiRetrieve({
    operationId: 'retrieveEvent',
    summary: 'Retrieve one event, with its ticket types',
    description:
      'The same object as its entry in the list; another box office’s event is not found.',
    type: EventDto,
    noun: 'event',
    param: 'event_id',
    prefix: 'ev_',
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_id') eventId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.events.retrieve(caller.boxOfficeId, eventId);
  }
}

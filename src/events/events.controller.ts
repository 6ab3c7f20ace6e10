import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { ErrorBodyDto } from '../common/errors/error-body.dto';
import { idSchema } from '../common/openapi/api-properties';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { EventAttendanceDto } from './dto/event-attendance.dto';
import { EventDto, EventListDto } from './dto/event.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventAttendanceService } from './event-attendance.service';
import { EventsService } from './events.service';
import { RESOURCE, exampleId } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.event.tag)
@Controller({ path: RESOURCE.event.segment, version: '1' })
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly attendances: EventAttendanceService,
  ) {}

  @RevalidatedByDataVersion({ stock: true })
  @Get()
  @ApiList({
    operationId: 'listEvents',
    summary: "List the box office's events, with their ticket types",
    description:
      'Next event first (start, then id, ascending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: EventListDto,
    noun: RESOURCE.event.noun,
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
    noun: RESOURCE.event.noun,
    param: 'event_id',
    prefix: RESOURCE.event.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_id') eventId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.events.retrieve(caller.boxOfficeId, eventId);
  }

  @RevalidatedByDataVersion()
  @Get(':event_id/attendance')
  @ApiOperation({
    operationId: 'getEventAttendance',
    summary: "An event's attendance: how many are in, how many still to come",
    description:
      'Its tickets counted by status and check-in, in all and per ticket type, all of one moment; each figure is what the issued tickets list gives for the same filters.',
  })
  @ApiParam({
    name: 'event_id',
    description: "The event's id; anything else names no event (404)",
    schema: {
      ...idSchema(RESOURCE.event.prefix),
      example: exampleId(RESOURCE.event),
    },
  })
  @ApiOkResponse({ type: EventAttendanceDto, description: 'The attendance' })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'VALIDATION_ERROR: this path takes no query parameters',
  })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description:
      'NOT_FOUND: no such event in this box office, or a malformed id',
  })
  attendance(
    @CurrentCaller() caller: Caller,
    @Param('event_id') eventId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.attendances.attendance(caller.boxOfficeId, eventId);
  }
}

import {
  ClassSerializerInterceptor,
  Controller,
  Get,
  Param,
  Query,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';
import { EventListResponse, EventResponse } from './event.response';
import { TypicalEventsService } from './events.service';
import { ListEventsQuery } from './list-events.query';
import { pageLinks } from './transforms';

@Controller('v1/events')
@UseGuards(ApiKeyGuard)
@UseInterceptors(ClassSerializerInterceptor)
export class TypicalEventsController {
  constructor(private readonly events: TypicalEventsService) {}

  @Get()
  async list(
    @Req() request: AuthedRequest,
    @Query() query: ListEventsQuery,
  ): Promise<EventListResponse> {
    const page = await this.events.list(request.boxOfficeId, query);
    const data = page.events.map(
      (event) => new EventResponse(event, page.counts.get(event.id)!),
    );
    const ids = page.events.map((event) => `ev_${event.id}`);
    return new EventListResponse(
      data,
      pageLinks(
        '/v1/events',
        page,
        ids[0],
        ids[ids.length - 1],
        request.query as Record<string, unknown>,
      ),
    );
  }

  @Get(':id')
  async retrieve(
    @Req() request: AuthedRequest,
    @Param('id') id: string,
  ): Promise<EventResponse> {
    const { event, counts } = await this.events.retrieve(
      request.boxOfficeId,
      id,
    );
    return new EventResponse(event, counts);
  }
}

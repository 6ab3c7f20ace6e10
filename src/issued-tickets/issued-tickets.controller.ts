import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { RevalidatedByDataVersion } from '../sync/revalidation';
import { SYNC_PAGE_HEADERS } from '../sync/sync-mode';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { IssuedTicketDto } from '../common/dto/issued-ticket.dto';
import { IssuedTicketListDto } from './dto/issued-ticket-list.dto';
import { ListIssuedTicketsQueryDto } from './dto/list-issued-tickets-query.dto';
import { IssuedTicketsService } from './issued-tickets.service';

@ApiResource('issued tickets')
@Controller({ path: 'issued_tickets', version: '1' })
export class IssuedTicketsController {
  constructor(private readonly tickets: IssuedTicketsService) {}

  @RevalidatedByDataVersion({ watermark: true })
  @Get()
  @ApiList({
    operationId: 'listIssuedTickets',
    summary: "List the box office's issued tickets",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND; updated_at filters serve incremental sync.',
    type: IssuedTicketListDto,
    noun: 'issued ticket',
    pageHeaders: SYNC_PAGE_HEADERS,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListIssuedTicketsQueryDto,
  ): Promise<Page> {
    return this.tickets.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion()
  @Get(':issued_ticket_id')
  @ApiRetrieve({
    operationId: 'retrieveIssuedTicket',
    summary: 'Retrieve one issued ticket',
    description: 'The same object as in its order’s issued_tickets.',
    type: IssuedTicketDto,
    noun: 'issued ticket',
    param: 'issued_ticket_id',
    prefix: 'it_',
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('issued_ticket_id') ticketId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.tickets.retrieve(caller.boxOfficeId, ticketId);
  }
}

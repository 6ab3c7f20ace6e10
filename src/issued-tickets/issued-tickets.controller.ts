import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { RequiresScope } from '../auth/requires-scope.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
  ApiWrite,
} from '../common/openapi/api-operations';
import { retryKeysOf, sendWriteAnswer } from '../common/writes/writes';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { SYNC_PAGE_HEADERS } from '../sync/sync-mode';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { IssuedTicketDto } from '../common/dto/issued-ticket.dto';
import { IssuedTicketListDto } from './dto/issued-ticket-list.dto';
import { ListIssuedTicketsQueryDto } from './dto/list-issued-tickets-query.dto';
import { IssueTicketDto, VoidTicketDto } from './dto/issue-ticket.dto';
import { IssuedTicketsService } from './issued-tickets.service';
import { TicketWritesService } from './ticket-writes.service';
import { RESOURCE } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.issuedTicket.tag)
@Controller({ path: RESOURCE.issuedTicket.segment, version: '1' })
export class IssuedTicketsController {
  constructor(
    private readonly tickets: IssuedTicketsService,
    private readonly writes: TicketWritesService,
  ) {}

  @RevalidatedByDataVersion({ watermark: true })
  @Get()
  @ApiList({
    operationId: 'listIssuedTickets',
    summary: "List the box office's issued tickets",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND; updated_at filters serve incremental sync.',
    type: IssuedTicketListDto,
    noun: RESOURCE.issuedTicket.noun,
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
    noun: RESOURCE.issuedTicket.noun,
    param: 'issued_ticket_id',
    prefix: RESOURCE.issuedTicket.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('issued_ticket_id') ticketId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.tickets.retrieve(caller.boxOfficeId, ticketId);
  }

  /** A ticket issued on its own, with no order (docs/API.md, "POST /v1/issued_tickets"). */
  @Post()
  @RequiresScope('write')
  @ApiWrite({
    operationId: 'issueTicket',
    summary: 'Issue a ticket',
    description:
      'A complimentary ticket (a guest list, a competition) of one of the event’s ticket types, with no order: status valid, a new unique barcode, order_id null. It counts in the type’s quantity_issued; a type with none left (quantity_total − quantity_issued − quantity_held is 0) refuses it, whatever its public status, and simultaneous issues never exceed it. Needs a key of scope write. Send an Idempotency-Key (or local_unique_id) to retry safely.',
    type: IssuedTicketDto,
    noun: RESOURCE.issuedTicket.noun,
    created: RESOURCE.issuedTicket,
    body: IssueTicketDto,
    scope: 'write',
    notFound: 'NOT_FOUND: no event of this box office has this id',
    refusal: {
      description:
        'SOLD_OUT: the ticket type has no tickets left to issue; nothing was written.',
    },
  })
  async issue(
    @CurrentCaller() caller: Caller,
    @Body() body: IssueTicketDto,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.writes.issue(
      caller,
      body,
      retryKeysOf(req, body),
    );
    return sendWriteAnswer(res, answer);
  }

  /** A ticket voided, for good (docs/API.md, "POST /v1/issued_tickets/{id}/void"). */
  @Post(':issued_ticket_id/void')
  @RequiresScope('write')
  @ApiWrite({
    operationId: 'voidTicket',
    summary: 'Void an issued ticket',
    description:
      'Cancels the ticket for good (a refund, a fraud): status void, voided_at now, and from this answer on every door refuses it. Its type’s quantity_issued no longer counts it. Needs a key of scope write. Send an Idempotency-Key (or local_unique_id) to retry safely.',
    type: IssuedTicketDto,
    noun: RESOURCE.issuedTicket.noun,
    changed: true,
    param: { name: 'issued_ticket_id', prefix: RESOURCE.issuedTicket.prefix },
    body: VoidTicketDto,
    scope: 'write',
    notFound:
      'NOT_FOUND: no issued ticket of this box office has this id, or a malformed id',
    refusal: {
      description:
        'ALREADY_VOID: the ticket is void already; nothing was written.',
    },
  })
  async void(
    @CurrentCaller() caller: Caller,
    @Param('issued_ticket_id') ticketId: string,
    @Body() body: VoidTicketDto,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.writes.void(
      caller,
      ticketId,
      retryKeysOf(req, body),
    );
    return sendWriteAnswer(res, answer);
  }
}

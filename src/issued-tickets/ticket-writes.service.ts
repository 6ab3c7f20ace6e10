import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.service';
import { ApiError } from '../common/errors/api-error';
import { parsePrefixedId } from '../common/ids';
import { ResourceReader } from '../common/resources/resource-reader';
import {
  type RetryKeys,
  type WriteAnswer,
  Writes,
} from '../common/writes/writes';
import { dialectFor } from '../database/sql-dialect';
import { IssueTicketDto } from './dto/issue-ticket.dto';
import { ISSUED_TICKET_SOURCE } from './issued-ticket.fields';
import { TicketWrites, type TicketToIssue, holderOf } from './ticket-writes';
import { RESOURCE, idForm } from '../common/resources/resource-identities';

/** Issues and voids tickets (docs/API.md, "POST /v1/issued_tickets" and ".../void"). */
@Injectable()
export class TicketWritesService {
  private readonly work: TicketWrites;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly writes: Writes,
  ) {
    this.work = new TicketWrites(
      dialectFor(dataSource.options.type),
      new ResourceReader(dataSource, ISSUED_TICKET_SOURCE),
    );
  }

  issue(
    caller: Caller,
    body: IssueTicketDto,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, () => {
      const ticket = ticketToIssue(body);
      return {
        operation: 'POST /v1/issued_tickets',
        request: { ...ticket },
        work: () => this.work.issue(office, ticket),
      };
    });
  }

  void(
    caller: Caller,
    ticketId: string,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, () => {
      const id = parsePrefixedId(RESOURCE.issuedTicket.prefix, ticketId);
      if (id === null) {
        throw ApiError.notFound(
          `No such issued ticket in this box office (issued ticket ids are ${idForm(RESOURCE.issuedTicket)})`,
        );
      }
      return {
        operation: 'POST /v1/issued_tickets/{id}/void',
        request: { id },
        work: () => this.work.void(office, id),
      };
    });
  }
}

/** The ticket a validated body asks for. */
function ticketToIssue(body: IssueTicketDto): TicketToIssue {
  const eventId = parsePrefixedId(RESOURCE.event.prefix, body.event_id);
  // Well-formed, but too large for any row's id.
  if (eventId === null) {
    throw ApiError.notFound(`No event ${body.event_id} in this box office`);
  }
  const ticketTypeId = parsePrefixedId(
    RESOURCE.ticketType.prefix,
    body.ticket_type_id,
  );
  if (ticketTypeId === null) {
    throw ApiError.invalidBody([
      {
        field: 'ticket_type_id',
        messages: [
          `ticket_type_id must name a ticket type of ${body.event_id}; ${body.ticket_type_id} is not one`,
        ],
      },
    ]);
  }
  return {
    eventId,
    ticketTypeId,
    holder: holderOf(body.full_name),
    email: body.email ?? null,
  };
}

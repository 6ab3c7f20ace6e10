import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  Equal,
  FindOptionsWhere,
  In,
  LessThan,
  MoreThan,
  Repository,
} from 'typeorm';
import type { IssuedTicketStatus } from '../../src/common/statuses';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import type { ListIssuedTicketsQuery } from './list-issued-tickets.query';

export interface IssuedTicketsPage {
  tickets: IssuedTicket[];
  hasNext: boolean;
  hasPrevious: boolean;
}

/** The ticket's order comes along for the buyer's e-mail. */
const RELATIONS = { order: true, event: true } as const;

function ticketId(value: string | undefined): number | null {
  const match = /^it_(\d+)$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}

type Where = FindOptionsWhere<IssuedTicket>;

/** The tickets listed after (older than) `t`, newest first: `created_at < c OR (= c AND id < i)`. */
const olderThan = (where: Where, t: IssuedTicket): Where[] => [
  { ...where, createdAt: LessThan(t.createdAt) },
  { ...where, createdAt: Equal(t.createdAt), id: LessThan(t.id) },
];
const newerThan = (where: Where, t: IssuedTicket): Where[] => [
  { ...where, createdAt: MoreThan(t.createdAt) },
  { ...where, createdAt: Equal(t.createdAt), id: MoreThan(t.id) },
];

/**
 * Issued tickets with cursor pagination the way it is usually bolted onto `find`: the cursor
 * ticket is loaded, and the page is the tickets on the far side of it, as an OR of two
 * conditions on (created_at, id), newest first, `take` one more than the page; whether a page lies
 * the other way is one `exists` query.
 */
@Injectable()
export class TypicalIssuedTicketsService {
  constructor(
    @InjectRepository(IssuedTicket)
    private readonly tickets: Repository<IssuedTicket>,
  ) {}

  async list(
    boxOfficeId: number,
    query: ListIssuedTicketsQuery,
  ): Promise<IssuedTicketsPage> {
    const limit = query.limit ?? 100;
    const where: Where = { boxOfficeId };
    if (query.event_id) {
      where.eventId = In(
        query.event_id.split(',').map((id) => Number(id.slice(3))),
      );
    }
    if (query.status) where.status = query.status as IssuedTicketStatus;

    const backwards = query.ending_before !== undefined;
    const parameter = backwards ? 'ending_before' : 'starting_after';
    const cursorValue = backwards ? query.ending_before : query.starting_after;
    let cursor: IssuedTicket | null = null;
    if (cursorValue !== undefined) {
      const id = ticketId(cursorValue);
      cursor =
        id === null ? null : await this.tickets.findOneBy({ id, boxOfficeId });
      if (!cursor) {
        throw new BadRequestException({
          status: 400,
          error_code: 'INVALID_CURSOR',
          message: `${parameter} must be the id of an issued ticket of this box office (it_<number>)`,
        });
      }
    }

    const rows = await this.tickets.find({
      where: cursor
        ? backwards
          ? newerThan(where, cursor)
          : olderThan(where, cursor)
        : where,
      relations: RELATIONS,
      order: backwards
        ? { createdAt: 'ASC', id: 'ASC' }
        : { createdAt: 'DESC', id: 'DESC' },
      take: limit + 1,
    });
    const more = rows.length > limit;
    const tickets = rows.slice(0, limit);
    if (backwards) tickets.reverse();
    if (tickets.length === 0)
      return { tickets, hasNext: false, hasPrevious: false };
    const other =
      cursor !== null &&
      (await this.tickets.exists({
        where: backwards
          ? olderThan(where, tickets[tickets.length - 1])
          : newerThan(where, tickets[0]),
      }));
    return {
      tickets,
      hasNext: backwards ? other : more,
      hasPrevious: backwards ? more : other,
    };
  }

  async retrieve(boxOfficeId: number, value: string): Promise<IssuedTicket> {
    const id = ticketId(value);
    const ticket =
      id === null
        ? null
        : await this.tickets.findOne({
            where: { id, boxOfficeId },
            relations: RELATIONS,
          });
    if (!ticket) {
      throw new NotFoundException({
        status: 404,
        error_code: 'NOT_FOUND',
        message: `No issued ticket ${value} in this box office`,
      });
    }
    return ticket;
  }
}

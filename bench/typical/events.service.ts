import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  Equal,
  FindOptionsWhere,
  LessThan,
  LessThanOrEqual,
  Repository,
} from 'typeorm';
import type { EventStatus } from '../../src/common/statuses';
import { Event } from '../../src/events/entities/event.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { Order } from '../../src/orders/entities/order.entity';
import type { EventCounts } from './event.response';
import type { ListEventsQuery } from './list-events.query';

export interface EventsPage {
  events: Event[];
  counts: Map<number, EventCounts>;
  hasNext: boolean;
  hasPrevious: boolean;
}

const RELATIONS = {
  ticketTypes: true,
  ticketGroups: true,
  paymentMethods: true,
} as const;
const NEXT_FIRST = { startAt: 'ASC', id: 'ASC' } as const;

function eventId(value: string | undefined): number | null {
  const match = /^ev_(\d+)$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Events as most apps serve them: `find` with the relations, offset pagination (a cursor becomes
 * an offset by counting the events before it, as for orders), and each event's orders and
 * tickets counted when it is shown.
 */
@Injectable()
export class TypicalEventsService {
  constructor(
    @InjectRepository(Event) private readonly events: Repository<Event>,
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    @InjectRepository(IssuedTicket)
    private readonly tickets: Repository<IssuedTicket>,
  ) {}

  /** A page of events; of one series when `eventSeriesId` is given (the nested list). */
  async list(
    boxOfficeId: number,
    query: ListEventsQuery,
    eventSeriesId?: number,
  ): Promise<EventsPage> {
    const limit = query.limit ?? 100;
    const where: FindOptionsWhere<Event> = { boxOfficeId };
    if (query.status) where.status = query.status as EventStatus;
    const series = query.event_series_id
      ? Number(query.event_series_id.slice(3))
      : eventSeriesId;
    if (series !== undefined) where.eventSeriesId = series;

    let skip = 0;
    let take = limit;
    const backwards = query.ending_before !== undefined;
    const parameter = backwards ? 'ending_before' : 'starting_after';
    const cursorValue = backwards ? query.ending_before : query.starting_after;
    if (cursorValue !== undefined) {
      const id = eventId(cursorValue);
      const cursor =
        id === null ? null : await this.events.findOneBy({ id, boxOfficeId });
      if (!cursor) {
        throw new BadRequestException({
          status: 400,
          error_code: 'INVALID_CURSOR',
          message: `${parameter} must be the id of an event of this box office (ev_<number>)`,
        });
      }
      // The cursor's offset: the matching events listed before it (earlier), and itself when it matches.
      const before = await this.events.count({
        where: [
          { ...where, startAt: LessThan(cursor.startAt) },
          {
            ...where,
            startAt: Equal(cursor.startAt),
            id: backwards ? LessThan(cursor.id) : LessThanOrEqual(cursor.id),
          },
        ],
      });
      if (backwards) {
        skip = Math.max(0, before - limit);
        take = before - skip;
      } else {
        skip = before;
      }
    }
    const none = { events: [], counts: new Map(), hasNext: false };
    if (take === 0) return { ...none, hasPrevious: false };

    // One row more than the page tells whether another page follows.
    const rows = await this.events.find({
      where,
      relations: RELATIONS,
      order: NEXT_FIRST,
      skip,
      take: take + 1,
    });
    const events = rows.slice(0, take);
    if (events.length === 0) return { ...none, hasPrevious: false };
    return {
      events,
      counts: await this.counts(events.map((event) => event.id)),
      hasNext: rows.length > take,
      hasPrevious: skip > 0,
    };
  }

  async retrieve(
    boxOfficeId: number,
    value: string,
  ): Promise<{ event: Event; counts: EventCounts }> {
    const id = eventId(value);
    const event =
      id === null
        ? null
        : await this.events.findOne({
            where: { id, boxOfficeId },
            relations: RELATIONS,
          });
    if (!event) {
      throw new NotFoundException({
        status: 404,
        error_code: 'NOT_FOUND',
        message: `No event ${value} in this box office`,
      });
    }
    const [orders, tickets] = await Promise.all([
      this.orders.countBy({ eventId: event.id, status: 'completed' }),
      this.tickets.countBy({ eventId: event.id, status: 'valid' }),
    ]);
    return { event, counts: { orders, tickets } };
  }

  /** Completed orders and valid tickets of each event: one GROUP BY each for the page. */
  private async counts(ids: number[]): Promise<Map<number, EventCounts>> {
    const counts = new Map<number, EventCounts>(
      ids.map((id) => [id, { orders: 0, tickets: 0 }]),
    );
    type CountRow = { eventId: number | string; n: number | string };
    const [orders, tickets] = await Promise.all([
      this.orders
        .createQueryBuilder('o')
        .select('o.eventId', 'eventId')
        .addSelect('COUNT(*)', 'n')
        .where('o.eventId IN (:...ids)', { ids })
        .andWhere('o.status = :status', { status: 'completed' })
        .groupBy('o.eventId')
        .getRawMany<CountRow>(),
      this.tickets
        .createQueryBuilder('t')
        .select('t.eventId', 'eventId')
        .addSelect('COUNT(*)', 'n')
        .where('t.eventId IN (:...ids)', { ids })
        .andWhere('t.status = :status', { status: 'valid' })
        .groupBy('t.eventId')
        .getRawMany<CountRow>(),
    ]);
    for (const row of orders)
      counts.get(Number(row.eventId))!.orders = Number(row.n);
    for (const row of tickets)
      counts.get(Number(row.eventId))!.tickets = Number(row.n);
    return counts;
  }
}

import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  And,
  Equal,
  FindOperator,
  FindOptionsWhere,
  In,
  LessThan,
  LessThanOrEqual,
  MoreThan,
  MoreThanOrEqual,
  Repository,
} from 'typeorm';
import { Order } from '../../src/orders/entities/order.entity';
import type { ListOrdersQuery } from './list-orders.query';

export interface OrdersPage {
  orders: Order[];
  hasNext: boolean;
  hasPrevious: boolean;
}

const RELATIONS = {
  event: true,
  lineItems: true,
  issuedTickets: true,
} as const;
const NEWEST_FIRST = { createdAt: 'DESC', id: 'DESC' } as const;

function orderId(value: string | undefined): number | null {
  const match = /^or_(\d+)$/.exec(value ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Offset pagination, as most apps do it: filters become a `where`, the page is
 * `find({ where, relations, order, skip, take })`, and a cursor is turned into an offset by
 * counting the rows that come before it.
 */
@Injectable()
export class TypicalOrdersService {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
  ) {}

  async list(boxOfficeId: number, query: ListOrdersQuery): Promise<OrdersPage> {
    const limit = query.limit ?? 100;
    const where: FindOptionsWhere<Order> = { boxOfficeId };
    const createdAt: FindOperator<number>[] = [];
    if (query.created_at !== undefined) createdAt.push(Equal(query.created_at));
    if (query['created_at.gt'] !== undefined)
      createdAt.push(MoreThan(query['created_at.gt']));
    if (query['created_at.gte'] !== undefined)
      createdAt.push(MoreThanOrEqual(query['created_at.gte']));
    if (query['created_at.lt'] !== undefined)
      createdAt.push(LessThan(query['created_at.lt']));
    if (query['created_at.lte'] !== undefined)
      createdAt.push(LessThanOrEqual(query['created_at.lte']));
    if (query.event_id) {
      where.eventId = In(
        query.event_id.split(',').map((id) => Number(id.slice(3))),
      );
    }
    if (query.status) where.status = query.status as Order['status'];
    if (query.email) where.buyerEmailLookup = query.email.toLowerCase();
    if (query.txn_id) where.txnId = query.txn_id;
    const withCreatedAt = (...extra: FindOperator<number>[]) =>
      createdAt.length + extra.length === 0
        ? where
        : { ...where, createdAt: And(...createdAt, ...extra) };

    let skip = 0;
    let take = limit;
    const backwards = query.ending_before !== undefined;
    const parameter = backwards ? 'ending_before' : 'starting_after';
    const cursorValue = backwards ? query.ending_before : query.starting_after;
    if (cursorValue !== undefined) {
      const id = orderId(cursorValue);
      const cursor =
        id === null ? null : await this.orders.findOneBy({ id, boxOfficeId });
      if (!cursor) {
        throw new BadRequestException({
          status: 400,
          error_code: 'INVALID_CURSOR',
          message: `${parameter} must be the id of an order of this box office (or_<number>)`,
        });
      }
      // The cursor's offset: the matching rows listed before it (newer), and itself when it matches.
      const before = await this.orders.count({
        where: [
          withCreatedAt(MoreThan(cursor.createdAt)),
          {
            ...withCreatedAt(Equal(cursor.createdAt)),
            id: backwards ? MoreThan(cursor.id) : MoreThanOrEqual(cursor.id),
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
    if (take === 0) return { orders: [], hasNext: false, hasPrevious: false };

    // One row more than the page tells whether another page follows.
    const rows = await this.orders.find({
      where: withCreatedAt(),
      relations: RELATIONS,
      order: NEWEST_FIRST,
      skip,
      take: take + 1,
    });
    const orders = rows.slice(0, take);
    if (orders.length === 0)
      return { orders, hasNext: false, hasPrevious: false };
    return { orders, hasNext: rows.length > take, hasPrevious: skip > 0 };
  }

  async retrieve(boxOfficeId: number, value: string): Promise<Order> {
    const id = orderId(value);
    const order =
      id === null
        ? null
        : await this.orders.findOne({
            where: { id, boxOfficeId },
            relations: RELATIONS,
          });
    if (!order) {
      throw new NotFoundException({
        status: 404,
        error_code: 'NOT_FOUND',
        message: `No order ${value} in this box office`,
      });
    }
    return order;
  }
}

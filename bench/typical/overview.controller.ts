import { Controller, Get, Injectable, Req, UseGuards } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, In, Repository } from 'typeorm';
import { BoxOffice } from '../../src/auth/entities/box-office.entity';
import { EventSeries } from '../../src/event-series/entities/event-series.entity';
import { Event } from '../../src/events/entities/event.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { Order } from '../../src/orders/entities/order.entity';
import { currencySymbol } from '../../src/overview/overview.service';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';

const FOUR_WEEKS = 28 * 86_400;

/**
 * The overview as most apps build it: a repository call per number, the period's revenue summed
 * by a query builder, counts by status counted one status at a time.
 */
@Injectable()
export class TypicalOverviewService {
  constructor(
    @InjectRepository(BoxOffice)
    private readonly boxOffices: Repository<BoxOffice>,
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    @InjectRepository(IssuedTicket)
    private readonly tickets: Repository<IssuedTicket>,
    @InjectRepository(EventSeries)
    private readonly series: Repository<EventSeries>,
    @InjectRepository(Event) private readonly events: Repository<Event>,
  ) {}

  async overview(boxOfficeId: number) {
    const now = Math.floor(Date.now() / 1000);
    const createdAt = Between(now - FOUR_WEEKS, now);
    const office = await this.boxOffices.findOneByOrFail({ id: boxOfficeId });
    const [sales, orders, tickets, ...statuses] = await Promise.all([
      this.orders
        .createQueryBuilder('o')
        .select('coalesce(sum(o.total - o.refundAmount), 0)', 'revenue')
        .where('o.boxOfficeId = :boxOfficeId', { boxOfficeId })
        .andWhere("o.status = 'completed'")
        .andWhere('o.currency = :currency', { currency: office.currency })
        .andWhere('o.createdAt BETWEEN :from AND :now', {
          from: now - FOUR_WEEKS,
          now,
        })
        .getRawOne<{ revenue: number | string }>(),
      this.orders.countBy({ boxOfficeId, status: 'completed', createdAt }),
      this.tickets.countBy({ boxOfficeId, status: 'valid', createdAt }),
      this.series.countBy({ boxOfficeId, status: In(['published']) }),
      this.series.countBy({ boxOfficeId, status: In(['draft']) }),
      this.events.countBy({ boxOfficeId, status: In(['published']) }),
      this.events.countBy({ boxOfficeId, status: In(['draft']) }),
    ]);
    return {
      object: 'overview',
      box_office_name: office.name,
      currency: {
        code: office.currency,
        symbol: currencySymbol(office.currency),
      },
      period: 'four weeks',
      revenue: Number(sales?.revenue ?? 0),
      orders_received: orders,
      total_issued_tickets: tickets,
      event_series_published: statuses[0],
      event_series_draft: statuses[1],
      event_occurrences_published: statuses[2],
      event_occurrences_draft: statuses[3],
    };
  }
}

@Controller('v1/overview')
@UseGuards(ApiKeyGuard)
export class TypicalOverviewController {
  constructor(private readonly overview: TypicalOverviewService) {}

  @Get()
  get(@Req() request: AuthedRequest) {
    return this.overview.overview(request.boxOfficeId);
  }
}

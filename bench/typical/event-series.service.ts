import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Equal, FindOptionsWhere, In, MoreThan, Repository } from 'typeorm';
import { EventSeries } from '../../src/event-series/entities/event-series.entity';
import { Event } from '../../src/events/entities/event.entity';

/** What a series shows about its dates, worked out from them (see TypicalEventSeriesService). */
export interface SeriesCounts {
  total: number;
  upcoming: number;
  /** The start of its first date not yet over, or null. */
  next: number | null;
  tickets: number;
  revenue: number;
  /** The vouchers usable on it (`vo_…`), by id. */
  vouchers: string[];
}

export interface EventSeriesPage {
  series: EventSeries[];
  counts: Map<number, SeriesCounts>;
  hasNext: boolean;
  hasPrevious: boolean;
}

const RELATIONS = {
  ticketTypes: true,
  ticketGroups: true,
  paymentMethods: true,
} as const;

/**
 * Event series as most apps serve them: `find` with the template relations, offset pagination
 * (the cursor's position counted), and each series' dates loaded to count them in code.
 */
@Injectable()
export class TypicalEventSeriesService {
  constructor(
    @InjectRepository(EventSeries)
    private readonly series: Repository<EventSeries>,
    @InjectRepository(Event) private readonly events: Repository<Event>,
  ) {}

  async list(
    boxOfficeId: number,
    query: { limit?: number; starting_after?: string },
  ): Promise<EventSeriesPage> {
    const limit = query.limit ?? 100;
    const where: FindOptionsWhere<EventSeries> = { boxOfficeId };
    let skip = 0;
    if (query.starting_after !== undefined) {
      const cursor = await this.find(boxOfficeId, query.starting_after);
      if (!cursor) {
        throw new BadRequestException({
          status: 400,
          error_code: 'INVALID_CURSOR',
          message:
            'starting_after must be the id of an event series of this box office (es_<number>)',
        });
      }
      // Newest first: the cursor's offset is the series created after it, and itself.
      skip = await this.series.count({
        where: [
          { ...where, createdAt: MoreThan(cursor.createdAt) },
          {
            ...where,
            createdAt: Equal(cursor.createdAt),
            id: MoreThan(cursor.id),
          },
          { ...where, id: Equal(cursor.id) },
        ],
      });
    }
    const rows = await this.series.find({
      where,
      relations: RELATIONS,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip,
      take: limit + 1,
    });
    const series = rows.slice(0, limit);
    return {
      series,
      counts: await this.counts(series.map((s) => s.id)),
      hasNext: rows.length > limit,
      hasPrevious: skip > 0 && series.length > 0,
    };
  }

  /** The series, or a 404 in the API's shape. */
  async get(boxOfficeId: number, value: string): Promise<EventSeries> {
    const series = await this.find(boxOfficeId, value);
    if (!series) {
      throw new NotFoundException({
        status: 404,
        error_code: 'NOT_FOUND',
        message: `No event series ${value} in this box office`,
      });
    }
    return series;
  }

  private find(boxOfficeId: number, value: string) {
    const match = /^es_(\d+)$/.exec(value);
    return match
      ? this.series.findOneBy({ id: Number(match[1]), boxOfficeId })
      : Promise.resolve(null);
  }

  /** Each series' dates, loaded and counted in code. */
  private async counts(ids: number[]): Promise<Map<number, SeriesCounts>> {
    const now = Math.floor(Date.now() / 1000);
    const counts = new Map<number, SeriesCounts>(
      ids.map((id) => [
        id,
        {
          total: 0,
          upcoming: 0,
          next: null,
          tickets: 0,
          revenue: 0,
          vouchers: [],
        },
      ]),
    );
    if (ids.length === 0) return counts;
    const events = await this.events.find({
      where: { eventSeriesId: In(ids) },
      order: { startAt: 'ASC', id: 'ASC' },
    });
    // The vouchers usable on each series, from the schema's view of them.
    const vouchers = await this.series.manager.query<
      { event_series_id: number; voucher_id: number }[]
    >(
      `SELECT event_series_id, voucher_id FROM event_series_vouchers
        WHERE event_series_id IN (${ids.map(Number).join(', ')}) ORDER BY voucher_id`,
    );
    for (const row of vouchers) {
      counts
        .get(Number(row.event_series_id))!
        .vouchers.push(`vo_${Number(row.voucher_id)}`);
    }
    for (const event of events) {
      const own = counts.get(event.eventSeriesId)!;
      own.total++;
      own.tickets += event.validTicketsCount;
      own.revenue += event.completedRevenue;
      if (event.endAt > now) {
        own.upcoming++;
        own.next ??= event.startAt;
      }
    }
    return counts;
  }
}

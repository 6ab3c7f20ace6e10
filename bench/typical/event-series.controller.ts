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
import { Exclude, Expose, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { EventSeries } from '../../src/event-series/entities/event-series.entity';
import { toDateObject } from '../../src/events/event-dates';
import type { TicketType } from '../../src/events/entities/ticket-type.entity';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';
import {
  EventListResponse,
  EventPaymentMethodResponse,
  EventResponse,
  TicketGroupResponse,
  TicketTypeResponse,
} from './event.response';
import {
  type SeriesCounts,
  TypicalEventSeriesService,
} from './event-series.service';
import { TypicalEventsService } from './events.service';
import { ListEventsQuery } from './list-events.query';
import { Flag, PageLinks, Prefixed, pageLinks } from './transforms';

export class ListEventSeriesQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() starting_after?: string;
}

const bySortOrder = (
  a: { sortOrder: number; id: number },
  b: { sortOrder: number; id: number },
) => a.sortOrder - b.sortOrder || a.id - b.id;

@Exclude()
export class EventSeriesResponse {
  @Expose() readonly object = 'event_series';
  @Expose() @Prefixed('es_') id: number;
  @Expose() name: string;
  @Expose() description: string | null;
  @Expose() status: string;
  @Expose({ name: 'created_at' }) createdAt: number;
  @Expose() currency: string;
  @Expose() timezone: string;
  @Expose() url: string;
  @Expose({ name: 'online_event' }) @Flag() onlineEvent: boolean;
  @Expose({ name: 'private' }) @Flag() private: boolean;
  @Expose({ name: 'access_code' }) accessCode: string | null;
  @Expose({ name: 'call_to_action' }) callToAction: string;
  @Expose({ name: 'default_max_tickets_sold_per_occurrence' })
  maxTicketsSoldPerOccurrence: number | null;
  @Expose({ name: 'voucher_ids' }) voucherIds: string[];

  @Expose({ name: 'payment_methods' })
  @Type(() => EventPaymentMethodResponse)
  paymentMethods: EventPaymentMethodResponse[];

  @Expose({ name: 'default_ticket_types' })
  @Type(() => TicketTypeResponse)
  defaultTicketTypes: TicketTypeResponse[];

  @Expose({ name: 'default_ticket_groups' })
  @Type(() => TicketGroupResponse)
  defaultTicketGroups: TicketGroupResponse[];

  @Expose({ name: 'upcoming_occurrences' }) upcomingOccurrences: number;
  @Expose({ name: 'total_occurrences' }) totalOccurrences: number;
  @Expose({ name: 'total_issued_tickets' }) totalIssuedTickets: number;
  @Expose() revenue: number;

  private readonly series: EventSeries;
  private readonly next: number | null;

  constructor(series: EventSeries, counts: SeriesCounts) {
    Object.assign(this, series);
    this.series = series;
    const types = [...(series.ticketTypes ?? [])].sort(bySortOrder);
    // A template's types have no sales: their counters are zero.
    this.defaultTicketTypes = types.map((type) =>
      Object.assign(new TicketTypeResponse(type as unknown as TicketType), {
        quantityIssued: 0,
        quantityHeld: 0,
        quantityInBaskets: 0,
      }),
    );
    this.defaultTicketGroups = [...(series.ticketGroups ?? [])]
      .sort(bySortOrder)
      .map((group) => new TicketGroupResponse(group, types));
    this.paymentMethods = [...(series.paymentMethods ?? [])]
      .sort((a, b) => a.id - b.id)
      .map((method) => new EventPaymentMethodResponse(method));
    this.upcomingOccurrences = counts.upcoming;
    this.totalOccurrences = counts.total;
    this.totalIssuedTickets = counts.tickets;
    this.revenue = counts.revenue;
    this.voucherIds = counts.vouchers;
    this.next = counts.next;
  }

  @Expose()
  get venue() {
    return {
      name: this.series.venueName,
      postal_code: this.series.venuePostalCode,
    };
  }

  @Expose()
  get images() {
    return {
      header: this.series.imageHeaderUrl,
      thumbnail: this.series.imageThumbnailUrl,
    };
  }

  @Expose({ name: 'next_occurrence_date' })
  get nextOccurrenceDate() {
    return this.next === null
      ? null
      : toDateObject(this.next, this.series.timezone);
  }
}

export class EventSeriesListResponse {
  @Type(() => EventSeriesResponse)
  data: EventSeriesResponse[];

  links: PageLinks;

  constructor(data: EventSeriesResponse[], links: PageLinks) {
    this.data = data;
    this.links = links;
  }
}

@Controller('v1/event_series')
@UseGuards(ApiKeyGuard)
@UseInterceptors(ClassSerializerInterceptor)
export class TypicalEventSeriesController {
  constructor(
    private readonly series: TypicalEventSeriesService,
    private readonly events: TypicalEventsService,
  ) {}

  @Get()
  async list(
    @Req() request: AuthedRequest,
    @Query() query: ListEventSeriesQuery,
  ): Promise<EventSeriesListResponse> {
    const page = await this.series.list(request.boxOfficeId, query);
    const ids = page.series.map((series) => `es_${series.id}`);
    return new EventSeriesListResponse(
      page.series.map(
        (series) =>
          new EventSeriesResponse(series, page.counts.get(series.id)!),
      ),
      pageLinks(
        '/v1/event_series',
        page,
        ids[0],
        ids[ids.length - 1],
        request.query as Record<string, unknown>,
      ),
    );
  }

  @Get(':id/events')
  async seriesEvents(
    @Req() request: AuthedRequest,
    @Param('id') id: string,
    @Query() query: ListEventsQuery,
  ): Promise<EventListResponse> {
    const series = await this.series.get(request.boxOfficeId, id);
    const page = await this.events.list(request.boxOfficeId, query, series.id);
    const ids = page.events.map((event) => `ev_${event.id}`);
    return new EventListResponse(
      page.events.map(
        (event) => new EventResponse(event, page.counts.get(event.id)!),
      ),
      pageLinks(
        `/v1/event_series/${id}/events`,
        page,
        ids[0],
        ids[ids.length - 1],
        request.query as Record<string, unknown>,
      ),
    );
  }
}

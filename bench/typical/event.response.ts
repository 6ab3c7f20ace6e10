import { Exclude, Expose, Type } from 'class-transformer';
import { toDateObject } from '../../src/events/event-dates';
import type { PaymentMethodColumns } from '../../src/events/entities/event-payment-method.entity';
import type { Event } from '../../src/events/entities/event.entity';
import type { TicketGroupColumns } from '../../src/events/entities/ticket-group.entity';
import type { TicketType } from '../../src/events/entities/ticket-type.entity';
import { Flag, PageLinks, Prefixed } from './transforms';

/** The counts an event shows, found by the service (see TypicalEventsService.counts). */
export interface EventCounts {
  orders: number;
  tickets: number;
}

@Exclude()
export class TicketTypeResponse {
  @Expose() readonly object = 'ticket_type';
  @Expose() @Prefixed('tt_') id: number;
  @Expose({ name: 'access_code' }) accessCode: string | null;
  @Expose({ name: 'booking_fee' }) bookingFee: number;
  @Expose() description: string | null;
  @Expose({ name: 'group_id' }) @Prefixed('tg_') groupId: number | null;
  @Expose({ name: 'max_per_order' }) maxPerOrder: number;
  @Expose({ name: 'min_per_order' }) minPerOrder: number;
  @Expose() name: string;
  @Expose() price: number;
  @Expose() status: string;
  @Expose({ name: 'sort_order' }) sortOrder: number;
  @Expose() type: string;
  @Expose({ name: 'quantity_total' }) quantityTotal: number;
  @Expose({ name: 'quantity_issued' }) quantityIssued: number;
  @Expose({ name: 'quantity_held' }) quantityHeld: number;
  @Expose({ name: 'quantity_in_baskets' }) quantityInBaskets: number;

  constructor(type: TicketType) {
    Object.assign(this, type);
  }

  @Expose()
  get quantity() {
    return ticketsLeft(this);
  }
}

/** What is left of a ticket type: capacity less what is issued, held or in baskets. */
function ticketsLeft(type: {
  status: string;
  quantityTotal: number;
  quantityIssued: number;
  quantityHeld: number;
  quantityInBaskets: number;
}): number {
  if (type.status === 'sold_out') return 0;
  const left =
    type.quantityTotal -
    type.quantityIssued -
    type.quantityHeld -
    type.quantityInBaskets;
  return Math.max(0, left);
}

@Exclude()
export class TicketGroupResponse {
  @Expose() @Prefixed('tg_') id: number;
  @Expose({ name: 'max_per_order' }) maxPerOrder: number | null;
  @Expose() name: string;
  @Expose({ name: 'sort_order' }) sortOrder: number;
  @Expose({ name: 'ticket_ids' }) ticketIds: string[];

  constructor(
    group: TicketGroupColumns & { id: number },
    /** The event's (or template's) types, in list order. */
    types: readonly { id: number; groupId: number | null }[],
  ) {
    Object.assign(this, group);
    this.ticketIds = types
      .filter((type) => type.groupId === group.id)
      .map((type) => `tt_${type.id}`);
  }
}

@Exclude()
export class EventPaymentMethodResponse {
  @Expose({ name: 'external_id' }) externalId: string | null;
  @Expose({ name: 'id' }) @Prefixed('pm_') paymentMethodId: number | null;
  @Expose() type: string;
  @Expose() name: string | null;
  @Expose() instructions: string | null;

  constructor(method: PaymentMethodColumns) {
    Object.assign(this, method);
  }
}

const bySortOrder = (
  a: { sortOrder: number; id: number },
  b: { sortOrder: number; id: number },
) => a.sortOrder - b.sortOrder || a.id - b.id;

@Exclude()
export class EventResponse {
  @Expose() readonly object = 'event';
  @Expose() @Prefixed('ev_') id: number;
  @Expose({ name: 'access_code' }) accessCode: string | null;
  @Expose({ name: 'call_to_action' }) callToAction: string;
  @Expose({ name: 'created_at' }) createdAt: number;
  @Expose() currency: string;
  @Expose() description: string | null;
  @Expose({ name: 'event_series_id' }) @Prefixed('es_') eventSeriesId: number;
  @Expose() name: string;
  @Expose({ name: 'online_event' }) @Flag() onlineEvent: boolean;
  @Expose() status: string;
  @Expose() timezone: string;
  @Expose() url: string;

  @Expose({ name: 'payment_methods' })
  @Type(() => EventPaymentMethodResponse)
  paymentMethods: EventPaymentMethodResponse[];

  @Expose({ name: 'ticket_groups' })
  @Type(() => TicketGroupResponse)
  ticketGroups: TicketGroupResponse[];

  @Expose({ name: 'ticket_types' })
  @Type(() => TicketTypeResponse)
  ticketTypes: TicketTypeResponse[];

  @Expose({ name: 'total_issued_tickets' }) totalIssuedTickets: number;
  @Expose({ name: 'total_orders' }) totalOrders: number;

  private readonly event: Event;

  constructor(event: Event, counts: EventCounts) {
    Object.assign(this, event);
    this.event = event;
    // Relations come back in join order: sort them as the API lists them.
    const types = [...(event.ticketTypes ?? [])].sort(bySortOrder);
    this.ticketTypes = types.map((type) => new TicketTypeResponse(type));
    this.ticketGroups = [...(event.ticketGroups ?? [])]
      .sort(bySortOrder)
      .map((group) => new TicketGroupResponse(group, types));
    this.paymentMethods = [...(event.paymentMethods ?? [])]
      .sort((a, b) => a.id - b.id)
      .map((method) => new EventPaymentMethodResponse(method));
    this.totalOrders = counts.orders;
    this.totalIssuedTickets = counts.tickets;
  }

  @Expose()
  get start() {
    return toDateObject(this.event.startAt, this.event.timezone);
  }

  @Expose()
  get end() {
    return toDateObject(this.event.endAt, this.event.timezone);
  }

  @Expose()
  get images() {
    return {
      header: this.event.imageHeaderUrl,
      thumbnail: this.event.imageThumbnailUrl,
    };
  }

  @Expose({ name: 'private' })
  get privateFlag() {
    return String(this.event.private);
  }

  @Expose({ name: 'tickets_available' })
  get ticketsAvailable() {
    const available = (this.event.ticketTypes ?? []).some(
      (type) => type.status === 'on_sale' && ticketsLeft(type) > 0,
    );
    return String(available);
  }

  @Expose()
  get venue() {
    return {
      name: this.event.venueName,
      postal_code: this.event.venuePostalCode,
    };
  }
}

export class EventListResponse {
  @Type(() => EventResponse)
  data: EventResponse[];

  links: PageLinks;

  constructor(data: EventResponse[], links: PageLinks) {
    this.data = data;
    this.links = links;
  }
}

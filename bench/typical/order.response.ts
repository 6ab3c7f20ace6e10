import { Exclude, Expose, Type } from 'class-transformer';
import type { CustomQuestion } from '../../src/orders/entities/order.entity';
import { Order } from '../../src/orders/entities/order.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { LineItem } from '../../src/orders/entities/line-item.entity';
import { CURRENCY_BASE_MULTIPLIERS } from '../../src/common/currencies';
import { toDateObject } from '../../src/events/event-dates';
import { Flag, PageLinks, Prefixed } from './transforms';

/**
 * Response classes the way most NestJS code writes them: the entity is copied in, and
 * class-transformer decorators (run by ClassSerializerInterceptor) pick, rename and reformat its
 * fields into the API's snake_case shape.
 */

@Exclude()
export class LineItemResponse {
  @Expose() readonly object = 'line_item';
  @Expose() @Prefixed('li_') id: number;
  @Expose({ name: 'booking_fee' }) bookingFee: number;
  @Expose() description: string;
  @Expose({ name: 'item_id' })
  get itemId(): string | null {
    const item = this.item;
    const named = (prefix: string, id: number | null) =>
      id === null ? null : `${prefix}${id}`;
    switch (item.type) {
      case 'ticket':
      case 'void':
        return named('tt_', item.ticketTypeId);
      case 'product':
        return named('pr_', item.productId);
      case 'gift_card':
        return (
          named('vc_', item.voucherCodeId) ?? named('di_', item.discountId)
        );
      default:
        return null;
    }
  }
  @Expose() type: string;
  @Expose() total: number;
  @Expose() value: number;
  @Expose() quantity: number;

  constructor(private readonly item: LineItem) {
    Object.assign(this, item);
  }
}

@Exclude()
export class IssuedTicketResponse {
  @Expose() readonly object = 'issued_ticket';
  @Expose() @Prefixed('it_') id: number;
  @Expose() barcode: string;
  @Expose({ name: 'barcode_url' }) barcodeUrl: string;
  @Expose({ name: 'created_at' }) createdAt: number;
  @Expose({ name: 'custom_questions' }) customQuestions: CustomQuestion[];
  @Expose() description: string;
  @Expose() email: string;
  @Expose({ name: 'event_id' }) @Prefixed('ev_') eventId: number;
  @Expose({ name: 'full_name' }) fullName: string | null;
  @Expose({ name: 'first_name' }) firstName: string | null;
  @Expose({ name: 'last_name' }) lastName: string | null;
  @Expose() reservation: string | null;
  @Expose() status: string;
  @Expose({ name: 'updated_at' }) updatedAt: number;
  @Expose({ name: 'voided_at' }) voidedAt: number | null;
  @Expose({ name: 'order_id' }) @Prefixed('or_') orderId: number;
  @Expose({ name: 'qr_code_url' }) qrCodeUrl: string;
  @Expose({ name: 'ticket_type_id' }) @Prefixed('tt_') ticketTypeId:
    number | null;
  @Expose({ name: 'event_series_id' }) @Prefixed('es_') eventSeriesId: number;
  @Expose({ name: 'checked_in' }) @Flag() checkedIn: boolean;

  constructor(ticket: IssuedTicket, email: string, eventSeriesId: number) {
    Object.assign(this, ticket);
    this.email = email;
    this.eventSeriesId = eventSeriesId;
  }
}

@Exclude()
export class OrderResponse {
  @Expose() readonly object = 'order';
  @Expose() @Prefixed('or_') id: number;
  @Expose({ name: 'created_at' }) createdAt: number;
  @Expose({ name: 'refund_amount' }) refundAmount: number;
  @Expose() status: string;
  @Expose({ name: 'status_message' }) statusMessage: string | null;
  @Expose() subtotal: number;
  @Expose() tax: number;
  @Expose() total: number;
  @Expose({ name: 'txn_id' }) txnId: string | null;
  @Expose({ name: 'updated_at' }) updatedAt: number;

  @Expose({ name: 'issued_tickets' })
  @Type(() => IssuedTicketResponse)
  issuedTickets: IssuedTicketResponse[];

  @Expose({ name: 'line_items' })
  @Type(() => LineItemResponse)
  lineItems: LineItemResponse[];

  private readonly order: Order;

  constructor(order: Order) {
    Object.assign(this, order);
    this.order = order;
    // Relations come back in join order: sort children by id, as the API lists them.
    this.issuedTickets = [...(order.issuedTickets ?? [])]
      .sort((a, b) => a.id - b.id)
      .map(
        (ticket) =>
          new IssuedTicketResponse(
            ticket,
            order.buyerEmail,
            order.event!.eventSeriesId,
          ),
      );
    this.lineItems = [...(order.lineItems ?? [])]
      .sort((a, b) => a.id - b.id)
      .map((item) => new LineItemResponse(item));
  }

  @Expose({ name: 'buyer_details' })
  get buyerDetails() {
    const o = this.order;
    return {
      address: {
        address_1: o.address1,
        address_2: o.address2,
        address_3: o.address3,
        postal_code: o.postalCode,
      },
      custom_questions: o.buyerCustomQuestions,
      email: o.buyerEmail,
      first_name: o.buyerFirstName,
      last_name: o.buyerLastName,
      name: o.buyerName,
      phone: o.buyerPhone,
    };
  }

  @Expose({ name: 'currency' })
  get currencyDetails() {
    const code = this.order.currency;
    return {
      code,
      base_multiplier:
        CURRENCY_BASE_MULTIPLIERS[
          code as keyof typeof CURRENCY_BASE_MULTIPLIERS
        ] ?? 100,
    };
  }

  @Expose({ name: 'event_summary' })
  get eventSummary() {
    const event = this.order.event!;
    return {
      id: `ev_${event.id}`,
      event_series_id: `es_${event.eventSeriesId}`,
      name: event.name,
      start_date: toDateObject(event.startAt, event.timezone),
      end_date: toDateObject(event.endAt, event.timezone),
      venue: { name: event.venueName, postal_code: event.venuePostalCode },
    };
  }

  @Expose({ name: 'payment_method' })
  get paymentMethod() {
    const o = this.order;
    return {
      external_id: o.paymentMethodExternalId,
      id: o.paymentMethodId === null ? null : `pm_${o.paymentMethodId}`,
      type: o.paymentMethodType,
      name: o.paymentMethodName,
      instructions: o.paymentMethodInstructions,
    };
  }
}

export class OrderListResponse {
  @Type(() => OrderResponse)
  data: OrderResponse[];

  links: PageLinks;

  constructor(data: OrderResponse[], links: PageLinks) {
    this.data = data;
    this.links = links;
  }
}

import { DataSource, DeepPartial } from 'typeorm';
import { hashApiKey, displayPrefix } from '../../src/auth/api-key-format';
import type { ApiKeyScope } from '../../src/auth/api-key-scopes';
import { ApiKey } from '../../src/auth/entities/api-key.entity';
import { BoxOffice } from '../../src/auth/entities/box-office.entity';
import { EventPaymentMethod } from '../../src/events/entities/event-payment-method.entity';
import { Event } from '../../src/events/entities/event.entity';
import { EventSeries } from '../../src/event-series/entities/event-series.entity';
import { TicketGroup } from '../../src/events/entities/ticket-group.entity';
import { TicketType } from '../../src/events/entities/ticket-type.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { LineItem } from '../../src/orders/entities/line-item.entity';
import { Order } from '../../src/orders/entities/order.entity';
import { inImportMode } from '../../src/sync/import-mode';
import { Discount } from '../../src/discounts/entities/discount.entity';
import { DiscountProduct } from '../../src/discounts/entities/discount-product.entity';
import { DiscountTicketType } from '../../src/discounts/entities/discount-ticket-type.entity';
import { Product } from '../../src/products/entities/product.entity';
import { ProductEventSeries } from '../../src/products/entities/product-event-series.entity';
import { VoucherCode } from '../../src/vouchers/entities/voucher-code.entity';
import { VoucherEventSeries } from '../../src/vouchers/entities/voucher-event-series.entity';
import { Voucher } from '../../src/vouchers/entities/voucher.entity';
import { WaitlistSignup } from '../../src/waitlist-signups/entities/waitlist-signup.entity';

/** The default order's line items: two £25.00 tickets with £1.00 booking fees, 20% VAT. */
export const TWO_TICKETS_WITH_VAT: readonly DeepPartial<LineItem>[] = [
  {
    type: 'ticket',
    description: 'General Admission',
    quantity: 2,
    value: 5000,
    bookingFee: 200,
    total: 5200,
  },
  {
    type: 'tax',
    description: 'VAT 20%',
    quantity: 1,
    value: 1040,
    bookingFee: 0,
    total: 1040,
  },
];

/** An order's fields, and optionally the ticket type its default tickets are of. */
export type OrderOverrides = DeepPartial<Order> & { ticketType?: TicketType };

/**
 * Small deterministic factories: every field has a fixed default, tests override what they
 * assert on. Orders are written with their line items and tickets through the cascade.
 */
export class Factory {
  private sequence = 0;

  constructor(private readonly dataSource: DataSource) {}

  async boxOffice(name = `Box Office ${++this.sequence}`): Promise<BoxOffice> {
    return this.dataSource
      .getRepository(BoxOffice)
      .save({ name, createdAt: 1_700_000_000 });
  }

  /** A box office with one API key and one event: the setup most specs start from. */
  async tenant(secret: string): Promise<{ office: BoxOffice; event: Event }> {
    const office = await this.boxOffice();
    await this.apiKey(office.id, secret);
    return { office, event: await this.event(office.id) };
  }

  /** A key of the box office: scope `read` unless given (`check_in` also records scans). */
  async apiKey(
    boxOfficeId: number,
    secret: string,
    revoked = false,
    scope: ApiKeyScope = 'read',
  ): Promise<ApiKey> {
    return this.dataSource.getRepository(ApiKey).save({
      boxOfficeId,
      name: 'test key',
      keyHash: hashApiKey(secret),
      keyPrefix: displayPrefix(secret),
      scope,
      createdAt: 1_700_000_000,
      revokedAt: revoked ? 1_700_000_100 : null,
    });
  }

  /**
   * An event with the database's defaults for what the Event resource leaves optional (no
   * description, access code or venue; published; no ticket types), but real https URLs and,
   * unless `eventSeriesId` is given, a series of its own with its name, currency and zone. Its
   * counters (`completedOrdersCount`, `validTicketsCount`, `completedRevenue`) are the
   * triggers' business: never pass them.
   */
  async event(boxOfficeId: number, overrides: DeepPartial<Event> = {}) {
    const n = ++this.sequence;
    const event = {
      boxOfficeId,
      name: 'Summer Jazz Night',
      startAt: 1_781_980_200, // 2026-06-20 19:30 Europe/London
      endAt: 1_781_991_000,
      timezone: 'Europe/London',
      currency: 'gbp',
      createdAt: 1_700_000_000,
      url: `https://tickets.boxoffice.example/e/${n}`,
      imageHeaderUrl: `https://cdn.boxoffice.example/e/${n}/header.jpg`,
      imageThumbnailUrl: `https://cdn.boxoffice.example/e/${n}/thumbnail.jpg`,
      ...overrides,
    };
    const eventSeriesId =
      overrides.eventSeriesId ??
      (
        await this.series(boxOfficeId, {
          name: event.name,
          currency: event.currency,
          timezone: event.timezone,
          createdAt: event.createdAt,
        })
      ).id;
    return this.dataSource
      .getRepository(Event)
      .save({ ...event, eventSeriesId });
  }

  /** A published series with no template, its page and artwork at https URLs. */
  async series(
    boxOfficeId: number,
    overrides: DeepPartial<EventSeries> = {},
  ): Promise<EventSeries> {
    const n = ++this.sequence;
    return this.dataSource.getRepository(EventSeries).save({
      boxOfficeId,
      name: 'Summer Jazz Night',
      createdAt: 1_700_000_000,
      currency: 'gbp',
      timezone: 'Europe/London',
      url: `https://tickets.boxoffice.example/s/${n}`,
      imageHeaderUrl: `https://cdn.boxoffice.example/s/${n}/header.jpg`,
      imageThumbnailUrl: `https://cdn.boxoffice.example/s/${n}/thumbnail.jpg`,
      ...overrides,
    });
  }

  /** A group of ticket types shown together; `sortOrder` 0 unless overridden. */
  async ticketGroup(
    eventId: number,
    overrides: DeepPartial<TicketGroup> = {},
  ): Promise<TicketGroup> {
    return this.dataSource.getRepository(TicketGroup).save({
      eventId,
      name: 'Seating',
      maxPerOrder: null,
      sortOrder: 0,
      ...overrides,
    });
  }

  /** A paid £25.00 type on sale (£1.50 booking fee, 1–10 per order, 100 left), in no group. */
  async ticketType(
    eventId: number,
    overrides: DeepPartial<TicketType> = {},
  ): Promise<TicketType> {
    return this.dataSource.getRepository(TicketType).save({
      eventId,
      groupId: null,
      name: 'General Admission',
      description: null,
      price: 2500,
      bookingFee: 150,
      minPerOrder: 1,
      maxPerOrder: 10,
      quantityTotal: 100,
      status: 'on_sale',
      type: 'paid',
      sortOrder: 0,
      accessCode: null,
      ...overrides,
    });
  }

  /** A card payment method the event accepts, held externally (no `pm_` id). */
  async paymentMethod(
    eventId: number,
    overrides: DeepPartial<EventPaymentMethod> = {},
  ): Promise<EventPaymentMethod> {
    return this.dataSource.getRepository(EventPaymentMethod).save({
      eventId,
      type: 'stripe',
      paymentMethodId: null,
      externalId: 'acct_ext_1',
      name: 'Card',
      instructions: null,
      ...overrides,
    });
  }

  /**
   * A £8.00 programme, available, collected at the venue, sold with the `seriesIds` given (with
   * every series when none). Its units sold are the triggers' business: never pass them.
   */
  async product(
    boxOfficeId: number,
    overrides: DeepPartial<Product> = {},
    seriesIds: number[] = [],
  ): Promise<Product> {
    const product = await this.dataSource.getRepository(Product).save({
      boxOfficeId,
      name: 'Souvenir programme',
      description: null,
      price: 800,
      currency: 'gbp',
      status: 'available',
      fulfilmentType: 'collect_at_venue',
      createdAt: 1_700_000_000,
      updatedAt: 1_700_000_000,
      ...overrides,
    });
    for (const eventSeriesId of seriesIds) {
      await this.dataSource
        .getRepository(ProductEventSeries)
        .save({ productId: product.id, eventSeriesId });
    }
    return product;
  }

  /**
   * A £25.00 gift voucher, partly redeemable, never expiring, usable on the `seriesIds` given
   * (on any event when none), with `codes` codes named `<prefix>-<n>`. Its counts are the
   * triggers' business.
   */
  async voucher(
    boxOfficeId: number,
    overrides: DeepPartial<Voucher> = {},
    {
      codes = 0,
      seriesIds = [],
    }: { codes?: number; seriesIds?: number[] } = {},
  ): Promise<{ voucher: Voucher; codes: VoucherCode[] }> {
    const n = ++this.sequence;
    const voucher = await this.dataSource.getRepository(Voucher).save({
      boxOfficeId,
      name: 'Gift voucher',
      type: 'gift_card',
      value: 2500,
      currency: 'gbp',
      expiresAt: null,
      partialRedemption: true,
      createdAt: 1_700_000_000,
      ...overrides,
    });
    for (const eventSeriesId of seriesIds) {
      await this.dataSource
        .getRepository(VoucherEventSeries)
        .save({ voucherId: voucher.id, eventSeriesId });
    }
    const saved: VoucherCode[] = [];
    for (let i = 1; i <= codes; i++) {
      saved.push(
        await this.dataSource.getRepository(VoucherCode).save({
          boxOfficeId,
          voucherId: voucher.id,
          code: `GC${n}-${i}`,
          createdAt: voucher.createdAt + i,
        }),
      );
    }
    return { voucher, codes: saved };
  }

  /** A 10% discount on every ticket type, unless overridden; limited to `ticketTypeIds` given. */
  async discount(
    boxOfficeId: number,
    overrides: DeepPartial<Discount> = {},
    {
      ticketTypeIds = [],
      productIds = [],
    }: { ticketTypeIds?: number[]; productIds?: number[] } = {},
  ): Promise<Discount> {
    const n = ++this.sequence;
    const discount = await this.dataSource.getRepository(Discount).save({
      boxOfficeId,
      name: 'Supporters 10%',
      code: `SUPPORT${n}`,
      type: 'percentage',
      faceValueAmount: 10,
      bookingFeeAmount: 0,
      createdAt: 1_700_000_000,
      ...overrides,
    });
    for (const ticketTypeId of ticketTypeIds) {
      await this.dataSource
        .getRepository(DiscountTicketType)
        .save({ discountId: discount.id, ticketTypeId });
    }
    for (const productId of productIds) {
      await this.dataSource
        .getRepository(DiscountProduct)
        .save({ discountId: discount.id, productId });
    }
    return discount;
  }

  /** Someone on a series' waitlist, for any date unless `eventId` is given. */
  async signup(
    boxOfficeId: number,
    eventSeriesId: number,
    overrides: DeepPartial<WaitlistSignup> = {},
  ): Promise<WaitlistSignup> {
    const n = ++this.sequence;
    return this.dataSource.getRepository(WaitlistSignup).save({
      boxOfficeId,
      eventSeriesId,
      eventId: null,
      email: `waiting${n}@example.com`,
      createdAt: 1_700_000_000 + n,
      ...overrides,
    });
  }

  /**
   * One issued ticket's fields, for an order's `issuedTickets`: valid, issued at 1_750_000_000
   * unless overridden, with a barcode of its own. A void ticket needs `voidedAt` too (and an
   * `updatedAt` no earlier).
   */
  ticket(
    eventId: number,
    overrides: DeepPartial<IssuedTicket> = {},
  ): DeepPartial<IssuedTicket> {
    const n = ++this.sequence;
    const createdAt =
      (overrides.createdAt as number | undefined) ?? 1_750_000_000;
    return {
      eventId,
      ticketTypeId: null,
      status: 'valid',
      barcode: `TK${n}`,
      barcodeUrl: `https://cdn.boxoffice.example/barcodes/TK${n}.png`,
      qrCodeUrl: `https://cdn.boxoffice.example/qr/TK${n}.png`,
      description: 'General Admission',
      firstName: null,
      lastName: null,
      fullName: null,
      reservation: null,
      customQuestions: [],
      createdAt,
      updatedAt: createdAt,
      voidedAt: null,
      ...overrides,
    };
  }

  /**
   * A completed GBP order of two £25.00 tickets + 20% VAT, unless overridden. With `ticketType`,
   * its default tickets are of that type (and described by its name). Orders are written as
   * history (import mode): they keep the times given, and make no change entries.
   */
  async order(
    boxOfficeId: number,
    eventId: number,
    overrides: OrderOverrides = {},
  ): Promise<Order> {
    return inImportMode(this.dataSource.manager, (manager) =>
      manager
        .getRepository(Order)
        .save(this.orderFields(boxOfficeId, eventId, overrides)),
    );
  }

  /**
   * Many orders (one per overrides object, written in that order) in one transaction: the cheap
   * way to seed a long list. Returns the saved orders, ids included.
   */
  async orders(
    boxOfficeId: number,
    eventId: number,
    overridesList: OrderOverrides[],
  ): Promise<Order[]> {
    return inImportMode(this.dataSource.manager, async (manager) => {
      const saved: Order[] = [];
      for (const overrides of overridesList) {
        saved.push(
          await manager
            .getRepository(Order)
            .save(this.orderFields(boxOfficeId, eventId, overrides)),
        );
      }
      return saved;
    });
  }

  private orderFields(
    boxOfficeId: number,
    eventId: number,
    { ticketType, ...overrides }: OrderOverrides,
  ): DeepPartial<Order> {
    const createdAt =
      (overrides.createdAt as number | undefined) ?? 1_750_000_000;
    const email =
      (overrides.buyerEmail as string | undefined) ?? 'Jane.Doe@Example.com';
    const lineItems = TWO_TICKETS_WITH_VAT.map((item) => ({ ...item }));
    const tickets: DeepPartial<IssuedTicket>[] = [1, 2].map((n) => ({
      eventId,
      ticketTypeId: ticketType?.id ?? null,
      status: 'valid',
      barcode: `BC${boxOfficeId}${eventId}${createdAt}${n}${++this.sequence}`,
      barcodeUrl: `https://cdn.boxoffice.example/barcodes/${n}.png`,
      qrCodeUrl: `https://cdn.boxoffice.example/qr/${n}.png`,
      description: ticketType?.name ?? 'General Admission',
      firstName: 'Jane',
      lastName: 'Doe',
      fullName: 'Jane Doe',
      reservation: null,
      customQuestions: [{ question: 'Dietary requirements', answer: null }],
      createdAt,
      updatedAt: createdAt,
      voidedAt: null,
    }));
    return {
      boxOfficeId,
      eventId,
      status: 'completed',
      statusMessage: null,
      currency: 'gbp',
      subtotal: 5200,
      tax: 1040,
      total: 6240,
      refundAmount: 0,
      txnId: `ch_${++this.sequence}`,
      createdAt,
      updatedAt: createdAt + 60,
      buyerName: 'Jane Doe',
      buyerEmail: email,
      buyerEmailLookup: email.toLowerCase(),
      buyerPhone: null,
      address1: '12 High Street',
      address2: null,
      address3: null,
      postalCode: 'SW1A 1AA',
      buyerCustomQuestions: [
        { question: 'How did you hear about us?', answer: 'A friend' },
      ],
      paymentMethodType: 'stripe',
      paymentMethodId: null,
      paymentMethodExternalId: 'ch_ext_1',
      paymentMethodName: 'Card',
      paymentMethodInstructions: null,
      lineItems,
      ...overrides,
      // Tickets carry their order's box office, whoever wrote them.
      issuedTickets: (overrides.issuedTickets ?? tickets).map((ticket) => ({
        boxOfficeId,
        ...ticket,
      })),
    };
  }
}

import {
  type BoxOfficePlan,
  type DiscountPlan,
  TYPICAL_PRICE,
} from './demo-catalogue';
import type { DemoCalendar } from './demo-calendar';
import {
  money,
  type SeedEvent,
  type SeedTicketType,
  type TicketTypeStock,
} from './demo-events';
import type { SeededRandom } from './seeded-random';
import type { Row, RowBatch } from './seed-writers';

/**
 * What the demo box offices sell and give beside tickets (docs/DEVELOPMENT.md, "The demo data"): their
 * products, vouchers with their codes, discounts, and the waitlists of their series, from the
 * catalogue's plans (demo-catalogue.ts). The order generator asks it what an order may buy and
 * spend, and it keeps what each code has left, so that the rows always agree with the numbers
 * the database's triggers count from them.
 */

const DAY = 86_400;
/** What code strings are made of: no I, O, 0 or 1, which read alike. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface SeedProduct {
  id: number;
  boxOfficeId: number;
  name: string;
  price: number;
  currency: string;
  /** The series it is sold with; null: every series. */
  seriesIds: ReadonlySet<number> | null;
  /** Sold in orders (an `unavailable` one never was). */
  sellable: boolean;
}

export interface SeedVoucher {
  id: number;
  boxOfficeId: number;
  name: string;
  value: number;
  currency: string;
  partial: boolean;
  expiresAt: number | null;
  seriesIds: ReadonlySet<number> | null;
  codes: SeedCode[];
  /** Orders that spent one of its codes. */
  uses: number;
}

export interface SeedCode {
  id: number;
  code: string;
  voucher: SeedVoucher;
  /** What completed orders have left of its value. */
  left: number;
}

export interface SeedDiscount {
  id: number;
  boxOfficeId: number;
  code: string;
  name: string;
  plan: DiscountPlan;
  /** The ticket types it applies to; null: every type. */
  ticketTypeIds: ReadonlySet<number> | null;
  productIds: ReadonlySet<number>;
}

/** A product line of an order: which product, how many. */
export interface ProductLine {
  product: SeedProduct;
  quantity: number;
}

/** A ticket line of an order, as a discount reads it. */
export interface TicketLineOf {
  type: SeedTicketType;
  quantity: number;
  unitPrice: number;
}

interface OfficeOffers {
  products: SeedProduct[];
  vouchers: SeedVoucher[];
  discounts: SeedDiscount[];
}

export class DemoOffers {
  private readonly offices = new Map<number, OfficeOffers>();
  private readonly rows: {
    products: Row[];
    productSeries: Row[];
    vouchers: Row[];
    voucherSeries: Row[];
    codes: Row[];
    discounts: Row[];
    discountTypes: Row[];
    discountProducts: Row[];
  } = {
    products: [],
    productSeries: [],
    vouchers: [],
    voucherSeries: [],
    codes: [],
    discounts: [],
    discountTypes: [],
    discountProducts: [],
  };

  /**
   * The offers of each box office, numbered box office after box office (box office 1's first:
   * `pr_1`, `vo_1`, `vc_1`, `di_1` are its), created in the month before the first order.
   */
  constructor(
    boxOffices: readonly {
      plan: BoxOfficePlan;
      events: readonly SeedEvent[];
    }[],
    private readonly calendar: DemoCalendar,
    private readonly rng: SeededRandom,
  ) {
    const ids = { product: 0, voucher: 0, code: 0, discount: 0 };
    for (const { plan, events } of boxOffices) {
      const seriesOf = (names: readonly string[] | undefined) =>
        names === undefined
          ? null
          : new Set(names.map((name) => seriesIdOf(events, name)));
      const office: OfficeOffers = {
        products: [],
        vouchers: [],
        discounts: [],
      };
      this.offices.set(plan.id, office);
      const createdAt = () => calendar.setupAt + rng.int(1, 28) * DAY;

      for (const product of plan.products) {
        const multiplier =
          events.find((event) => event.plan.currency === product.currency)
            ?.multiplier ?? 100;
        const seed: SeedProduct = {
          id: ++ids.product,
          boxOfficeId: plan.id,
          name: product.name,
          price: money(
            TYPICAL_PRICE[product.currency] * product.price,
            multiplier,
          ),
          currency: product.currency,
          seriesIds: seriesOf(product.series),
          sellable: product.status !== 'unavailable',
        };
        office.products.push(seed);
        const created = createdAt();
        this.rows.products.push({
          id: seed.id,
          box_office_id: plan.id,
          name: product.name,
          description: product.description ?? null,
          price: seed.price,
          currency: product.currency,
          status: product.status,
          fulfilment_type: product.fulfilment,
          created_at: created,
          updated_at: created + rng.int(0, 20) * DAY,
        });
        for (const seriesId of [...(seed.seriesIds ?? [])].sort(
          (a, b) => a - b,
        )) {
          this.rows.productSeries.push({
            product_id: seed.id,
            event_series_id: seriesId,
          });
        }
      }

      const taken = new Set<string>();
      for (const voucher of plan.vouchers) {
        const multiplier =
          events.find((event) => event.plan.currency === voucher.currency)
            ?.multiplier ?? 100;
        const created = createdAt();
        const seed: SeedVoucher = {
          id: ++ids.voucher,
          boxOfficeId: plan.id,
          name: voucher.name,
          value: money(
            TYPICAL_PRICE[voucher.currency] * voucher.value,
            multiplier,
          ),
          currency: voucher.currency,
          partial: voucher.partialRedemption,
          expiresAt:
            voucher.expiresInDays === undefined
              ? null
              : calendar.now + 1 + voucher.expiresInDays * DAY,
          seriesIds: seriesOf(voucher.series),
          codes: [],
          uses: 0,
        };
        office.vouchers.push(seed);
        this.rows.vouchers.push({
          id: seed.id,
          box_office_id: plan.id,
          name: voucher.name,
          type: voucher.type,
          value: seed.value,
          currency: voucher.currency,
          expires_at: seed.expiresAt,
          partial_redemption: voucher.partialRedemption ? 1 : 0,
          created_at: created,
        });
        for (const seriesId of [...(seed.seriesIds ?? [])].sort(
          (a, b) => a - b,
        )) {
          this.rows.voucherSeries.push({
            voucher_id: seed.id,
            event_series_id: seriesId,
          });
        }
        for (let i = 0; i < voucher.codes; i++) {
          let text: string;
          do {
            text = `${voucher.codePrefix}${rng.string(CODE_ALPHABET, 4)}-${rng.string(CODE_ALPHABET, 4)}`;
          } while (taken.has(text));
          taken.add(text);
          const code: SeedCode = {
            id: ++ids.code,
            code: text,
            voucher: seed,
            left: seed.value,
          };
          seed.codes.push(code);
          // Issued in the order of their ids, a second apart.
          this.rows.codes.push({
            id: code.id,
            box_office_id: plan.id,
            voucher_id: seed.id,
            code: text,
            created_at: created + i,
          });
        }
      }

      for (const discount of plan.discounts) {
        const seed: SeedDiscount = {
          id: ++ids.discount,
          boxOfficeId: plan.id,
          code: discount.code,
          name: discount.name,
          plan: discount,
          ticketTypeIds: discount.ticketTypes
            ? new Set(typesOf(events, discount.ticketTypes))
            : null,
          productIds: new Set(
            (discount.products ?? []).map(
              (name) => office.products.find((p) => p.name === name)!.id,
            ),
          ),
        };
        office.discounts.push(seed);
        this.rows.discounts.push({
          id: seed.id,
          box_office_id: plan.id,
          name: discount.name,
          code: discount.code,
          type: discount.type,
          face_value_amount: discount.faceValue,
          booking_fee_amount: discount.bookingFee,
          created_at: createdAt(),
        });
        for (const typeId of [...(seed.ticketTypeIds ?? [])].sort(
          (a, b) => a - b,
        )) {
          this.rows.discountTypes.push({
            discount_id: seed.id,
            ticket_type_id: typeId,
          });
        }
        for (const productId of [...seed.productIds].sort((a, b) => a - b)) {
          this.rows.discountProducts.push({
            discount_id: seed.id,
            product_id: productId,
          });
        }
      }
    }
  }

  /** The offers' rows, parents first, their link rows numbered in turn. */
  setupRows(): RowBatch {
    const numbered = (rows: Row[]) =>
      rows.map((row, i) => ({ id: i + 1, ...row }));
    return [
      ['products', this.rows.products],
      ['product_event_series', numbered(this.rows.productSeries)],
      ['vouchers', this.rows.vouchers],
      ['voucher_event_series', numbered(this.rows.voucherSeries)],
      ['voucher_codes', this.rows.codes],
      ['discounts', this.rows.discounts],
      ['discount_ticket_types', numbered(this.rows.discountTypes)],
      ['discount_products', numbered(this.rows.discountProducts)],
    ];
  }

  /** The products an order for `event` may add: in its currency, sold with its series. */
  productsFor(event: SeedEvent): SeedProduct[] {
    return this.office(event).products.filter(
      (product) =>
        product.sellable &&
        product.currency === event.plan.currency &&
        (product.seriesIds === null || product.seriesIds.has(event.seriesId)),
    );
  }

  /**
   * The codes an order for `event` at `at` may spend: of a voucher in its currency, usable on
   * its series, not expired, with value left; a code spent whole (no partial redemption) only
   * by an order worth its value.
   */
  codesFor(event: SeedEvent, at: number, worth: number): SeedCode[] {
    return this.office(event)
      .vouchers.filter(
        (voucher) =>
          voucher.currency === event.plan.currency &&
          (voucher.seriesIds === null ||
            voucher.seriesIds.has(event.seriesId)) &&
          (voucher.expiresAt === null || at < voucher.expiresAt),
      )
      .flatMap((voucher) =>
        voucher.codes.filter(
          (code) => code.left > 0 && (voucher.partial || code.left <= worth),
        ),
      );
  }

  /** What `code` gives an order worth `worth` that wants `wanted`, and, if it counts, spends it. */
  spend(
    code: SeedCode,
    worth: number,
    wanted: number,
    counts: boolean,
  ): number {
    const amount = code.voucher.partial
      ? Math.min(code.left, worth, wanted)
      : code.left;
    code.voucher.uses++;
    if (counts) code.left -= amount;
    return amount;
  }

  /**
   * The discounts of the box office that take something off this order, with what each takes
   * (never more than `worth`, the order so far).
   */
  discountsFor(
    event: SeedEvent,
    tickets: readonly TicketLineOf[],
    products: readonly ProductLine[],
    worth: number,
  ): { discount: SeedDiscount; amount: number }[] {
    return this.office(event)
      .discounts.map((discount) => ({
        discount,
        amount: Math.min(worth, discountAmount(discount, tickets, products)),
      }))
      .filter(({ amount }) => amount > 0);
  }

  /**
   * Waitlist signups, once the ticket types' stock is known: on every series with a `sold_out`
   * ticket type (for that date, or any), and on every series none of whose dates is still on
   * sale (for any date). Numbered box office after box office, series by id, oldest first.
   */
  waitlistRows(
    boxOffices: readonly { events: readonly SeedEvent[] }[],
    stock: readonly TicketTypeStock[],
    emails: () => string,
  ): Row[] {
    const soldOut = new Set(
      stock.filter((type) => type.status === 'sold_out').map((type) => type.id),
    );
    const rows: Row[] = [];
    for (const { events } of boxOffices) {
      const bySeries = new Map<number, SeedEvent[]>();
      for (const event of events) {
        bySeries.set(event.seriesId, [
          ...(bySeries.get(event.seriesId) ?? []),
          event,
        ]);
      }
      for (const [seriesId, dates] of [...bySeries].sort(([a], [b]) => a - b)) {
        const soldOutDates = dates.filter((date) =>
          date.ticketTypes.some((type) => soldOut.has(type.id)),
        );
        const noneOnSale = dates.every(
          (date) =>
            date.status !== 'published' || date.onSaleFrom > this.calendar.now,
        );
        if (soldOutDates.length === 0 && !noneOnSale) continue;
        const from = Math.min(...dates.map((date) => date.createdAt));
        const signups =
          soldOutDates.length > 0 ? this.rng.int(5, 12) : this.rng.int(2, 5);
        const times = Array.from({ length: signups }, () =>
          this.rng.int(from, this.calendar.now),
        ).sort((a, b) => a - b);
        for (const createdAt of times) {
          const date =
            soldOutDates.length > 0 && this.rng.chance(0.7)
              ? this.rng.pick(soldOutDates)
              : null;
          rows.push({
            id: rows.length + 1,
            box_office_id: dates[0].boxOfficeId,
            event_series_id: seriesId,
            event_id: date?.id ?? null,
            email: emails(),
            created_at: createdAt,
          });
        }
      }
    }
    return rows;
  }

  private office(event: SeedEvent): OfficeOffers {
    return this.offices.get(event.boxOfficeId)!;
  }
}

/** The series of the box office's catalogue event named `name`. */
function seriesIdOf(events: readonly SeedEvent[], name: string): number {
  const event = events.find((e) => e.plan.name === name);
  if (!event) throw new Error(`no catalogue event ${name}`);
  return event.seriesId;
}

/** The ticket types a discount plan names: of every date of the events named, by type name. */
function typesOf(
  events: readonly SeedEvent[],
  { events: names, names: typeNames }: NonNullable<DiscountPlan['ticketTypes']>,
): number[] {
  const series =
    names === undefined
      ? null
      : new Set(names.map((name) => seriesIdOf(events, name)));
  return events
    .filter((event) => series === null || series.has(event.seriesId))
    .flatMap((event) => event.ticketTypes)
    .filter((type) => typeNames === undefined || typeNames.includes(type.name))
    .map((type) => type.id);
}

/**
 * What a discount takes off an order's ticket lines of the types it applies to and its product
 * lines of the products it names: `fixed`, up to its amounts off each ticket's price and booking
 * fee and each product's price; `percentage`, that share of them, rounded to the minor unit.
 */
function discountAmount(
  discount: SeedDiscount,
  tickets: readonly TicketLineOf[],
  products: readonly ProductLine[],
): number {
  const { type, faceValue, bookingFee } = discount.plan;
  const off = (amount: number, rule: number) =>
    type === 'fixed'
      ? Math.min(rule, amount)
      : Math.round((amount * rule) / 100);
  let total = 0;
  for (const line of tickets) {
    if (
      discount.ticketTypeIds !== null &&
      !discount.ticketTypeIds.has(line.type.id)
    ) {
      continue;
    }
    total +=
      (off(line.unitPrice, faceValue) + off(line.type.bookingFee, bookingFee)) *
      line.quantity;
  }
  for (const { product, quantity } of products) {
    if (discount.productIds.has(product.id)) {
      total += off(product.price, faceValue) * quantity;
    }
  }
  return total;
}

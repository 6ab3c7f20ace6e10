import type { DataSource } from 'typeorm';
import {
  type Connection,
  type Sql,
  connect,
  sql,
} from '../dev/activity/connection';
import { MIGRATIONS } from '../src/database/data-source-options';
import { inImportMode } from '../src/sync/import-mode';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// docs/DESIGN.md, "Derived numbers are kept, not counted": products' units sold, voucher codes' value
// spent, vouchers' code counts and discounts' uses are kept by triggers (migration
// ConnectorCounters) equal to what the line items and orders say, whoever writes; and the
// catalogue's own triggers (migration ConnectorCatalogue) keep products' updated_at and the box
// office's catalogue version. Every write here is plain SQL through the driver, as a sales
// system's would be; after each, every counter is compared with a count of the rows. On SQLite by
// default, on PostgreSQL under `npm run test:e2e:postgres`.

type Row = Record<string, unknown>;

/** Each counter as kept, beside the same number counted from the rows. */
const KEPT_AND_COUNTED: Sql[] = [
  sql`SELECT 'product ' || p.id AS what, p.quantity_sold AS kept,
        (SELECT coalesce(sum(li.quantity), 0) FROM line_items li JOIN orders o ON o.id = li.order_id
          WHERE li.product_id = p.id AND li.type = 'product' AND o.status = 'completed') AS counted
      FROM products p`,
  sql`SELECT 'code ' || c.id AS what, c.spent AS kept,
        (SELECT coalesce(sum(-li.total), 0) FROM line_items li JOIN orders o ON o.id = li.order_id
          WHERE li.voucher_code_id = c.id AND li.type = 'gift_card' AND o.status = 'completed') AS counted
      FROM voucher_codes c`,
  sql`SELECT 'discount ' || d.id AS what, d.times_used AS kept,
        (SELECT count(DISTINCT o.id) FROM line_items li JOIN orders o ON o.id = li.order_id
          WHERE li.discount_id = d.id AND li.voucher_code_id IS NULL AND li.type = 'gift_card'
            AND o.status = 'completed') AS counted
      FROM discounts d`,
  sql`SELECT 'voucher codes ' || v.id AS what, v.total_codes AS kept,
        (SELECT count(*) FROM voucher_codes c WHERE c.voucher_id = v.id) AS counted
      FROM vouchers v`,
  sql`SELECT 'voucher codes with value ' || v.id AS what, v.codes_with_value AS kept,
        (SELECT count(*) FROM voucher_codes c WHERE c.voucher_id = v.id AND c.spent < v.value) AS counted
      FROM vouchers v`,
];

describe('catalogue triggers: derived numbers equal the rows, whoever writes', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let db: Connection;
  let office: number;
  let eventId: number;
  let ticketTypeId: number;
  const ids: Record<string, number> = {};

  const one = async (statement: Sql): Promise<Row> =>
    (await db.query<Row>(statement))[0];
  const inserted = async (statement: Sql): Promise<number> =>
    Number((await one(statement)).id);

  /** Every counter as kept and as counted, with the difference listed where they disagree. */
  async function disagreements(): Promise<string[]> {
    const found: string[] = [];
    for (const statement of KEPT_AND_COUNTED) {
      for (const row of await db.query<Row>(statement)) {
        if (Number(row.kept) !== Number(row.counted)) {
          found.push(
            `${String(row.what)}: kept ${Number(row.kept)}, rows say ${Number(row.counted)}`,
          );
        }
      }
    }
    return found;
  }

  /** The kept counters that the steps pin, by name. */
  async function kept() {
    const value = async (statement: Sql) =>
      Number(Object.values(await one(statement))[0]);
    return {
      p1: await value(
        sql`SELECT quantity_sold FROM products WHERE id = ${ids.p1}`,
      ),
      p2: await value(
        sql`SELECT quantity_sold FROM products WHERE id = ${ids.p2}`,
      ),
      c1: await value(
        sql`SELECT spent FROM voucher_codes WHERE id = ${ids.c1}`,
      ),
      c2: await value(
        sql`SELECT spent FROM voucher_codes WHERE id = ${ids.c2}`,
      ),
      c3: await value(
        sql`SELECT spent FROM voucher_codes WHERE id = ${ids.c3}`,
      ),
      withValue: await value(
        sql`SELECT codes_with_value FROM vouchers WHERE id = ${ids.gift}`,
      ),
      x: await value(sql`SELECT times_used FROM discounts WHERE id = ${ids.x}`),
    };
  }

  async function order(status: string): Promise<number> {
    return inserted(
      sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
            refund_amount, created_at, updated_at, buyer_name, buyer_email, buyer_email_lookup,
            address_1, buyer_custom_questions, payment_method_type)
          VALUES (${office}, ${eventId}, ${status}, 'gbp', 10000, 0, 10000, 0, 1750000000,
            1750000000, 'Jane Doe', 'jane@example.com', 'jane@example.com', '1 Street', '[]',
            'stripe') RETURNING id`,
    );
  }

  async function line(
    orderId: number,
    type: string,
    total: number,
    subject: {
      product?: number;
      code?: number;
      discount?: number;
      quantity?: number;
    },
  ): Promise<number> {
    return inserted(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total,
            product_id, voucher_code_id, discount_id)
          VALUES (${orderId}, ${type}, 'Line', ${subject.quantity ?? 1}, ${total}, 0, ${total},
            ${subject.product ?? null}, ${subject.code ?? null}, ${subject.discount ?? null})
          RETURNING id`,
    );
  }

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    db = await connect(database.url);
    const f = new Factory(ds);
    office = (await f.boxOffice('Catalogue')).id;
    const event = await f.event(office);
    eventId = event.id;
    ticketTypeId = (await f.ticketType(event.id)).id;

    const product = (name: string) =>
      inserted(
        sql`INSERT INTO products (box_office_id, name, price, currency, status, fulfilment_type,
              created_at, updated_at)
            VALUES (${office}, ${name}, 800, 'gbp', 'available', 'collect_at_venue', 1700000000,
              1700000000) RETURNING id`,
      );
    ids.p1 = await product('Programme');
    ids.p2 = await product('Tote bag');
    const voucher = (value: number) =>
      inserted(
        sql`INSERT INTO vouchers (box_office_id, name, type, value, currency, partial_redemption,
              created_at)
            VALUES (${office}, 'Gift voucher', 'gift_card', ${value}, 'gbp', ${true}, 1700000000)
            RETURNING id`,
      );
    ids.gift = await voucher(2500);
    ids.small = await voucher(1000);
    const code = (voucherId: number, text: string) =>
      inserted(
        sql`INSERT INTO voucher_codes (box_office_id, voucher_id, code, created_at)
            VALUES (${office}, ${voucherId}, ${text}, 1700000000) RETURNING id`,
      );
    ids.c1 = await code(ids.gift, 'GC-1');
    ids.c2 = await code(ids.gift, 'GC-2');
    ids.c3 = await code(ids.gift, 'GC-3');
    ids.d1 = await code(ids.small, 'SM-1');
    const discount = (text: string) =>
      inserted(
        sql`INSERT INTO discounts (box_office_id, name, code, type, face_value_amount,
              booking_fee_amount, created_at)
            VALUES (${office}, ${text}, ${text}, 'percentage', 10, 0, 1700000000) RETURNING id`,
      );
    ids.x = await discount('SUPPORT10');
    ids.y = await discount('STUDENT20');
  });

  afterAll(async () => {
    await db?.close();
    await ds?.destroy();
    await database?.drop();
  });

  afterEach(async () => {
    expect(await disagreements()).toEqual([]);
  });

  it('counts new codes, each with value left', async () => {
    expect(await kept()).toMatchObject({ withValue: 3, p1: 0, x: 0 });
    expect(
      await one(
        sql`SELECT total_codes, codes_with_value FROM vouchers WHERE id = ${ids.small}`,
      ),
    ).toEqual({ total_codes: 1, codes_with_value: 1 });
  });

  it('counts the lines of a completed order as they are added, and none of a pending one', async () => {
    ids.o1 = await order('completed');
    ids.o1Product = await line(ids.o1, 'product', 1600, {
      product: ids.p1,
      quantity: 2,
    });
    ids.o1Code = await line(ids.o1, 'gift_card', -1000, { code: ids.c1 });
    await line(ids.o1, 'gift_card', -500, { discount: ids.x });
    ids.o2 = await order('pending');
    await line(ids.o2, 'product', 4000, { product: ids.p1, quantity: 5 });
    await line(ids.o2, 'gift_card', -2500, { code: ids.c2 });
    await line(ids.o2, 'gift_card', -100, { discount: ids.x });
    expect(await kept()).toEqual({
      p1: 2,
      p2: 0,
      c1: 1000,
      c2: 0,
      c3: 0,
      withValue: 3,
      x: 1,
    });
  });

  it('moves by all its lines when an order enters or leaves completed', async () => {
    await db.query(
      sql`UPDATE orders SET status = 'completed' WHERE id = ${ids.o2}`,
    );
    // GC-2 is spent whole: no value left.
    expect(await kept()).toMatchObject({ p1: 7, c2: 2500, withValue: 2, x: 2 });
    await db.query(
      sql`UPDATE orders SET status = 'cancelled' WHERE id = ${ids.o2}`,
    );
    expect(await kept()).toMatchObject({ p1: 2, c2: 0, withValue: 3, x: 1 });
    // Another column of the order moves nothing.
    await db.query(
      sql`UPDATE orders SET status_message = 'Refunded' WHERE id = ${ids.o2}`,
    );
    expect(await kept()).toMatchObject({ p1: 2, x: 1 });
  });

  it('moves a line’s share from what it named to what it names, and with its amounts', async () => {
    await db.query(
      sql`UPDATE line_items SET quantity = 3, product_id = ${ids.p2} WHERE id = ${ids.o1Product}`,
    );
    await db.query(
      sql`UPDATE line_items SET voucher_code_id = ${ids.c3}, total = -1200 WHERE id = ${ids.o1Code}`,
    );
    expect(await kept()).toMatchObject({ p1: 0, p2: 3, c1: 0, c3: 1200 });
    // A line that stops being a product line stops counting (item ids follow the type).
    await db.query(
      sql`UPDATE line_items SET type = 'donation' WHERE id = ${ids.o1Product}`,
    );
    expect(await kept()).toMatchObject({ p2: 0 });
    await db.query(
      sql`UPDATE line_items SET type = 'product' WHERE id = ${ids.o1Product}`,
    );
    expect(await kept()).toMatchObject({ p2: 3 });
  });

  it('counts a code line before a discount line, and a discount once per order', async () => {
    // A gift_card line naming a code and a discount spends the code.
    await line(ids.o1, 'gift_card', -300, { code: ids.c1, discount: ids.y });
    expect(
      Number(
        (await one(sql`SELECT times_used FROM discounts WHERE id = ${ids.y}`))
          .times_used,
      ),
    ).toBe(0);
    expect(await kept()).toMatchObject({ c1: 300 });
    await expect(
      line(ids.o1, 'gift_card', -100, { discount: ids.x }),
    ).rejects.toThrow();
  });

  it('counts lines written many at a time, and lines removed', async () => {
    const o3 = await order('completed');
    const o4 = await order('completed');
    await db.query(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total, product_id)
          VALUES (${o3}, 'product', 'Programme', 4, 3200, 0, 3200, ${ids.p1}),
                 (${o4}, 'product', 'Programme', 1, 800, 0, 800, ${ids.p1}),
                 (${o4}, 'ticket', 'General Admission', 1, 2500, 0, 2500, NULL)`,
    );
    expect(await kept()).toMatchObject({ p1: 5 });
    await db.query(
      sql`DELETE FROM line_items WHERE order_id = ${o4} AND type = 'product'`,
    );
    expect(await kept()).toMatchObject({ p1: 4 });
    await db.query(
      sql`UPDATE line_items SET ticket_type_id = ${ticketTypeId} WHERE order_id = ${o4}`,
    );
    expect(await kept()).toMatchObject({ p1: 4 });
  });

  it('takes a deleted order’s lines away once, and keeps what is left of other orders', async () => {
    await db.query(sql`DELETE FROM orders WHERE id = ${ids.o1}`);
    expect(await kept()).toMatchObject({ p2: 0, c1: 0, c3: 0, x: 0 });
    // The cancelled order's lines counted for nothing, and go for nothing.
    await db.query(sql`DELETE FROM orders WHERE id = ${ids.o2}`);
    expect(await kept()).toMatchObject({ p1: 4, x: 0 });
  });

  it('counts a voucher’s codes with value left against its value, when either changes', async () => {
    const o5 = await order('completed');
    await line(o5, 'gift_card', -1000, { code: ids.d1 });
    const small = sql`SELECT total_codes, codes_with_value FROM vouchers WHERE id = ${ids.small}`;
    expect(await one(small)).toEqual({ total_codes: 1, codes_with_value: 0 });
    await db.query(
      sql`UPDATE vouchers SET value = 2000 WHERE id = ${ids.small}`,
    );
    expect(await one(small)).toEqual({ total_codes: 1, codes_with_value: 1 });
    // Spent beyond its value: none left (the API shows 0, never below).
    await line(o5, 'gift_card', -1500, { code: ids.d1 });
    expect(await one(small)).toEqual({ total_codes: 1, codes_with_value: 0 });
    await db.query(sql`DELETE FROM voucher_codes WHERE id = ${ids.d1}`);
    expect(await one(small)).toEqual({ total_codes: 0, codes_with_value: 0 });
    await db.query(
      sql`INSERT INTO voucher_codes (box_office_id, voucher_id, code, created_at)
          VALUES (${office}, ${ids.small}, 'SM-2', 1700000000), (${office}, ${ids.small}, 'SM-3', 1700000000)`,
    );
    expect(await one(small)).toEqual({ total_codes: 2, codes_with_value: 2 });
    // A code moved to another voucher counts there.
    await db.query(
      sql`UPDATE voucher_codes SET voucher_id = ${ids.gift} WHERE code = 'SM-3'`,
    );
    expect(await one(small)).toEqual({ total_codes: 1, codes_with_value: 1 });
  });

  describe('a product’s updated_at and the catalogue version', () => {
    const version = async () =>
      Number(
        (
          (
            await db.query<Row>(
              sql`SELECT version FROM catalogue_versions WHERE box_office_id = ${office}`,
            )
          )[0] ?? { version: 0 }
        ).version,
      );
    const updatedAt = async () =>
      Number(
        (await one(sql`SELECT updated_at FROM products WHERE id = ${ids.p1}`))
          .updated_at,
      );
    const clock = async () =>
      Number(
        (
          await one(
            db.type === 'sqlite'
              ? sql`SELECT unixepoch() AS now`
              : sql`SELECT floor(extract(epoch FROM now()))::bigint AS now`,
          )
        ).now,
      );

    it('moves both when a product or its series change, neither when it sells', async () => {
      const before = await version();
      expect(before).toBeGreaterThan(0);
      const o6 = await order('completed');
      await line(o6, 'product', 800, { product: ids.p1 });
      expect([await version(), await updatedAt()]).toEqual([
        before,
        1_700_000_000,
      ]);

      const now = await clock();
      await db.query(
        sql`UPDATE products SET name = 'Souvenir programme' WHERE id = ${ids.p1}`,
      );
      expect(await updatedAt()).toBeGreaterThanOrEqual(now);
      expect(await version()).toBeGreaterThan(before);

      // Linked to a series: its JSON changed, so did its time (never backwards).
      await db.query(
        sql`UPDATE products SET updated_at = 1700000000 WHERE id = ${ids.p1}`,
      );
      const series = (await new Factory(ds).series(office)).id;
      const linked = await version();
      await db.query(
        sql`INSERT INTO product_event_series (product_id, event_series_id) VALUES (${ids.p1}, ${series})`,
      );
      expect(await updatedAt()).toBeGreaterThanOrEqual(now);
      expect(await version()).toBeGreaterThan(linked);
    });

    it('moves the version for every catalogue table and the box office’s zone', async () => {
      const writes: Sql[] = [
        sql`UPDATE vouchers SET name = 'Gift card' WHERE id = ${ids.gift}`,
        sql`UPDATE voucher_codes SET code = 'GC-1A' WHERE id = ${ids.c1}`,
        sql`UPDATE discounts SET face_value_amount = 15 WHERE id = ${ids.x}`,
        sql`INSERT INTO discount_ticket_types (discount_id, ticket_type_id) VALUES (${ids.x}, ${ticketTypeId})`,
        sql`INSERT INTO discount_products (discount_id, product_id) VALUES (${ids.x}, ${ids.p2})`,
        sql`INSERT INTO voucher_event_series (voucher_id, event_series_id)
            SELECT ${ids.gift}, id FROM event_series WHERE box_office_id = ${office}`,
        sql`INSERT INTO waitlist_signups (box_office_id, event_series_id, event_id, email, created_at)
            SELECT ${office}, event_series_id, id, 'w@example.com', 1700000000 FROM events WHERE id = ${eventId}`,
        sql`UPDATE box_offices SET timezone = 'Europe/Paris' WHERE id = ${office}`,
        sql`DELETE FROM discount_products WHERE discount_id = ${ids.x}`,
      ];
      for (const write of writes) {
        const before = await version();
        await db.query(write);
        expect([write.parts.join('?'), (await version()) > before]).toEqual([
          write.parts.join('?'),
          true,
        ]);
      }
    });

    it('keeps a product’s times as written in import mode', async () => {
      await inImportMode(ds.manager, (manager) =>
        manager.query(
          `UPDATE products SET name = 'Imported', updated_at = 1700000500 WHERE id = ${ids.p2}`,
        ),
      );
      expect(
        Number(
          (await one(sql`SELECT updated_at FROM products WHERE id = ${ids.p2}`))
            .updated_at,
        ),
      ).toBe(1_700_000_500);
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../src/database/data-source-options';
import { InitialSchema1763800000000 } from '../src/database/migrations/1763800000000-InitialSchema';
import { LineItemSubjects1766110000000 } from '../src/database/migrations/1766110000000-LineItemSubjects';
import { basicAuth, startOn } from './utils/create-test-app';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { tablesWithoutStatistics } from './utils/planner-statistics';
import { TestDatabase } from './utils/test-database';

/**
 * test/fixtures/release-1 was made by the previous release (git 4462855, whose schema is the first
 * migration alone; make-fixture.js there says how): its seeded rows, and the bytes it served for
 * every order (two walks through each demo key's list, every order retrieved).
 */
const FIXTURE = join(__dirname, 'fixtures', 'release-1');
const read = <T>(name: string): T =>
  JSON.parse(gunzipSync(readFileSync(join(FIXTURE, name))).toString()) as T;

type Row = Record<string, string | number | null>;
const release1 = read<{ migrations: string[]; tables: Record<string, Row[]> }>(
  'rows.json.gz',
);
const served = read<
  {
    key: string;
    path: string;
    status: number;
    contentType: string;
    body: string;
  }[]
>('responses.json.gz');

/**
 * Fields the API has gained since the previous release, by the object they stand in: an upgraded
 * database serves them too, and every other byte as before. A body is compared with them taken
 * out (and checked to be there), the rest byte for byte.
 */
const ADDED_SINCE_RELEASE_1 = {
  order: ['updated_at'],
  buyerDetails: ['first_name', 'last_name'],
  eventSummary: ['event_series_id', 'venue'],
  issuedTicket: ['ticket_type_id', 'event_series_id', 'checked_in'],
  lineItem: ['item_id'],
};

type Json = Record<string, unknown>;

/** The body without the added fields, re-serialised; null when an added field is missing. */
function withoutAddedFields(body: string): string | null {
  const parsed = JSON.parse(body) as Json;
  let complete = true;
  const strip = (object: Json, keys: readonly string[]) => {
    for (const key of keys) {
      if (!(key in object)) complete = false;
      delete object[key];
    }
  };
  const orders = (
    Array.isArray(parsed.data) ? parsed.data : [parsed]
  ) as Json[];
  for (const order of orders) {
    strip(order, ADDED_SINCE_RELEASE_1.order);
    strip(order.buyer_details as Json, ADDED_SINCE_RELEASE_1.buyerDetails);
    strip(order.event_summary as Json, ADDED_SINCE_RELEASE_1.eventSummary);
    for (const ticket of order.issued_tickets as Json[]) {
      strip(ticket, ADDED_SINCE_RELEASE_1.issuedTicket);
    }
    for (const item of order.line_items as Json[]) {
      strip(item, ADDED_SINCE_RELEASE_1.lineItem);
    }
  }
  return complete ? JSON.stringify(parsed) : null;
}

/** Inserts the rows as they are, parents first, and moves PostgreSQL's id sequences past them. */
async function load(dataSource: DataSource, tables: Record<string, Row[]>) {
  const postgres = dataSource.options.type === 'postgres';
  for (const [table, rows] of Object.entries(tables)) {
    for (let from = 0; from < rows.length; from += 50) {
      const chunk = rows.slice(from, from + 50);
      const columns = Object.keys(chunk[0]);
      const params: unknown[] = [];
      const tuples = chunk.map(
        (row) =>
          `(${columns
            .map((column) => {
              params.push(row[column]);
              return postgres ? `$${params.length}` : '?';
            })
            .join(', ')})`,
      );
      await dataSource.query(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
        params,
      );
    }
    if (postgres) {
      await dataSource.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM "${table}"))`,
      );
    }
  }
}

// docs/DESIGN.md, Upgrading: a database of the previous release, migrated by this one, serves every
// pre-existing order exactly as before. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.
describe('upgrading a database of the previous release', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    database = await durableTestDatabase();
    const previous = await openWithMigrations(database.url, [
      InitialSchema1763800000000,
    ]);
    const applied = await previous.query<{ name: string }[]>(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(applied.map((m) => m.name)).toEqual(release1.migrations);
    await load(previous, release1.tables);
    await previous.destroy();

    // The service as deployed: it applies the pending migrations when it starts.
    ({ app, base } = await startOn(database.url));
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('migrated it to the current schema at start', async () => {
    const applied = await app
      .get(DataSource)
      .query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
    expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('left the planner statistics of every table with rows', async () => {
    expect(await tablesWithoutStatistics(app.get(DataSource))).toEqual([]);
  });

  it('made each existing event a series of its own, of the same box office, currency and zone', async () => {
    const rows = await app
      .get(DataSource)
      .query<{ event: number; series: number | null; same: unknown }[]>(
        `SELECT e.id AS event, s.id AS series,
         CASE WHEN s.box_office_id = e.box_office_id AND s.currency = e.currency
                AND s.timezone = e.timezone AND s.name = e.name THEN 1 ELSE 0 END AS same
       FROM events e LEFT JOIN event_series s ON s.id = e.event_series_id ORDER BY e.id`,
      );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect([row.event, row.series, Number(row.same)]).toEqual([
        row.event,
        row.event,
        1,
      ]);
    }
    const key = served[0].key;
    const page = await fetch(`${base}/v1/event_series?limit=1`, {
      headers: { Authorization: basicAuth(key) },
    });
    const [series] = ((await page.json()) as { data: Json[] }).data;
    expect(series).toMatchObject({ total_occurrences: 1 });
  });

  it('gives the fields the connectors read where the data can say, null where it cannot', async () => {
    // Release 1 had no ticket types, products, codes or discounts, nor buyers' first names.
    const orders = await all(`/v1/orders`, served[0].key);
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      const buyer = order.buyer_details as Json;
      expect([buyer.first_name, buyer.last_name]).toEqual([null, null]);
      for (const item of order.line_items as Json[]) {
        expect([order.id, item.id, item.item_id]).toEqual([
          order.id,
          item.id,
          null,
        ]);
      }
      // Each event a series of its own (migration EventSeries); no venue was ever set.
      const summary = order.event_summary as Json;
      expect(summary.event_series_id).toBe(
        String(summary.id).replace('ev_', 'es_'),
      );
      expect(summary.venue).toEqual({ name: null, postal_code: null });
    }
  });

  it('serves the connectors’ new lists, empty, and series with no vouchers', async () => {
    const key = served[0].key;
    for (const path of ['/v1/products', '/v1/vouchers', '/v1/discounts']) {
      const res = await fetch(base + path, {
        headers: { Authorization: basicAuth(key) },
      });
      expect([path, res.status, await res.json()]).toEqual([
        path,
        200,
        { data: [], links: { next: null, previous: null } },
      ]);
    }
    for (const series of await all('/v1/event_series', key)) {
      expect(series.voucher_ids).toEqual([]);
      const signups = await fetch(
        `${base}/v1/event_series/${String(series.id)}/waitlist_signups`,
        { headers: { Authorization: basicAuth(key) } },
      );
      expect(((await signups.json()) as { data: unknown[] }).data).toEqual([]);
    }
  });

  /** Every item of a list, following links.next. */
  async function all(start: string, key: string): Promise<Json[]> {
    const items: Json[] = [];
    let path: string | null = start;
    while (path !== null) {
      const res: Response = await fetch(base + path, {
        headers: { Authorization: basicAuth(key) },
      });
      const page = (await res.json()) as {
        data: Json[];
        links: { next: string | null };
      };
      items.push(...page.data);
      path = page.links.next;
    }
    return items;
  }

  it(`serves every list page and every order (${served.length} responses) byte for byte as the previous release did, with the fields added since`, async () => {
    expect(served.filter((r) => r.path.startsWith('/v1/orders/'))).toHaveLength(
      release1.tables.orders.length,
    );
    const differing: string[] = [];
    for (const before of served) {
      const res = await fetch(base + before.path, {
        headers: { Authorization: basicAuth(before.key) },
      });
      const body = await res.text();
      if (
        res.status !== before.status ||
        res.headers.get('content-type') !== before.contentType ||
        withoutAddedFields(body) !== before.body
      ) {
        differing.push(`${before.key} ${before.path}`);
      }
    }
    expect(differing).toEqual([]);
  });
});

// docs/DESIGN.md, Upgrading (LineItemSubjects1766110000000): an existing ticket line names the ticket
// type of its order's event named as the line is, when exactly one type has that name; any other
// line names nothing.
describe('upgrading line items: what a ticket line sold, where the data can say', () => {
  let database: TestDatabase;

  afterAll(() => database?.drop());

  it('names the one ticket type of the event named as the line, and nothing when two or none are', async () => {
    database = await durableTestDatabase();
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.indexOf(LineItemSubjects1766110000000),
    );
    const release = await openWithMigrations(database.url, [
      InitialSchema1763800000000,
    ]);
    await load(release, release1.tables);
    await release.destroy();
    const previous = await openWithMigrations(database.url, before);
    // Types for two events: one named as their ticket lines, two of one name for the other.
    const orders = release1.tables.orders;
    const lines = release1.tables.line_items;
    const eventOf = new Map(orders.map((o) => [o.id, o.event_id]));
    const ticketLines = lines.filter((li) => li.type === 'ticket');
    const [named, ambiguous] = [
      ...new Set(ticketLines.map((li) => eventOf.get(li.order_id))),
    ];
    const descriptionOf = (event: unknown) =>
      ticketLines.find((li) => eventOf.get(li.order_id) === event)!
        .description as string;
    const insertType = (event: unknown, name: string) =>
      previous.query(
        `INSERT INTO ticket_types (event_id, name, price, booking_fee, min_per_order, max_per_order,
           quantity_total, status, type, sort_order) VALUES (${Number(event)}, '${name.replace(/'/g, "''")}',
           1000, 0, 1, 10, 100, 'on_sale', 'paid', 1) RETURNING id`,
      ) as Promise<{ id: number }[]>;
    const [{ id: typeId }] = await insertType(named, descriptionOf(named));
    await insertType(ambiguous, descriptionOf(ambiguous));
    await insertType(ambiguous, descriptionOf(ambiguous));
    await previous.destroy();

    const migrated = await openWithMigrations(database.url, MIGRATIONS);
    try {
      const rows = await migrated.query<
        {
          id: number;
          order_id: number;
          type: string;
          description: string;
          ticket_type_id: number | null;
        }[]
      >(
        'SELECT id, order_id, type, description, ticket_type_id FROM line_items ORDER BY id',
      );
      expect(rows).toHaveLength(lines.length);
      for (const row of rows) {
        const event = eventOf.get(row.order_id);
        const expected =
          row.type === 'ticket' &&
          event === named &&
          row.description === descriptionOf(named)
            ? Number(typeId)
            : null;
        expect([
          row.id,
          row.ticket_type_id === null ? null : Number(row.ticket_type_id),
        ]).toEqual([row.id, expected]);
      }
      expect(
        rows.filter((row) => row.ticket_type_id !== null).length,
      ).toBeGreaterThan(0);
    } finally {
      await migrated.destroy();
    }
  });
});

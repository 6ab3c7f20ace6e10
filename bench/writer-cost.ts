/**
 * What the sync triggers cost writers: changes (transactions) per second of a sales-system-like
 * writer with the SyncAndChanges migration's triggers and change feed, beside the same database
 * migrated without it. Each change is one transaction: a new order (two line items, two tickets)
 * or a refund of an existing one, alternately. Run with `npm run bench:writer`; the measurements
 * so far are in bench/notes/ (2026-11-25-writer-cost-of-the-change-feed.md).
 *
 *   npm run bench:writer -- [--seconds 5] [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { DataSource, type MigrationInterface } from 'typeorm';
import { type Connection, connect, sql } from '../dev/activity/connection';
import { parseDatabaseUrl } from '../src/config/app-config';
import {
  MIGRATIONS,
  buildDataSourceOptions,
} from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    postgres: {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const SECONDS = Number(values.seconds);
// Without the change feed: SyncAndChanges, and ImportGeneration, which builds on its import mode.
const WITHOUT = MIGRATIONS.filter(
  (m) =>
    m.name !== 'SyncAndChanges1765200000000' &&
    m.name !== 'ImportGeneration1765400000000',
);

interface Target {
  url: string;
  drop(): Promise<void>;
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'writer-cost-'));
  return {
    url: `sqlite:${join(dir, 'db.sqlite')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function postgresTarget(server: string): Promise<Target> {
  const name = `writer_cost_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new Client({ connectionString: server });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** Migrates and makes `offices` box offices with one event each; returns the event ids. */
async function prepare(
  url: string,
  migrations: (new () => MigrationInterface)[],
  offices: number,
): Promise<number[]> {
  const ds = new DataSource({
    ...buildDataSourceOptions(parseDatabaseUrl(url)),
    migrations,
  });
  await ds.initialize();
  await runMigrations(ds);
  const events: number[] = [];
  for (let i = 1; i <= offices; i++) {
    await ds.query(
      `INSERT INTO box_offices (id, name, created_at) VALUES (${i}, 'Bench ${i}', 1700000000)`,
    );
    const [event] = await ds.query<{ id: number }[]>(
      `INSERT INTO events (box_office_id, name, start_at, end_at, timezone) VALUES (${i}, 'Bench', 1800000000, 1800003600, 'Europe/London') RETURNING id`,
    );
    events.push(Number(event.id));
  }
  await ds.destroy();
  return events;
}

/** One change: a new order, or a refund of the last one this connection made. */
async function change(
  db: Connection,
  office: number,
  event: number,
  n: number,
  last: { id: number },
) {
  await db.begin();
  if (n % 2 === 0 || last.id === 0) {
    const [order] = await db.query<{ id: unknown }>(
      sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
            refund_amount, created_at, updated_at, buyer_name, buyer_email, buyer_email_lookup,
            address_1, buyer_custom_questions, payment_method_type)
          VALUES (${office}, ${event}, 'completed', 'gbp', 5000, 1000, 6000, 0, 1800000000,
            1800000000, 'Bench', 'b@example.com', 'b@example.com', '1 Street', '[]', 'stripe')
          RETURNING id`,
    );
    last.id = Number(order.id);
    await db.query(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total)
          VALUES (${last.id}, 'ticket', 'GA', 2, 5000, 0, 5000), (${last.id}, 'tax', 'VAT', 1, 1000, 0, 1000)`,
    );
    for (const k of [1, 2]) {
      await db.query(
        sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, status, barcode,
              barcode_url, qr_code_url, description, custom_questions, created_at, updated_at)
            VALUES (${office}, ${last.id}, ${event}, 'valid', ${`B${last.id}-${k}`},
              'https://x.example/b', 'https://x.example/q', 'GA', '[]', 1800000000, 1800000000)`,
      );
    }
  } else {
    await db.query(
      sql`UPDATE orders SET refund_amount = refund_amount + 1 WHERE id = ${last.id}`,
    );
  }
  await db.commit();
}

/** Changes per second with `writers` connections, writer i writing to box office i % offices. */
async function measure(
  url: string,
  events: number[],
  writers: number,
  offices: number,
) {
  const connections = await Promise.all(
    Array.from({ length: writers }, () => connect(url)),
  );
  let count = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    connections.map(async (db, i) => {
      const office = (i % offices) + 1;
      const last = { id: 0 };
      for (let n = 0; Date.now() < until; n++) {
        await change(db, office, events[office - 1], n, last);
        count += 1;
      }
    }),
  );
  await Promise.all(connections.map((db) => db.close()));
  return Math.round(count / SECONDS);
}

async function main() {
  const rows: string[] = [];
  const cases = [
    { db: 'sqlite', writers: 1, offices: 1 },
    { db: 'postgres', writers: 1, offices: 1 },
    { db: 'postgres', writers: 4, offices: 1 },
    { db: 'postgres', writers: 4, offices: 4 },
  ] as const;
  for (const c of cases) {
    const result: number[] = [];
    for (const migrations of [WITHOUT, MIGRATIONS]) {
      const target =
        c.db === 'sqlite'
          ? await sqliteTarget()
          : await postgresTarget(values.postgres);
      try {
        const events = await prepare(target.url, migrations, c.offices);
        result.push(await measure(target.url, events, c.writers, c.offices));
      } finally {
        await target.drop();
      }
    }
    const [off, on] = result;
    rows.push(
      `| ${c.db} | ${c.writers} | ${c.offices} | ${off} | ${on} | ${Math.round((on / off) * 100)}% |`,
    );
  }
  process.stdout.write(
    [
      `Changes per second over ${SECONDS} s (half new orders of 2 line items + 2 tickets, half refunds):`,
      '',
      '| database | writers | box offices | without sync triggers | with them | ratio |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
}

void main();

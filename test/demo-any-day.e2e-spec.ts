import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DemoCalendar } from '../seeds/demo-calendar';
import {
  DEMO_BOX_OFFICES,
  DEMO_ORDER_COUNT,
  demoDataDay,
  seedDemoData,
} from '../seeds/demo-data';
import { connect, type Connection } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { durableTestDatabase } from './utils/migrated-database';
import { waitForWatermark } from './utils/sync-watermark';
import type { TestDatabase } from './utils/test-database';

// The demo as a new user meets it, on the day it is seeded and years later (docs/DEVELOPMENT.md,
// "The demo data"): the service's clock is moved to that day, the demo seeded for it as
// `npm start` seeds it, a few changes made as the README's `npm run activity` makes them, and
// every curl line of README.md and docs/*.md sent as written.

const DAY = 86_400;
const KEY = DEMO_BOX_OFFICES[0].apiKey;
const ROOT = join(__dirname, '..');

interface OpenApiParameter {
  name: string;
  in: string;
  example?: string | number;
  schema?: { example?: string | number };
}

interface Example {
  file: string;
  line: number;
  text: string;
  user: string | null;
  path: string;
}

/** Shell arithmetic of whole numbers with + - and *: `1795000000 - 30*86400`. */
function arithmetic(expression: string): number {
  const terms = expression.replace(/\s/g, '').match(/[+-]?[^+-]+/g) ?? [];
  let sum = 0;
  for (const term of terms) {
    const product = term
      .replace(/^[+-]/, '')
      .split('*')
      .reduce((p, factor) => p * Number(factor), 1);
    sum += term.startsWith('-') ? -product : product;
  }
  return sum;
}

/**
 * The curl lines of the fenced shell blocks of a document, as requests: `$KEY` is the demo key
 * the documents set, `$(date +%s)` the clock's second, and `$(( … ))` shell arithmetic on it.
 */
function curlExamples(file: string, now: number): Example[] {
  const examples: Example[] = [];
  let inShell = false;
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    let text = lines[index];
    if (text.startsWith('```')) {
      inShell = !inShell && /^```(sh|bash|shell)\s*$/.test(text);
      continue;
    }
    if (!inShell || !/^curl\s/.test(text)) continue;
    // A command continued on the next lines (a trailing backslash) is one command.
    while (text.endsWith('\\') && index + 1 < lines.length) {
      text = `${text.slice(0, -1)} ${lines[++index].trim()}`;
    }
    // A write (-d, -X POST) is not a read to answer with data: test/readme-commands.e2e-spec.ts runs the
    // README's, and each write's own e2e spec its requests.
    if (/\s(-d|-X\s+(POST|DELETE))\s/.test(text)) continue;
    const command = text
      .replace(/\s+#.*$/, '')
      .replaceAll('$KEY', KEY)
      .replaceAll('$(date +%s)', String(now))
      .replace(/\$\(\(([\d\s+\-*]+)\)\)/g, (_, sum: string) =>
        String(arithmetic(sum)),
      );
    const user = /-u\s+([^\s:]+):/.exec(command)?.[1] ?? null;
    const url = /["']?(?:https?:\/\/)?localhost:\d+(\/[^\s"']*)["']?/.exec(
      command,
    );
    if (!url) throw new Error(`${file}:${line}: no URL in ${text}`);
    examples.push({ file, line, text, user, path: url[1] });
  }
  return examples;
}

describe.each([
  ['the day it runs', DemoCalendar.of().today],
  ['a day years ahead', '2031-05-20'],
])('The demo seeded for %s (%s)', (_, today) => {
  const calendar = new DemoCalendar(today);
  // Late morning of the seeding day, UTC.
  const now = calendar.now + 1 + 11 * 3600;
  let database: TestDatabase;
  let t: TestApp;
  let db: Connection;
  let clock: jest.SpiedFunction<typeof Date.now>;
  // The database's clock, which stamps what the development writer adds, is not moved.
  const realNow = Date.now.bind(Date);

  beforeAll(async () => {
    const offset = now * 1000 - realNow();
    clock = jest
      .spyOn(Date, 'now')
      .mockImplementation(() => realNow() + offset);
    database = await durableTestDatabase();
    t = await createTestApp({ DATABASE_URL: database.url });
    await seedDemoData(t.dataSource, {
      orders: DEMO_ORDER_COUNT,
      seed: 1,
      reset: false,
      today,
    });
    // A sales system at work, as `npm run activity` makes it: an order for the New Year party
    // and a ticket voided.
    db = await connect(database.url);
    const writer = new ActivityWriter(db);
    await writer.newOrder('ev_29', { random: () => 0.5 });
    const [ticket] = await t.dataSource.query<{ id: number }[]>(
      "SELECT id FROM issued_tickets WHERE box_office_id = 1 AND status = 'valid' ORDER BY id LIMIT 1",
    );
    const [voided] = await writer.voidTicket(`it_${ticket.id}`);
    // The feed serves a change once the sync horizon has passed it.
    await waitForWatermark(get, voided.stamp);
  });

  afterAll(async () => {
    await db?.close();
    await t?.close();
    await database?.drop();
    clock.mockRestore();
  });

  const get = (path: string, key: string | null = KEY) => {
    const req = request(t.server).get(path);
    return key === null ? req : req.set('Authorization', basicAuth(key));
  };

  it('answers every curl line of the README and docs with 2xx, and every list with data', async () => {
    const examples = [
      'README.md',
      'docs/API.md',
      'docs/OPERATIONS.md',
      'docs/DEVELOPMENT.md',
    ].flatMap((file) => curlExamples(file, now));
    expect(examples.length).toBeGreaterThan(25);
    for (const example of examples) {
      const res = await get(example.path, example.user);
      const where = `${example.file}:${example.line} ${example.text}`;
      expect([where, res.status]).toEqual([where, 200]);
      const body = res.body as { data?: unknown[] };
      if (Array.isArray(body.data)) {
        expect([where, body.data.length > 0]).toEqual([where, true]);
      }
    }
  });

  it('finds data on every list and retrieval with the OpenAPI examples, sent together as Swagger UI "Try it out" sends them', async () => {
    const document = JSON.parse(
      readFileSync(join(ROOT, 'openapi.json'), 'utf8'),
    ) as {
      paths: Record<string, { get?: { parameters?: OpenApiParameter[] } }>;
    };
    for (const [template, { get: operation }] of Object.entries(
      document.paths,
    )) {
      // A box office has webhook endpoints only once someone creates one: the demo seeds none
      // (a seeded endpoint would be sent the demo's changes, or sit disabled with a secret
      // nobody was shown). test/webhooks.e2e-spec.ts reads them.
      if (!operation || template.startsWith('/v1/webhook_endpoints')) continue;
      let path = template;
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        const example = parameter.example ?? parameter.schema?.example;
        if (example === undefined) continue;
        if (parameter.in === 'path') {
          path = path.replace(`{${parameter.name}}`, String(example));
        } else if (parameter.in === 'query') {
          query.set(parameter.name, String(example));
        }
      }
      const sent = query.size ? `${path}?${query}` : path;
      const res = await get(sent);
      expect([sent, res.status]).toEqual([sent, 200]);
      const body = res.body as { data?: unknown[] };
      if (Array.isArray(body.data)) {
        expect([sent, body.data.length > 0]).toEqual([sent, true]);
      }
    }
  });

  it('has at least five published events on sale in the next 60 days, and five that ended with check-ins', async () => {
    const upcoming = await get(
      `/v1/events?status=published&start_at.gt=${now}&start_at.lt=${now + 60 * DAY}&limit=100`,
    );
    const onSale = (
      upcoming.body.data as { tickets_available: string }[]
    ).filter((event) => event.tickets_available === 'true');
    expect(onSale.length).toBeGreaterThanOrEqual(5);

    const ended = await get(
      `/v1/events?end_at.lt=${now}&limit=100&status=sales_closed`,
    );
    const endedIds = (ended.body.data as { id: string }[]).map((e) => e.id);
    let scanned = 0;
    for (const id of endedIds) {
      const scans = await get(`/v1/check_ins?event_id=${id}&limit=1`);
      if ((scans.body.data as unknown[]).length > 0) scanned++;
    }
    expect(scanned).toBeGreaterThanOrEqual(5);
  });

  it('shows no event that is over as on sale', async () => {
    const over = await get(`/v1/events?end_at.lt=${now}&limit=100`);
    for (const event of over.body.data as {
      id: string;
      status: string;
      tickets_available: string;
    }[]) {
      expect([event.id, event.status, event.tickets_available]).toEqual([
        event.id,
        expect.not.stringMatching(/^published$/),
        'false',
      ]);
    }
  });

  it('has recent orders and counts the last four weeks in the overview', async () => {
    const newest = await get('/v1/orders?limit=1');
    const [order] = newest.body.data as { created_at: number }[];
    // The newest is the writer's order, stamped by the database's clock, when that clock is
    // later in the day than the moved one; never one from the future of both.
    expect(order.created_at).toBeLessThanOrEqual(
      Math.max(now, Math.floor(realNow() / 1000)),
    );
    expect(order.created_at).toBeGreaterThan(now - 7 * DAY);
    const overview = await get('/v1/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.orders_received).toBeGreaterThan(0);
  });

  it('counts upcoming dates of series from the moved clock', async () => {
    const series = await get('/v1/event_series?status=published&limit=100');
    const upcoming = (
      series.body.data as { upcoming_occurrences: number }[]
    ).filter((s) => s.upcoming_occurrences > 0);
    expect(upcoming.length).toBeGreaterThanOrEqual(5);
  });

  it('knows the day it was seeded for, which `npm start` compares with the day it runs', async () => {
    await expect(demoDataDay(t.dataSource)).resolves.toBe(today);
  });
});

import type { Server } from 'node:http';
import type { Page, Response } from 'playwright-core';
import { TicketType } from '../../src/events/entities/ticket-type.entity';
import {
  type Browser,
  STEP_MS,
  collectErrors,
  launchChromium,
  screenshot,
} from './browser';
import { type SeededServer, startSeededServer } from './seeded-server';

// Two front ends in a real browser (docs/API.md, Clients): Swagger UI at /docs, and the example
// front end (examples/), served from another origin, reading the API with the typed client.

const KEY = 'sk_demo_boxoffice_1';
/** The example's reference time: 2026-06-01T00:00Z, inside the demo events' dates. */
const NOW = 1_780_272_000;

/** examples/serve.mjs, an ES module without type declarations. */
interface ExampleServerModule {
  startExampleServer: (options: {
    port: number;
    host: string;
  }) => Promise<{ server: Server; url: string }>;
}

let api: SeededServer;
let example: { server: Server; url: string };
let browser: Browser;

beforeAll(async () => {
  const { startExampleServer } =
    // @ts-expect-error -- a plain-JS example (no declarations); its shape is ExampleServerModule
    (await import('../../examples/serve.mjs')) as ExampleServerModule;
  example = await startExampleServer({ port: 0, host: '127.0.0.1' });
  // Only the example's origin is allowed, as a deployment would list its front ends.
  api = await startSeededServer({ CORS_ORIGINS: example.url });
  // A ticket type on sale for the first upcoming public event, so that the page has one to show
  // whatever the demo data holds.
  const [first] = (await api.dataSource.query(
    `SELECT id FROM events WHERE box_office_id = 1 AND start_at >= ${NOW}
        AND status = 'published' AND NOT private ORDER BY start_at, id LIMIT 1`,
  )) as { id: number }[];
  await api.dataSource.getRepository(TicketType).insert({
    eventId: first.id,
    groupId: null,
    name: 'Browser test standing',
    description: null,
    price: 1234,
    bookingFee: 0,
    minPerOrder: 1,
    maxPerOrder: 10,
    quantityTotal: 7,
    status: 'on_sale',
    type: 'paid',
    sortOrder: 99,
    accessCode: null,
  });
  browser = await launchChromium();
}, 4 * STEP_MS);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => example?.server.close(resolve));
});

/** A GET of the API with the demo key, from Node (the reference the pages are compared with). */
async function apiGet<T>(path: string): Promise<T> {
  const res = await fetch(`${api.url}${path}`, {
    headers: { Authorization: `Basic ${btoa(`${KEY}:`)}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('Swagger UI at /docs', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    page = await browser.context.newPage();
    errors = collectErrors(page);
  });
  afterAll(() => page.close());

  it('loads without console errors', async () => {
    const res = await page.goto(`${api.url}/docs`);
    expect(res?.status()).toBe(200);
    await page
      .locator('.opblock-summary-path[data-path="/v1/orders"]')
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('authorises with the demo key and executes GET /v1/orders', async () => {
    // Basic auth: the key as user name, the password left empty.
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input[type="text"]').fill(KEY);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();

    const operation = page.locator('.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/v1/orders"]'),
    });
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const answered = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/v1/orders',
    );
    await operation.locator('button.execute').click();
    const res = await answered;
    expect(res.status()).toBe(200);
    expect(res.request().headers()['authorization']).toBe(
      `Basic ${btoa(`${KEY}:`)}`,
    );

    // The response panel shows the status and the orders of the request it made.
    const live = operation.locator('.live-responses-table tbody .response');
    await expect(
      live.locator('.response-col_status').textContent(),
    ).resolves.toContain('200');
    const body = live.locator('.response-col_description');
    await body
      .getByText(/"or_\d+"/)
      .first()
      .waitFor();
    const sent = new URL(res.url());
    const { data } = await apiGet<{ data: { id: string }[] }>(
      sent.pathname + sent.search,
    );
    expect(data.length).toBeGreaterThan(0);
    const shown = await body.textContent();
    for (const order of data) expect(shown).toContain(`"${order.id}"`);

    await screenshot(page, 'swagger-ui.png');
    expect(errors).toEqual([]);
  });
});

describe('The example front end, from another origin', () => {
  let page: Page;
  let errors: string[];
  /** Every response from the API the page received. */
  let network: {
    method: string;
    url: string;
    status: number;
    allowOrigin: string | undefined;
  }[];

  const pageUrl = () =>
    `${example.url}/?${new URLSearchParams({ api: api.url, now: String(NOW) })}`;
  const ready = () =>
    page.locator('body[data-state="ready"]').waitFor({ timeout: STEP_MS });
  const rateLimitRemaining = async () =>
    Number(await page.locator('#rate-limit-remaining').textContent());

  beforeAll(async () => {
    page = await browser.context.newPage();
    errors = collectErrors(page);
    network = [];
    page.on('response', (res: Response) => {
      const url = new URL(res.url());
      if (url.origin !== api.url) return;
      network.push({
        method: res.request().method(),
        url: url.pathname + url.search,
        status: res.status(),
        allowOrigin: res.headers()['access-control-allow-origin'],
      });
    });
  });
  afterAll(() => page.close());

  it('lists the upcoming public events, next first, with the ticket types a buyer may see', async () => {
    await page.goto(pageUrl());
    await ready();

    interface ApiEvent {
      id: string;
      name: string;
      private: string;
      status: string;
      tickets_available: string;
      ticket_types: { name: string; status: string; quantity: number }[];
    }
    const { data: upcoming } = await apiGet<{ data: ApiEvent[] }>(
      `/v1/events?start_at.gte=${NOW}&limit=100`,
    );
    const events = upcoming
      .filter((e) => e.status === 'published' && e.private === 'false')
      .slice(0, 5);
    expect(events).toHaveLength(5);
    // The page leaves out what is not public, and the demo has each kind ahead of NOW.
    expect(upcoming.some((e) => e.private === 'true')).toBe(true);
    expect(
      events.some((e) => e.ticket_types.some((t) => t.status === 'hidden')),
    ).toBe(true);
    expect(events[0].ticket_types.map((type) => type.name)).toContain(
      'Browser test standing',
    );
    const items = page.locator('#events > li');
    expect(
      await items.evaluateAll((li) => li.map((e) => e.dataset.id)),
    ).toEqual(events.map((event) => event.id));
    for (const [i, event] of events.entries()) {
      const item = items.nth(i);
      expect(await item.locator('strong').textContent()).toBe(event.name);
      expect(await item.locator('.availability').textContent()).toBe(
        event.tickets_available === 'true'
          ? 'tickets available'
          : 'no tickets available',
      );
      const rows = await item
        .locator('tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.children].map((td) => td.textContent)),
        );
      expect(
        rows.map(([name, , status, left]) => [name, status, left]),
      ).toEqual(
        event.ticket_types
          .filter((type) => type.status !== 'hidden')
          .map((type) => [
            type.name,
            type.status.replace('_', ' '),
            `${type.quantity} left`,
          ]),
      );
    }
    const added = items.first().locator('tr', { hasText: 'Browser test' });
    expect(await added.locator('td.money').textContent()).toContain('12.34');
    expect(await items.first().locator('.availability').textContent()).toBe(
      'tickets available',
    );
  });

  it('lists the recent orders, newest first', async () => {
    const { data: orders } = await apiGet<{ data: { id: string }[] }>(
      '/v1/orders?limit=10',
    );
    expect(
      await page
        .locator('#orders > tr')
        .evaluateAll((rows) => rows.map((row) => row.dataset.id)),
    ).toEqual(orders.map((order) => order.id));
  });

  it('reads the API cross-origin and shows X-Rate-Limit-Remaining', async () => {
    // The two lists are requested together: their order varies.
    expect(
      network
        .map(({ method, url, status, allowOrigin }) =>
          [method, url, status, allowOrigin].join(' '),
        )
        .sort(),
    ).toEqual([
      `GET /v1/events?status=published&start_at.gte=${NOW}&limit=5 200 ${example.url}`,
      `GET /v1/orders?limit=10 200 ${example.url}`,
    ]);
    const remaining = await rateLimitRemaining();
    expect(Number.isInteger(remaining)).toBe(true);
    expect(remaining).toBeGreaterThan(0);

    await screenshot(page, 'example-front-end.png');
    expect(errors).toEqual([]);
  });

  it('gets 304 for the unchanged pages on reload, and still shows them', async () => {
    const before = await rateLimitRemaining();
    const eventIds = await page
      .locator('#events > li')
      .evaluateAll((li) => li.map((e) => e.dataset.id));
    network.length = 0;

    await page.reload();
    await ready();

    expect(
      network
        .map(({ method, url, status }) => `${method} ${url} ${status}`)
        .sort(),
    ).toEqual([
      `GET /v1/events?status=published&start_at.gte=${NOW}&limit=5 304`,
      'GET /v1/orders?limit=10 304',
    ]);
    expect(
      await page
        .locator('#events > li')
        .evaluateAll((li) => li.map((e) => e.dataset.id)),
    ).toEqual(eventIds);
    // Shown again, from the 304s' own headers: lower, since every request counts.
    expect(await rateLimitRemaining()).toBeLessThan(before);
    expect(errors).toEqual([]);
  });
});

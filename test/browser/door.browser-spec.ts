import type { Page } from 'playwright-core';
import { doorPage } from '../../dev/door-page';
import {
  type Browser,
  STEP_MS,
  collectErrors,
  launchChromium,
  screenshot,
} from './browser';
import { type SeededServer, startSeededServer } from './seeded-server';

// The door page of the demo server (dev/door/, docs/API.md, "Recording scans") in a real browser:
// a barcode typed (as a scanner types it) is checked in, green; again, red with the time of the
// scan that let it in; and through an offline spell, scans wait with the moment they were made
// and their Idempotency-Keys, and are recorded once each when the network returns.

let api: SeededServer;
let browser: Browser;
let page: Page;
let errors: string[];

interface Ticket {
  id: number;
  barcode: string;
}
let tickets: Ticket[];

interface Scan {
  id: number;
  quantity: number;
  check_in_at: number;
  created_at: number;
}
const scansOf = async (ticket: Ticket) =>
  (
    await api.dataSource.query<Scan[]>(
      `SELECT id, quantity, check_in_at, created_at FROM check_ins
        WHERE issued_ticket_id = ${ticket.id} ORDER BY id`,
    )
  ).map((row) => ({
    id: Number(row.id),
    quantity: Number(row.quantity),
    check_in_at: Number(row.check_in_at),
    created_at: Number(row.created_at),
  }));

beforeAll(async () => {
  api = await startSeededServer({}, (app) => app.use(doorPage()));
  // Valid tickets of box office 1 never scanned (upcoming events have no check-ins).
  tickets = (
    await api.dataSource.query<Ticket[]>(
      `SELECT t.id, t.barcode FROM issued_tickets t
        WHERE t.box_office_id = 1 AND t.status = 'valid'
          AND NOT EXISTS (SELECT 1 FROM check_ins c WHERE c.issued_ticket_id = t.id)
        ORDER BY t.id LIMIT 3`,
    )
  ).map((row) => ({ id: Number(row.id), barcode: row.barcode }));
  expect(tickets).toHaveLength(3);
  browser = await launchChromium();
  page = await browser.context.newPage();
  errors = collectErrors(page);
}, 4 * STEP_MS);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const result = () => page.locator('#result');

/** Types a barcode and Enter, as a handheld scanner does, in or out. */
async function scan(ticket: Ticket, direction: 'In' | 'Out' = 'In') {
  await page.getByLabel(direction, { exact: true }).check();
  await page.locator('#barcode').fill(ticket.barcode);
  await page.locator('#barcode').press('Enter');
}

/** The result panel once it shows this barcode's answer (not "waiting"). */
async function answered(ticket: Ticket, outcome: string) {
  await page
    .locator(
      `#result[data-barcode="${ticket.barcode}"][data-outcome="${outcome}"]`,
    )
    .waitFor();
  return {
    text: await result().textContent(),
    reason: await result().getAttribute('data-reason'),
    scannedAt: await result().getAttribute('data-scanned-at'),
  };
}

describe('the door page', () => {
  it('checks a ticket in: green', async () => {
    const res = await page.goto(`${api.url}/door`);
    expect(res?.status()).toBe(200);
    await page.locator('body[data-online="true"]').waitFor();
    await scan(tickets[0]);
    const shown = await answered(tickets[0], 'recorded');
    const [recorded] = await scansOf(tickets[0]);
    expect(recorded.quantity).toBe(1);
    expect(shown.text).toContain(`✓ In: it_${tickets[0].id}`);
    expect(shown.scannedAt).toBe(String(recorded.check_in_at));
    expect(
      await result().evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(10, 125, 44)');
  });

  it('refuses it again: red, with the reason and the time of the scan that let it in', async () => {
    await scan(tickets[0]);
    const shown = await answered(tickets[0], 'refused');
    const [first] = await scansOf(tickets[0]);
    expect(shown.reason).toBe('ALREADY_CHECKED_IN');
    expect(shown.scannedAt).toBe(String(first.check_in_at));
    const time = await page.evaluate(
      (unix) => new Date(unix * 1000).toLocaleTimeString(),
      first.check_in_at,
    );
    expect(shown.text).toBe(
      `${tickets[0].barcode}: ✗ Already checked in at ${time}`,
    );
    expect(
      await result().evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(176, 0, 32)');
    expect(await scansOf(tickets[0])).toHaveLength(1);
  });

  it('keeps scans made offline, with when they were made, and sends them once when the network returns', async () => {
    await browser.context.setOffline(true);
    await page.locator('body[data-online="false"]').waitFor();
    await scan(tickets[1]);
    await answered(tickets[1], 'queued');
    await scan(tickets[0], 'Out');
    await answered(tickets[0], 'queued');
    // A scan refused once the network returns: the ticket is checked in offline and again.
    await scan(tickets[2]);
    await scan(tickets[2]);
    expect(await page.locator('#queue > li').count()).toBe(4);
    expect(await page.locator('#queue-count').textContent()).toBe('4');
    const queued = (await page.evaluate(() =>
      JSON.parse(localStorage.getItem('box-office-door-queue') ?? '[]'),
    )) as { idempotencyKey: string; madeAt: number; offline: boolean }[];
    expect(
      queued.every(
        (s) => s.offline && /^[0-9a-f-]{36}$/.test(s.idempotencyKey),
      ),
    ).toBe(true);
    expect(new Set(queued.map((s) => s.idempotencyKey)).size).toBe(4);
    // Nothing reached the service.
    expect(await scansOf(tickets[1])).toEqual([]);
    await screenshot(page, 'door-offline.png');
    // Made a second or more before they are recorded: check_in_at < created_at shows it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    await browser.context.setOffline(false);
    await page.locator('#queue-count', { hasText: '0' }).waitFor();
    await page.locator('#synced > li').nth(3).waitFor();
    expect(
      await page
        .locator('#synced > li')
        .evaluateAll((items) =>
          items.map((li) => [li.dataset.barcode, li.dataset.outcome]),
        ),
    ).toEqual([
      [tickets[1].barcode, 'recorded'],
      [tickets[0].barcode, 'recorded'],
      [tickets[2].barcode, 'recorded'],
      [tickets[2].barcode, 'refused'],
    ]);
    const [entry] = await scansOf(tickets[1]);
    expect(entry.check_in_at).toBe(queued[0].madeAt);
    expect(entry.check_in_at).toBeLessThan(entry.created_at);
    expect((await scansOf(tickets[0])).map((s) => s.quantity)).toEqual([1, -1]);
    expect(await scansOf(tickets[2])).toHaveLength(1);
    // Each went out with its own key, once: the keys are the service's records of them.
    const keys = await api.dataSource.query<
      { idempotency_key: string; status: number }[]
    >(
      'SELECT idempotency_key, status FROM idempotency_keys ORDER BY created_at, idempotency_key',
    );
    expect(
      new Map(keys.map((k) => [k.idempotency_key, Number(k.status)])),
    ).toEqual(
      new Map([
        ...keys
          .filter(
            (k) => !queued.some((s) => s.idempotencyKey === k.idempotency_key),
          )
          .map((k) => [k.idempotency_key, Number(k.status)] as const),
        [queued[0].idempotencyKey, 201],
        [queued[1].idempotencyKey, 201],
        [queued[2].idempotencyKey, 201],
        [queued[3].idempotencyKey, 409],
      ]),
    );
    await screenshot(page, 'door-synced.png');
    // Chromium logs every 4xx as a failed resource: the refusals are answers, not errors.
    expect(
      errors.filter((e) => !e.includes('responded with a status of 409')),
    ).toEqual([]);
  });
});

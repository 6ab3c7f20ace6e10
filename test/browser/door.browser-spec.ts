import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import {
  ARTIFACTS,
  type Browser,
  STEP_MS,
  collectErrors,
  launchChromium,
} from './browser';
import { type SeededServer, startSeededServer } from './seeded-server';

// The door app (door/, docs/API.md, "The door app") in Chromium at a phone's size, served by the
// service itself at /door: from a LAN address over plain HTTP (no secure context: typed and
// handheld scanning, no camera, no service worker) and from localhost (the camera through
// zxing-wasm, the page kept by its service worker for a reload with no network).

const KEY = 'sk_demo_boxoffice_1';
const LAN_HOST = 'door.venue.test';
const PHONE = { width: 390, height: 844 };
/** Screenshots for docs/door/ are rewritten only when asked (their dates move every day). */
const DOCS_SCREENSHOTS = process.env.UPDATE_DOOR_SCREENSHOTS === '1';

interface ApiTicket {
  id: string;
  barcode: string;
  full_name: string | null;
  description: string;
  event_id: string;
  status: string;
  checked_in: string;
}
interface ApiEvent {
  id: string;
  name: string;
}

let api: SeededServer;
let browser: Browser;
/** The door's events as the API lists them, the first the door's default. */
let events: ApiEvent[];
/** Valid tickets of the first event, never scanned. */
let fresh: ApiTicket[];
/** A ticket of the second event. */
let otherEvent: ApiTicket;
/** What reached the server's door files, by path. */
const served: string[] = [];

async function apiGet<T>(path: string, key = KEY): Promise<T> {
  const res = await fetch(`${api.url}${path}`, {
    headers: { Authorization: `Basic ${btoa(`${key}:`)}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const numeric = (id: string) => Number(id.slice(id.indexOf('_') + 1));

interface Scan {
  quantity: number;
  check_in_at: number;
  created_at: number;
}
const scansOf = async (ticket: ApiTicket) =>
  (
    await api.dataSource.query<Scan[]>(
      `SELECT quantity, check_in_at, created_at FROM check_ins
        WHERE issued_ticket_id = ${numeric(ticket.id)} ORDER BY id`,
    )
  ).map((row) => ({
    quantity: Number(row.quantity),
    check_in_at: Number(row.check_in_at),
    created_at: Number(row.created_at),
  }));

/**
 * A video file for Chromium's fake camera: a ticket's barcode as a QR code (zxing-wasm's writer),
 * black on white in the middle of 640×480 frames, as Y4M (a header, then raw YUV 4:2:0 frames).
 */
async function qrVideo(text: string): Promise<string> {
  const wasm = readFileSync(
    join(
      __dirname,
      '../../node_modules/zxing-wasm/dist/writer/zxing_writer.wasm',
    ),
  );
  await prepareZXingModule({
    overrides: {
      wasmBinary: wasm.buffer.slice(
        wasm.byteOffset,
        wasm.byteOffset + wasm.byteLength,
      ),
    },
    fireImmediately: true,
  });
  const { symbol, error } = await writeBarcode(text, { format: 'QRCode' });
  expect(error).toBe('');
  const [width, height] = [640, 480];
  const scale = Math.floor(320 / symbol.width);
  const left = Math.floor((width - symbol.width * scale) / 2);
  const top = Math.floor((height - symbol.height * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < symbol.height * scale; y++) {
    for (let x = 0; x < symbol.width * scale; x++) {
      const module =
        symbol.data[
          Math.floor(y / scale) * symbol.width + Math.floor(x / scale)
        ];
      if (module < 128) luma[(top + y) * width + left + x] = 16;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const file = join(tmpdir(), `door-qr-${process.pid}.y4m`);
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`),
      ...Array.from({ length: 10 }, () => frame),
    ]),
  );
  return file;
}

let cameraTicket: ApiTicket;

beforeAll(async () => {
  // Dated around today: the app lists the events to come from the phone's clock.
  api = await startSeededServer({}, undefined, {
    today: new Date().toISOString().slice(0, 10),
  });
  api.server.on('request', (req: IncomingMessage) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/door' || path.startsWith('/door/')) served.push(path);
  });
  const now = Math.floor(Date.now() / 1000);
  events = (
    await apiGet<{ data: ApiEvent[] }>(
      `/v1/events?status=published&end_at.gte=${now}&limit=20`,
    )
  ).data;
  expect(events.length).toBeGreaterThan(1);
  fresh = (
    await apiGet<{ data: ApiTicket[] }>(
      `/v1/issued_tickets?event_id=${events[0].id}&status=valid&checked_in=false&limit=100`,
    )
  ).data.filter((t) => t.full_name);
  expect(fresh.length).toBeGreaterThanOrEqual(8);
  [otherEvent] = (
    await apiGet<{ data: ApiTicket[] }>(
      `/v1/issued_tickets?event_id=${events[1].id}&status=valid&limit=100`,
    )
  ).data.filter((t) => t.full_name);
  expect(otherEvent).toBeDefined();
  cameraTicket = fresh[7];
  browser = await launchChromium({
    viewport: PHONE,
    args: [
      `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${await qrVideo(cameraTicket.barcode)}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}, 6 * STEP_MS);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/**
 * A screenshot of the phone's screen, in test-artifacts and, when asked, in docs/door/; every
 * state shot is also checked for contrast and names.
 */
async function shot(page: Page, name: string) {
  expect([name, await accessibilityFaults(page)]).toEqual([name, []]);
  mkdirSync(ARTIFACTS, { recursive: true });
  const png = await page.screenshot({
    path: join(ARTIFACTS, `door-${name}.png`),
  });
  if (DOCS_SCREENSHOTS) {
    const docs = join(__dirname, '../../docs/door');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, `${name}.png`), png);
  }
}

/** WCAG's contrast ratio of the element's text colour on its background. */
async function contrast(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((el) => {
    const channels = (color: string) =>
      (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (color: string) => {
      const [r, g, b] = channels(color).map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(el);
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

/**
 * What the screen fails of WCAG AA as it is now: every visible text whose contrast on the
 * background it is drawn on (the nearest opaque one, white at the root) is under 4.5:1, and
 * every field or button without an accessible name.
 */
async function accessibilityFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channels = (color: string) =>
      (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = (color: string) => {
      const [r, g, b] = channels(color)
        .slice(0, 3)
        .map((c) => {
          const v = c / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const backgroundOf = (el: Element | null): string => {
      for (; el; el = el.parentElement) {
        const color = getComputedStyle(el).backgroundColor;
        const alpha = channels(color)[3];
        if (alpha === undefined || alpha > 0) return color;
      }
      return 'rgb(255, 255, 255)';
    };
    const faults: string[] = [];
    const walker = document.createTreeWalker(
      document.body,
      NodeFilter.SHOW_TEXT,
    );
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (!el || text === '' || el.closest('[hidden]')) continue;
      if (el.getClientRects().length === 0) continue;
      if (el instanceof HTMLOptionElement) continue;
      const [a, b] = [
        luminance(getComputedStyle(el).color),
        luminance(backgroundOf(el)),
      ];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) faults.push(`${text}: ${ratio.toFixed(2)}:1`);
    }
    for (const el of document.querySelectorAll('input, select, button')) {
      const named =
        (el as HTMLInputElement).labels?.length ||
        el.getAttribute('aria-label') ||
        (el instanceof HTMLButtonElement && el.textContent?.trim());
      if (!named) faults.push(`no name: ${el.outerHTML.slice(0, 60)}`);
    }
    return faults;
  });
}

/** The app's beeps and buzzes, recorded: `true` for a yes, `false` for a no. */
async function recordSignals(page: Page) {
  await page.addInitScript(() => {
    const signals: unknown[] = [];
    Object.assign(window, { doorSignals: signals });
    Object.defineProperty(navigator, 'vibrate', {
      value: (pattern: VibratePattern) => {
        signals.push(['vibrate', pattern]);
        return true;
      },
    });
    // A beep is an oscillator: each one is kept, its pitch read when the test asks.
    window.AudioContext = class extends AudioContext {
      override createOscillator() {
        const oscillator = super.createOscillator();
        signals.push(['beep', oscillator]);
        return oscillator;
      }
    };
  });
}
const signals = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { doorSignals: [string, unknown][] }).doorSignals.map(
      ([kind, what]) =>
        kind === 'beep'
          ? [kind, (what as OscillatorNode).frequency.value]
          : [kind, what],
    ),
  );

/**
 * Every request of the page paused and let go through the DevTools protocol, which also reports
 * each time the browser would ask the user for a user name and password (Fetch.authRequired).
 */
async function watchSignInPrompts(
  page: Page,
): Promise<{ prompts: string[]; stop: () => Promise<void> }> {
  const prompts: string[] = [];
  const cdp: CDPSession = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (event: { requestId: string }) => {
    void cdp
      .send('Fetch.continueRequest', { requestId: event.requestId })
      .catch(() => undefined);
  });
  cdp.on(
    'Fetch.authRequired',
    (event: { requestId: string; request: { url: string } }) => {
      prompts.push(event.request.url);
      void cdp
        .send('Fetch.continueWithAuth', {
          requestId: event.requestId,
          authChallengeResponse: { response: 'CancelAuth' },
        })
        .catch(() => undefined);
    },
  );
  await cdp.send('Fetch.enable', {
    handleAuthRequests: true,
    patterns: [{ urlPattern: '*' }],
  });
  return {
    prompts,
    stop: async () => {
      await cdp.send('Fetch.disable');
    },
  };
}

const result = (page: Page) => page.locator('#result');

/** Types a code and Enter into the focused field, as a handheld scanner does. */
async function scanner(page: Page, code: string) {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** The panel once it shows this code's answer. */
async function answered(page: Page, code: string, outcome: string) {
  await page
    .locator(`#result[data-barcode="${code}"][data-outcome="${outcome}"]`)
    .waitFor();
  return {
    verdict: await result(page).locator('.verdict').textContent(),
    who: await result(page).locator('.who').textContent(),
    what: await result(page).locator('.what').textContent(),
    reason: await result(page).getAttribute('data-reason'),
    direction: await result(page).getAttribute('data-direction'),
    scannedAt: await result(page).getAttribute('data-scanned-at'),
  };
}

const background = (page: Page) =>
  result(page).evaluate((el) => getComputedStyle(el).backgroundColor);

describe('the door app, served by the service at /door', () => {
  it('serves its files without a key, with no key inside, under its own CSP', async () => {
    const files = [
      '/door',
      '/door/',
      '/door/door.js',
      '/door/door.css',
      '/door/local-tickets.js',
      '/door/camera.js',
      '/door/sw.js',
      '/door/manifest.webmanifest',
      '/door/client/index.js',
      '/door/vendor/openapi-fetch.mjs',
      '/door/vendor/zxing/reader/index.js',
      '/door/vendor/zxing/share.js',
    ];
    for (const path of files) {
      const res = await fetch(`${api.url}${path}`);
      expect([path, res.status]).toEqual([path, 200]);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-rate-limit-limit')).not.toBeNull();
      expect(await res.text()).not.toMatch(/sk_[A-Za-z0-9]/);
    }
    const worker = await fetch(`${api.url}/door/sw.js`);
    expect(worker.headers.get('service-worker-allowed')).toBe('/door');
    const wasm = await fetch(
      `${api.url}/door/vendor/zxing/reader/zxing_reader.wasm`,
    );
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect((await wasm.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    // The built client is pointed at the vendored openapi-fetch: no import map needed.
    const client = await (
      await fetch(`${api.url}/door/client/index.js`)
    ).text();
    expect(client).toContain("from '/door/vendor/openapi-fetch.mjs'");
    // Nothing else of the folder, and nothing but GET and HEAD.
    expect((await fetch(`${api.url}/door/../package.json`)).status).toBe(404);
    expect((await fetch(`${api.url}/door/index.html`)).status).toBe(404);
    const post = await fetch(`${api.url}/door`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});

describe('from a phone on the LAN, over plain HTTP', () => {
  let page: Page;
  let errors: string[];
  let prompts: string[];
  let stopWatching: () => Promise<void>;
  const door = () => `http://${LAN_HOST}:${api.port}/door`;

  beforeAll(async () => {
    page = await browser.context.newPage();
    errors = collectErrors(page);
    await recordSignals(page);
    ({ prompts, stop: stopWatching } = await watchSignInPrompts(page));
  });
  afterAll(() => page.close());

  it('asks for the key first, and says the camera and offline loading need HTTPS', async () => {
    const res = await page.goto(door());
    expect(res?.status()).toBe(200);
    await page.locator('body[data-state="no-key"]').waitFor();
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await page.evaluate(() => typeof crypto.randomUUID)).toBe(
      'undefined',
    );
    expect(await result(page).locator('.verdict').textContent()).toContain(
      'Enter the door key',
    );
    await expect(page.locator('#camera-button').isDisabled()).resolves.toBe(
      true,
    );
    expect(await page.locator('#camera-note').textContent()).toContain(
      'HTTPS or localhost',
    );
    expect(await page.locator('#offline-note').textContent()).toContain(
      'plain HTTP',
    );
    await shot(page, 'key');
  });

  it('says at once that a key is wrong, with no sign-in prompt of the browser', async () => {
    const answer = page.waitForResponse((res) =>
      res.url().includes('/v1/events'),
    );
    await page.getByLabel('A key of scope check_in').fill('sk_wrong_key_1');
    await page.getByRole('button', { name: 'Save' }).click();
    const res = await answer;
    // The 401 names Basic, which makes browsers prompt; the app's request keeps it its own.
    expect(res.status()).toBe(401);
    expect(res.headers()['www-authenticate']).toMatch(/^Basic /);
    await page.locator('body[data-state="bad-key"]').waitFor();
    expect(await result(page).locator('.verdict').textContent()).toBe(
      '✗ Wrong door key: enter the key again (Door key, below)',
    );
    expect(await result(page).getAttribute('data-outcome')).toBe('error');
    expect(prompts).toEqual([]);
    await shot(page, 'wrong-key');
  });

  it('keeps the right key, lists the events to come, the next first', async () => {
    await page.getByLabel('A key of scope check_in').fill(KEY);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('body[data-state="ready"]').waitFor();
    expect(
      await page
        .locator('#event option')
        .evaluateAll((options) =>
          options.map((o) => (o as HTMLOptionElement).value),
        ),
    ).toEqual(events.map((e) => e.id));
    expect(await page.locator('#event').inputValue()).toBe(events[0].id);
    expect(await page.evaluate(() => localStorage.length)).toBeGreaterThan(0);
    // The code field has the focus: a handheld scanner types into it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      'barcode',
    );
    expect(prompts).toEqual([]);
    // Intercepting every request was for the sign-in check alone: the offline spells below
    // go without it.
    await stopWatching();
  });

  it('takes the keyboard in a useful order: event, code, In/Out, Scan, then the look-up', async () => {
    await page.locator('#event').focus();
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      order.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          return el.id || el.textContent?.trim() || el.tagName;
        }),
      );
      await page.keyboard.press('Tab');
    }
    // The camera's button is left out here: disabled over plain HTTP.
    expect(order).toEqual([
      'event',
      'barcode',
      'direction',
      'Scan',
      'search',
      'Find',
      'Door key',
    ]);
    await page.locator('#barcode').focus();
  });

  it('checks a ticket in: green, with the holder, the ticket type and the event, a beep and a buzz', async () => {
    const ticket = fresh[0];
    await scanner(page, ticket.barcode);
    const shown = await answered(page, ticket.barcode, 'recorded');
    const [recorded] = await scansOf(ticket);
    expect(recorded.quantity).toBe(1);
    expect(shown.scannedAt).toBe(String(recorded.check_in_at));
    expect(shown.verdict).toBe('✓ IN');
    expect(shown.who).toBe(ticket.full_name);
    expect(shown.what).toBe(`${ticket.description} · ${events[0].name}`);
    expect(await background(page)).toBe('rgb(10, 125, 44)');
    expect(await contrast(page, '#result')).toBeGreaterThanOrEqual(4.5);
    // Cleared once sent, the focus kept.
    expect(await page.locator('#barcode').inputValue()).toBe('');
    expect(await signals(page)).toEqual([
      ['vibrate', 80],
      ['beep', 1320],
    ]);
    await shot(page, 'in');
  });

  it('shows the live counter: inside of valid tickets', async () => {
    const numbers = await apiGet<{
      checked_in: number;
      tickets_valid: number;
    }>(`/v1/events/${events[0].id}/attendance`);
    await page
      .locator('#inside', { hasText: String(numbers.checked_in) })
      .waitFor();
    expect(await page.locator('#valid').textContent()).toBe(
      String(numbers.tickets_valid),
    );
    expect(numbers.checked_in).toBeGreaterThan(0);
  });

  it('refuses it again: red, with the time of the scan that let it in', async () => {
    const ticket = fresh[0];
    await scanner(page, ticket.barcode);
    const shown = await answered(page, ticket.barcode, 'refused');
    const [first] = await scansOf(ticket);
    expect(shown.reason).toBe('ALREADY_CHECKED_IN');
    const time = await page.evaluate(
      (unix) => new Date(unix * 1000).toLocaleTimeString(),
      first.check_in_at,
    );
    expect(shown.verdict).toBe(`✗ Already checked in at ${time}`);
    expect(await background(page)).toBe('rgb(176, 0, 32)');
    expect(await contrast(page, '#result')).toBeGreaterThanOrEqual(4.5);
    expect((await signals(page)).slice(-2)).toEqual([
      ['vibrate', [200, 100, 200]],
      ['beep', 220],
    ]);
    expect(await scansOf(ticket)).toHaveLength(1);
    await shot(page, 'refused');
  });

  it('checks out with the large In/Out toggle, which gives the focus back to the code field: EXIT, in blue', async () => {
    const toggle = page.locator('#direction');
    const box = await toggle.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      'barcode',
    );
    expect(await contrast(page, '#direction')).toBeGreaterThanOrEqual(4.5);
    await scanner(page, fresh[0].barcode);
    const shown = await answered(page, fresh[0].barcode, 'recorded');
    expect(shown.direction).toBe('out');
    expect(shown.verdict).toBe('EXIT');
    expect(shown.who).toBe(fresh[0].full_name);
    expect(await background(page)).toBe('rgb(11, 79, 138)');
    expect(await contrast(page, '#result')).toBeGreaterThanOrEqual(4.5);
    expect((await scansOf(fresh[0])).map((s) => s.quantity)).toEqual([1, -1]);
    await shot(page, 'exit');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
  });

  it('says what went wrong with a code the service does not know', async () => {
    await scanner(page, 'NO-SUCH-CODE');
    const shown = await answered(page, 'NO-SUCH-CODE', 'error');
    expect(shown.verdict).toBe('✗ Unknown ticket');
    expect(await contrast(page, '#result')).toBeGreaterThanOrEqual(4.5);
  });

  it('refuses a ticket of another event, naming that event', async () => {
    await scanner(page, otherEvent.barcode);
    const shown = await answered(page, otherEvent.barcode, 'refused');
    expect(shown.reason).toBe('WRONG_EVENT');
    expect(shown.verdict).toBe(`✗ Wrong event: for ${events[1].name}`);
    expect(shown.who).toBe(otherEvent.full_name);
    expect(await scansOf(otherEvent)).toEqual([]);
  });

  it('refuses a void ticket, online and, once synced, offline', async () => {
    const ticket = fresh[5];
    const voided = await fetch(
      `${api.url}/v1/issued_tickets/${ticket.id}/void`,
      {
        method: 'POST',
        headers: { Authorization: `Basic ${btoa(`${KEY}:`)}` },
      },
    );
    expect(voided.status).toBe(200);
    await scanner(page, ticket.barcode);
    let shown = await answered(page, ticket.barcode, 'refused');
    expect(shown.reason).toBe('TICKET_VOID');
    expect(shown.verdict).toBe('✗ Ticket void');
    expect(shown.who).toBe(ticket.full_name);
    // A load syncs the phone's copy, which then knows the ticket is void.
    await page.reload();
    await page.locator('body[data-state="ready"]').waitFor();
    await page.waitForFunction(
      (barcode) =>
        JSON.parse(localStorage.getItem('box-office-door-tickets') ?? '{}')
          .tickets?.[barcode]?.status === 'void',
      ticket.barcode,
    );
    await browser.context.setOffline(true);
    await page.locator('body[data-online="false"]').waitFor();
    await scanner(page, ticket.barcode);
    shown = await answered(page, ticket.barcode, 'refused');
    expect(shown.verdict).toBe('✗ Ticket void (offline)');
    expect(await page.locator('#queue-count').textContent()).toBe('0');
    await browser.context.setOffline(false);
    await page.locator('body[data-online="true"]').waitFor();
    expect(await scansOf(ticket)).toEqual([]);
  });

  it('finds a ticket by its holder’s name and checks it in from the result', async () => {
    const ticket = fresh[1];
    const name = ticket.full_name ?? '';
    await page.getByLabel('Find by name').fill(name);
    await page.getByLabel('Find by name').press('Enter');
    const item = page.locator(
      `#search-results li[data-barcode="${ticket.barcode}"]`,
    );
    await item.waitFor();
    await shot(page, 'search');
    await item.getByRole('button', { name: `Check in ${name}` }).click();
    const shown = await answered(page, ticket.barcode, 'recorded');
    expect(shown.who).toBe(name);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      'barcode',
    );
    expect(await scansOf(ticket)).toHaveLength(1);
  });

  it('judges scans on the phone while offline, queues those it lets in, and sends them once when the network returns', async () => {
    const [, , queuedIn, laterRefused] = fresh;
    // The phone's copy of the tickets is synced first.
    await page.locator('body[data-synced]').waitFor();
    await browser.context.setOffline(true);
    await page.locator('body[data-online="false"]').waitFor();

    await scanner(page, queuedIn.barcode);
    let shown = await answered(page, queuedIn.barcode, 'queued');
    expect(shown.who).toBe(queuedIn.full_name);
    expect(shown.verdict).toBe('✓ IN (offline: will be sent)');
    expect(await page.locator('#barcode').inputValue()).toBe('');
    expect(await contrast(page, '#result')).toBeGreaterThanOrEqual(4.5);
    // Again: the phone knows the queued scan let it in.
    await scanner(page, queuedIn.barcode);
    shown = await answered(page, queuedIn.barcode, 'refused');
    expect(shown.verdict).toBe('✗ Already checked in (offline)');
    await scanner(page, 'NO-SUCH-CODE');
    shown = await answered(page, 'NO-SUCH-CODE', 'refused');
    expect(shown.verdict).toBe('✗ Unknown ticket (offline)');
    await scanner(page, otherEvent.barcode);
    shown = await answered(page, otherEvent.barcode, 'refused');
    expect(shown.verdict).toBe(
      `✗ Wrong event: for ${events[1].name} (offline)`,
    );
    // Let in by the phone, but recorded meanwhile by another gate: the service refuses it later.
    await scanner(page, laterRefused.barcode);
    await answered(page, laterRefused.barcode, 'queued');
    expect(await page.locator('#queue-count').textContent()).toBe('2');
    expect(await scansOf(queuedIn)).toEqual([]);
    await shot(page, 'offline');

    const queued = (await page.evaluate(() =>
      JSON.parse(localStorage.getItem('box-office-door-queue') ?? '[]'),
    )) as { idempotencyKey: string; madeAt: number; eventId: string }[];
    expect(queued.map((s) => s.eventId)).toEqual([events[0].id, events[0].id]);
    for (const scan of queued) {
      expect(scan.idempotencyKey).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    const gate = await fetch(`${api.url}/v1/check_ins`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${btoa(`${KEY}:`)}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ barcode: laterRefused.barcode }),
    });
    expect(gate.status).toBe(201);
    // Made a second or more before they are recorded: check_in_at < created_at shows it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    await browser.context.setOffline(false);
    await page.locator('#queue-count', { hasText: '0' }).waitFor();
    const history = page.locator('#history > li[data-offline="true"]');
    await page
      .locator(
        `#history > li[data-barcode="${laterRefused.barcode}"][data-outcome="refused"]`,
      )
      .waitFor();
    expect(
      await history.evaluateAll((items) =>
        items
          .filter(
            (li) => !['queued'].includes((li as HTMLElement).dataset.outcome!),
          )
          .slice(0, 2)
          .map((li) => [
            (li as HTMLElement).dataset.barcode,
            (li as HTMLElement).dataset.outcome,
          ]),
      ),
    ).toEqual([
      [laterRefused.barcode, 'refused'],
      [queuedIn.barcode, 'recorded'],
    ]);
    const [entry] = await scansOf(queuedIn);
    expect(entry.check_in_at).toBe(queued[0].madeAt);
    expect(entry.check_in_at).toBeLessThan(entry.created_at);
    expect(await scansOf(laterRefused)).toHaveLength(1);
    await shot(page, 'synced');
    // Chromium logs every 4xx as a failed resource: the refusals and the wrong key are answers.
    expect(
      errors.filter((e) => !/responded with a status of (401|404|409)/.test(e)),
    ).toEqual([]);
  });
  it('says so when the key may only read: its scans are refused by the service', async () => {
    await page.locator('#settings summary').click();
    await page
      .getByLabel('A key of scope check_in')
      .fill('sk_demo_boxoffice_2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('body[data-state="ready"]').waitFor();
    await scanner(page, fresh[6].barcode);
    const shown = await answered(page, fresh[6].barcode, 'error');
    expect(shown.verdict).toBe(
      '✗ This key cannot record scans: it needs the check_in scope',
    );
    expect(await scansOf(fresh[6])).toEqual([]);
  });

  it('takes a key scanned into the code field (a QR code of the key) as the phone’s key', async () => {
    await scanner(page, KEY);
    await page.locator('body[data-state="ready"]').waitFor();
    expect(
      await page.evaluate(() =>
        localStorage.getItem('box-office-door-api-key'),
      ),
    ).toBe(KEY);
    expect(await page.locator('#barcode').inputValue()).toBe('');
    await scanner(page, fresh[6].barcode);
    const shown = await answered(page, fresh[6].barcode, 'recorded');
    expect(shown.who).toBe(fresh[6].full_name);
    expect(await scansOf(fresh[6])).toHaveLength(1);
  });
});

describe('on localhost: the camera, and the page kept for a reload with no network', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    await browser.context.grantPermissions(['camera'], { origin: api.url });
    page = await browser.context.newPage();
    errors = collectErrors(page);
  });
  afterAll(() => page.close());

  it('takes the key from the address once, and keeps it off the address', async () => {
    await page.goto(`${api.url}/door?key=${KEY}`);
    await page.locator('body[data-state="ready"]').waitFor();
    expect(page.url()).toBe(`${api.url}/door`);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    expect(
      await page.evaluate(() =>
        localStorage.getItem('box-office-door-api-key'),
      ),
    ).toBe(KEY);
  });

  it('reads a ticket’s QR code from the camera and checks it in', async () => {
    await page.locator('#camera-button').click();
    await page.locator('body[data-decoder]').waitFor();
    // Chromium on Linux has no BarcodeDetector: the served zxing-wasm decodes.
    expect(await page.locator('body').getAttribute('data-decoder')).toBe(
      (await page.evaluate(() => 'BarcodeDetector' in window))
        ? 'BarcodeDetector'
        : 'zxing-wasm',
    );
    const shown = await answered(page, cameraTicket.barcode, 'recorded');
    expect(shown.who).toBe(cameraTicket.full_name);
    await shot(page, 'camera');
    await page.locator('#camera-stop').click();
    expect(await scansOf(cameraTicket)).toHaveLength(1);
  });

  it('loads with no network from its service worker, keeps scans and history across reloads, and sends them later', async () => {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // A controlled page: the worker answers its next load.
    await page.reload();
    await page.locator('body[data-state="ready"]').waitFor();
    await page.waitForFunction(
      () => navigator.serviceWorker.controller !== null,
    );
    await page.locator('body[data-synced]').waitFor();

    await browser.context.setOffline(true);
    served.length = 0;
    const offlineLoad = await page.reload();
    expect(offlineLoad?.fromServiceWorker()).toBe(true);
    await page.locator('body[data-online="false"]').waitFor();
    await page.locator('body[data-state="ready"]').waitFor();
    expect(await page.locator('#event').inputValue()).toBe(events[0].id);
    const ticket = fresh[4];
    await page.locator('#barcode').focus();
    await scanner(page, ticket.barcode);
    await answered(page, ticket.barcode, 'queued');
    const historyBefore = await page.locator('#history > li').count();

    // Reloaded again, still offline: the queue and the history are still there.
    await page.reload();
    await page.locator('body[data-state="ready"]').waitFor();
    expect(await page.locator('#queue-count').textContent()).toBe('1');
    expect(
      await page.locator('#queue > li').first().getAttribute('data-barcode'),
    ).toBe(ticket.barcode);
    expect(await page.locator('#history > li').count()).toBe(historyBefore);
    expect(served).toEqual([]);

    await browser.context.setOffline(false);
    await page.locator('#queue-count', { hasText: '0' }).waitFor();
    await page
      .locator(
        `#history > li[data-barcode="${ticket.barcode}"][data-outcome="recorded"]`,
      )
      .waitFor();
    expect(await scansOf(ticket)).toHaveLength(1);
    // Requests made while offline fail (the worker's refresh of its files, the API's calls).
    expect(
      errors.filter(
        (e) =>
          !/responded with a status of (404|409)|net::ERR_INTERNET_DISCONNECTED/.test(
            e,
          ),
      ),
    ).toEqual([]);
  });
});

describe('a phone whose storage cannot hold every event’s tickets', () => {
  let page: Page;

  beforeAll(async () => {
    page = await browser.context.newPage();
    // The copy of several events' tickets does not fit; one event's does.
    await page.addInitScript(() => {
      const setItem = Object.getOwnPropertyDescriptor(
        Storage.prototype,
        'setItem',
      )?.value as (this: Storage, key: string, value: string) => void;
      Storage.prototype.setItem = function (key: string, value: string) {
        if (
          key === 'box-office-door-tickets' &&
          (JSON.parse(value) as { events: string[] }).events.length > 1
        ) {
          throw new DOMException('full', 'QuotaExceededError');
        }
        setItem.call(this, key, value);
      };
    });
  });
  afterAll(() => page.close());

  it('keeps the chosen event’s tickets alone, and judges offline from them', async () => {
    await page.goto(`${api.url}/door`);
    await page.locator(`body[data-synced-events="${events[0].id}"]`).waitFor();
    const kept = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('box-office-door-tickets') ?? '{}') as {
          events: string[];
          tickets: Record<string, { eventId: string }>;
        },
    );
    expect(kept.events).toEqual([events[0].id]);
    expect(new Set(Object.values(kept.tickets).map((t) => t.eventId))).toEqual(
      new Set([events[0].id]),
    );
    await browser.context.setOffline(true);
    await page.locator('body[data-online="false"]').waitFor();
    await page.locator('#barcode').focus();
    await scanner(page, otherEvent.barcode);
    const shown = await answered(page, otherEvent.barcode, 'refused');
    expect(shown.verdict).toBe('✗ Unknown ticket (offline)');
    await browser.context.setOffline(false);
  });
});

describe('a browser with its own BarcodeDetector (Android Chrome)', () => {
  let page: Page;

  beforeAll(async () => {
    page = await browser.context.newPage();
    // Chromium on Linux has none: a stand-in that sees one code in the picture.
    await page.addInitScript((code: string) => {
      class StandInDetector {
        static getSupportedFormats() {
          return Promise.resolve(['qr_code', 'code_128']);
        }
        detect(source: HTMLVideoElement) {
          return Promise.resolve(
            source.videoWidth > 0 ? [{ rawValue: code }] : [],
          );
        }
      }
      Object.assign(window, { BarcodeDetector: StandInDetector });
    }, fresh[2].barcode);
  });
  afterAll(() => page.close());

  it('reads codes with it rather than with zxing-wasm', async () => {
    await page.goto(`${api.url}/door`);
    await page.locator('body[data-state="ready"]').waitFor();
    await page.locator('#camera-button').click();
    await page.locator('body[data-decoder="BarcodeDetector"]').waitFor();
    // fresh[2] came in during the LAN's offline spell: the service refuses it, with its name.
    const shown = await answered(page, fresh[2].barcode, 'refused');
    expect(shown.reason).toBe('ALREADY_CHECKED_IN');
    expect(shown.who).toBe(fresh[2].full_name);
    await page.locator('#camera-stop').click();
  });
});

import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import dns from 'node:dns/promises';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { changeHead, changePage } from '../src/changes/change-feed';
import { MAX_BODY_BYTES } from '../src/common/http/request-body';
import { WEBHOOK_EVENT_CHOICES } from '../src/webhooks/dto/webhook-endpoint-write.dto';
import { deleteOldDeliveries } from '../src/webhooks/webhook-deliveries-retention';
import { WebhookSender } from '../src/webhooks/webhook-sender';
import { errorBody } from './utils/api';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';

// Webhooks (docs/API.md, "Webhooks"), from outside: a real receiver on 127.0.0.1, which only a
// service with WEBHOOK_ALLOW_PRIVATE_URLS=true may reach. On SQLite by default, on PostgreSQL
// under `npm run test:e2e:postgres`.

const WRITE_KEY = 'sk_test_webhooks_write';
const READ_KEY = 'sk_test_webhooks_read';
const OTHER_KEY = 'sk_test_webhooks_other';
const METRICS_TOKEN = 'webhooks-e2e-metrics-token-0123456789abcdef';
const SECRET_KEY = 'a1'.repeat(32);

type Json = Record<string, unknown>;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: Json;
}

/** A receiver on the loopback interface: what it got, per path; answers as `answer` says. */
class Receiver {
  readonly got = new Map<string, Received[]>();
  readonly answers = new Map<string, number[]>();
  /** How long the answer takes, per path (a few milliseconds unless set). */
  readonly delays = new Map<string, number>();
  /** Requests being answered, and the most at once, per path (per endpoint). */
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const at = req.url ?? '/';
      const now = (this.inFlight.get(at) ?? 0) + 1;
      this.inFlight.set(at, now);
      this.maxInFlight.set(at, Math.max(this.maxInFlight.get(at) ?? 0, now));
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const list = this.got.get(path) ?? [];
        list.push({
          headers: req.headers,
          body,
          json: JSON.parse(body) as Json,
        });
        this.got.set(path, list);
        const status = this.answers.get(path)?.shift() ?? 200;
        // Answered a moment later, so that a second send to the same endpoint would overlap.
        setTimeout(
          () => {
            this.inFlight.set(at, this.inFlight.get(at)! - 1);
            res.writeHead(status).end('ok');
          },
          this.delays.get(path) ?? 5,
        );
      });
    });
    await new Promise<void>((resolve) =>
      this.server.listen(0, '127.0.0.1', resolve),
    );
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  of(path: string): Received[] {
    return this.got.get(path) ?? [];
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `done()` holds, checking every 20 ms, for at most `ms`: then fails with `what`. */
async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(20);
  }
}

describe('webhooks', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let receiver: Receiver;
  let path = 0;

  const as = (key: string) => ({
    get: (url: string) =>
      request(t.server).get(url).set('Authorization', basicAuth(key)),
    post: (url: string, body: Json | string = {}) => {
      const req = request(t.server)
        .post(url)
        .set('Authorization', basicAuth(key));
      return typeof body === 'string'
        ? req.type('form').send(body)
        : req.send(body);
    },
    delete: (url: string) =>
      request(t.server).delete(url).set('Authorization', basicAuth(key)),
  });
  const writer = () => as(WRITE_KEY);

  /** A new endpoint at a path of the receiver of its own. */
  async function endpoint(fields: Json = {}) {
    const at = `/hook/${++path}`;
    const res = await writer().post('/v1/webhook_endpoints', {
      url: `${receiver.base}${at}`,
      enabled_events: ['*'],
      ...fields,
    });
    expect(res.status).toBe(201);
    return { at, id: res.body.id as string, secret: res.body.secret as string };
  }

  /** A change of the box office: a new event series (EVENT_SERIES.CREATED); its entry. */
  async function change(boxOfficeId = office) {
    const head = await changeHead(t.dataSource, boxOfficeId);
    await f.series(boxOfficeId, { name: `Series ${Math.random()}` });
    // Read as the feed reads: its head first (on PostgreSQL that numbers the entry waiting).
    await changeHead(t.dataSource, boxOfficeId);
    const entries = await changePage(t.dataSource, {
      boxOfficeId,
      after: head,
      limit: 100,
    });
    expect(entries.map((e) => e.type)).toEqual(['EVENT_SERIES.CREATED']);
    return entries[0];
  }

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX: '1000000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_SECRET_KEY: SECRET_KEY,
      METRICS_TOKEN: METRICS_TOKEN,
    });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('A')).id;
    const other = (await f.boxOffice('B')).id;
    await f.apiKey(office, WRITE_KEY, false, 'write');
    await f.apiKey(office, READ_KEY);
    await f.apiKey(other, OTHER_KEY, false, 'write');
    receiver = new Receiver();
    await receiver.start();
  });

  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  describe('endpoints', () => {
    it('creates one (201, its secret shown once), retrieves, lists, changes and deletes it', async () => {
      const url = `${receiver.base}/hook/crud`;
      const created = await writer().post('/v1/webhook_endpoints', {
        url,
        enabled_events: ['ORDER.CREATED', 'ORDER.UPDATED'],
        description: 'CRM sync',
      });
      expect(created.status).toBe(201);
      const endpoint = {
        object: 'webhook_endpoint',
        id: expect.stringMatching(/^we_[1-9]\d*$/),
        url,
        description: 'CRM sync',
        enabled_events: ['ORDER.CREATED', 'ORDER.UPDATED'],
        status: 'enabled',
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      };
      expect(created.body).toEqual({
        ...endpoint,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const id = created.body.id as string;
      expect(created.headers.location).toBe(`/v1/webhook_endpoints/${id}`);
      // An answer to a write is never stored, as every write's (docs/API.md, "Cache-Control").
      expect(created.headers['cache-control']).toBe('no-store');

      // Never shown again, to any key; stored sealed or tagged, never as the bare secret.
      const read = await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ ...endpoint, id });
      const [stored] = await t.dataSource.query<{ secret: string }[]>(
        `SELECT secret FROM webhook_endpoints WHERE id = ${id.slice(3)}`,
      );
      expect(stored.secret).not.toBe(created.body.secret);

      const list = await as(READ_KEY).get('/v1/webhook_endpoints?limit=100');
      expect(list.status).toBe(200);
      expect(list.body.data).toContainEqual({ ...endpoint, id });

      const changed = await writer().post(
        `/v1/webhook_endpoints/${id}`,
        'enabled_events=ORDER.*&status=disabled'.replace(
          'ORDER.*',
          'EVENT.CREATED,EVENT.UPDATED',
        ),
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        ...endpoint,
        id,
        enabled_events: ['EVENT.CREATED', 'EVENT.UPDATED'],
        status: 'disabled',
      });

      const deleted = await writer().delete(`/v1/webhook_endpoints/${id}`);
      expect(deleted.status).toBe(200);
      expect([changed, deleted].map((r) => r.headers['cache-control'])).toEqual(
        ['no-store', 'no-store'],
      );
      expect(deleted.body).toEqual(changed.body);
      expect(
        (await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`)).status,
      ).toBe(404);
    });

    it('needs scope write to change them: a read key is 403 and changes nothing', async () => {
      const res = await as(READ_KEY).post('/v1/webhook_endpoints', {
        url: `${receiver.base}/hook/never`,
        enabled_events: ['*'],
      });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('FORBIDDEN');
      expect(res.body.message).toMatch(/write/);
      const { id } = await endpoint();
      for (const attempt of [
        as(READ_KEY).post(`/v1/webhook_endpoints/${id}`, {
          status: 'disabled',
        }),
        as(READ_KEY).delete(`/v1/webhook_endpoints/${id}`),
        as(READ_KEY).post(`/v1/webhook_endpoints/${id}/replay`, {
          starting_after: 'chg_0',
        }),
      ]) {
        expect((await attempt).status).toBe(403);
      }
      expect(
        (await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`)).body.status,
      ).toBe('enabled');
    });

    it("shows another box office's endpoint nowhere (404)", async () => {
      const { id } = await endpoint();
      const them = as(OTHER_KEY);
      const message = `No webhook endpoint ${id} in this box office`;
      for (const res of [
        await them.get(`/v1/webhook_endpoints/${id}`),
        await them.get(`/v1/webhook_endpoints/${id}/deliveries`),
        await them.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' }),
        await them.delete(`/v1/webhook_endpoints/${id}`),
        await them.post(`/v1/webhook_endpoints/${id}/replay`, {
          starting_after: 'chg_0',
        }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorBody(404, 'NOT_FOUND', message));
      }
      expect((await them.get('/v1/webhook_endpoints')).body.data).toEqual([]);
    });

    it('answers a retried create with the same bytes, secret included, kept sealed', async () => {
      const post = (key: string, body: Json | string) =>
        writer()
          .post('/v1/webhook_endpoints', body)
          .set('Idempotency-Key', key);
      const fields = {
        url: `${receiver.base}/hook/retried`,
        enabled_events: ['ORDER.CREATED'],
      };
      const first = await post('create-retried', fields);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const secret = first.body.secret as string;
      // The same request again, and as form fields with local_unique_id: the first answer.
      for (const again of [
        await post('create-retried', fields),
        await writer().post(
          '/v1/webhook_endpoints',
          `url=${encodeURIComponent(fields.url)}&enabled_events=ORDER.CREATED&local_unique_id=create-retried`,
        ),
      ]) {
        expect(again.status).toBe(201);
        expect(again.text).toBe(first.text);
        expect(again.headers.location).toBe(first.headers.location);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.headers['cache-control']).toBe('no-store');
      }
      const [{ n }] = await t.dataSource.query<{ n: unknown }[]>(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE url = '${fields.url}'`,
      );
      expect(Number(n)).toBe(1);
      // Kept for 24 hours as the endpoint's row keeps the secret: sealed under WEBHOOK_SECRET_KEY.
      const [kept] = await t.dataSource.query<{ response_body: string }[]>(
        `SELECT response_body FROM idempotency_keys WHERE idempotency_key = 'create-retried'`,
      );
      expect(kept.response_body).not.toContain(secret);
      expect(kept.response_body).not.toContain(secret.slice('whsec_'.length));
      expect(JSON.parse(kept.response_body)).toEqual({
        ...first.body,
        secret: expect.stringMatching(/^aes256gcm:/),
      });

      // Another request with the key: 422; a malformed key: 400, before the URL is looked at.
      const other = await post('create-retried', {
        ...fields,
        enabled_events: ['*'],
      });
      expect(other.status).toBe(422);
      expect(other.body.error_code).toBe('IDEMPOTENCY_KEY_REUSED');
      const bad = await post('k'.repeat(256), {
        ...fields,
        url: 'ftp://example.com/refused-after-the-key',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/Idempotency-Key/);
    });

    it('answers a retried change, replay and delete the first answer, writing nothing more', async () => {
      const { id } = await endpoint();
      const keyed = (key: string) => ({
        post: (url: string, body: Json) =>
          writer().post(url, body).set('Idempotency-Key', key),
        delete: (url: string) =>
          writer().delete(url).set('Idempotency-Key', key),
      });
      const change = () =>
        keyed('change-once').post(`/v1/webhook_endpoints/${id}`, {
          description: 'first',
        });
      const changed = await change();
      expect(changed.status).toBe(200);
      // Changed again without the key, then the keyed retry: the first answer, not the row now.
      await writer().post(`/v1/webhook_endpoints/${id}`, {
        description: 'second',
      });
      const retried = await change();
      expect(retried.status).toBe(200);
      expect(retried.text).toBe(changed.text);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(
        (await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`)).body
          .description,
      ).toBe('second');

      const replay = () =>
        keyed('replay-once').post(`/v1/webhook_endpoints/${id}/replay`, {
          starting_after: 'chg_0',
        });
      const replayed = await replay();
      expect(replayed.status).toBe(202);
      expect(replayed.headers['cache-control']).toBe('no-store');
      const again = await replay();
      expect(again.status).toBe(202);
      expect(again.text).toBe(replayed.text);
      expect(again.headers['idempotent-replayed']).toBe('true');

      const remove = () =>
        keyed('delete-once').delete(`/v1/webhook_endpoints/${id}`);
      const deleted = await remove();
      expect(deleted.status).toBe(200);
      const deletedAgain = await remove();
      expect(deletedAgain.status).toBe(200);
      expect(deletedAgain.text).toBe(deleted.text);
      expect(deletedAgain.headers['idempotent-replayed']).toBe('true');
      // Without the key, a second delete finds nothing.
      const unkeyed = await writer().delete(`/v1/webhook_endpoints/${id}`);
      expect(unkeyed.status).toBe(404);
      // A 404 is not kept: the key stays free for the request it was meant for.
      const missing = await keyed('after-404').delete(
        `/v1/webhook_endpoints/${id}`,
      );
      expect(missing.status).toBe(404);
      const [{ n }] = await t.dataSource.query<{ n: unknown }[]>(
        `SELECT count(*) AS n FROM idempotency_keys WHERE idempotency_key = 'after-404'`,
      );
      expect(Number(n)).toBe(0);
    });

    it('takes the largest valid create as form fields and as JSON; one byte more is 413', async () => {
      // A URL of 2,048 characters, each past the host a `/` (3 bytes as a form field), the
      // longest description in characters of 3 UTF-8 bytes (9 as a form field), every event and
      // the longest local_unique_id, of characters JSON and forms both escape.
      const prefix = `${receiver.base}/`;
      const raw = (type: string, body: string) =>
        request(t.server)
          .post('/v1/webhook_endpoints')
          .set('Authorization', basicAuth(WRITE_KEY))
          .type(type)
          .send(body);
      const largest = (n: number) => ({
        url: prefix + '/'.repeat(2048 - prefix.length),
        enabled_events: WEBHOOK_EVENT_CHOICES.slice(1),
        description: '€'.repeat(500),
        local_unique_id: `largest-${n}-`.padEnd(255, '\\'),
      });
      const asJson = largest(1);
      const json = JSON.stringify(asJson);
      const asForm = largest(2);
      const form = new URLSearchParams({
        ...asForm,
        enabled_events: asForm.enabled_events.join(','),
      }).toString();
      expect(Buffer.byteLength(form)).toBeGreaterThan(11_000);
      expect(Buffer.byteLength(form)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      for (const [type, body] of [
        ['json', json],
        ['form', form],
      ]) {
        const res = await raw(type, body);
        expect({ type, status: res.status }).toEqual({ type, status: 201 });
        expect(res.body.url).toBe(asJson.url);
        expect(res.body.description).toBe(asJson.description);
      }
      // The limit itself, to the byte: a body of MAX_BODY_BYTES is read (its description too
      // long: 400), one of a byte more is not (413).
      const ofBytes = (n: number) => {
        const shell = JSON.stringify({ url: prefix, description: '' });
        const body = JSON.stringify({
          url: prefix,
          description: 'x'.repeat(n - Buffer.byteLength(shell)),
        });
        expect(Buffer.byteLength(body)).toBe(n);
        return raw('json', body);
      };
      const atLimit = await ofBytes(MAX_BODY_BYTES);
      expect(atLimit.status).toBe(400);
      expect(atLimit.body.error_code).toBe('VALIDATION_ERROR');
      const over = await ofBytes(MAX_BODY_BYTES + 1);
      expect(over.status).toBe(413);
      expect(over.body).toEqual(
        errorBody(
          413,
          'PAYLOAD_TOO_LARGE',
          `The request body must not exceed ${MAX_BODY_BYTES} bytes`,
        ),
      );
    });

    it('refuses bad fields with 400 VALIDATION_ERROR, each named', async () => {
      const res = await writer().post('/v1/webhook_endpoints', {
        url: 42,
        enabled_events: ['ORDER.SHIPPED'],
      });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('VALIDATION_ERROR');
      expect(
        (res.body.errors as { field: string }[]).map((e) => e.field),
      ).toEqual(['url', 'enabled_events']);
      const long = await writer().post('/v1/webhook_endpoints', {
        url: `https://example.com/${'a'.repeat(2048)}`,
        enabled_events: ['*'],
      });
      expect(long.status).toBe(400);
      expect(long.body.message).toBe('url must be at most 2048 characters');
      // A URL as RFC 3986 writes it: printable ASCII (format uri), a space or a € refused.
      for (const url of ['https://example.com/a b', 'https://example.com/€']) {
        const res = await writer().post('/v1/webhook_endpoints', {
          url,
          enabled_events: ['*'],
        });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(
          'url must be printable ASCII without spaces: percent-encode other characters, and write an international domain name in punycode',
        );
      }
    });
  });

  describe('deliveries', () => {
    it('sends each event with its resource, signed both ways', async () => {
      const { at, secret } = await endpoint();
      const entry = await change();
      await until('the delivery', () => receiver.of(at).length === 1);
      const [got] = receiver.of(at);
      const resource = await as(READ_KEY).get(
        `/v1/event_series/es_${entry.resourceId}`,
      );
      expect(got.json).toEqual({
        id: `wh_${entry.id}`,
        created_at: entry.createdAt,
        event: 'EVENT_SERIES.CREATED',
        payload: resource.body,
        resource_url: `/v1/event_series/es_${entry.resourceId}`,
      });
      // Ticket Tailor's: hex HMAC-SHA256 of t and the body, keyed with the whole secret.
      const header = String(got.headers['tickettailor-webhook-signature']);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(match).not.toBeNull();
      expect(match![2]).toBe(
        createHmac('sha256', secret)
          .update(`${match![1]}${got.body}`)
          .digest('hex'),
      );
      // Standard Webhooks', verified by its own library.
      expect(got.headers['webhook-id']).toBe(`wh_${entry.id}`);
      expect(got.headers['webhook-timestamp']).toBe(match![1]);
      expect(
        new Webhook(secret).verify(got.body, {
          'webhook-id': String(got.headers['webhook-id']),
          'webhook-timestamp': String(got.headers['webhook-timestamp']),
          'webhook-signature': String(got.headers['webhook-signature']),
        }),
      ).toEqual(got.json);
      expect(() =>
        new Webhook(secret).verify(`${got.body} `, {
          'webhook-id': String(got.headers['webhook-id']),
          'webhook-timestamp': String(got.headers['webhook-timestamp']),
          'webhook-signature': String(got.headers['webhook-signature']),
        }),
      ).toThrow();
    });

    it('sends only the changes made after the endpoint was created, and only its events', async () => {
      const before = await change();
      const { at } = await endpoint({
        enabled_events: ['EVENT_SERIES.UPDATED'],
      });
      const { at: all } = await endpoint();
      const created = await change();
      await t.dataSource.query(
        `UPDATE event_series SET name = 'Renamed' WHERE id = ${created.resourceId}`,
      );
      await until(
        'both events at the * endpoint',
        () => receiver.of(all).length === 2,
      );
      await until('the update', () => receiver.of(at).length === 1);
      expect(receiver.of(all).map((r) => r.json.event)).toEqual([
        'EVENT_SERIES.CREATED',
        'EVENT_SERIES.UPDATED',
      ]);
      expect(receiver.of(all)[0].json.id).toBe(`wh_${created.id}`);
      expect(receiver.of(at).map((r) => r.json.event)).toEqual([
        'EVENT_SERIES.UPDATED',
      ]);
      expect(receiver.of(at)[0].json.payload).toMatchObject({
        name: 'Renamed',
      });
      const ids = receiver.of(all).map((r) => r.json.id);
      expect(ids).not.toContain(`wh_${before.id}`);
    });

    it('sends one event at a time, in feed order', async () => {
      const { at } = await endpoint();
      const entries = [];
      for (let i = 0; i < 8; i++) entries.push(await change());
      await until('eight deliveries', () => receiver.of(at).length === 8);
      expect(receiver.of(at).map((r) => r.json.id)).toEqual(
        entries.map((e) => `wh_${e.id}`),
      );
      expect(receiver.maxInFlight.get(at)).toBe(1);
    });

    it('retries a failure with the same id, and lists every attempt newest first', async () => {
      const { at, id } = await endpoint();
      receiver.answers.set(at, [500, 503]);
      const entry = await change();
      await until('three attempts', () => receiver.of(at).length === 3);
      expect(receiver.of(at).map((r) => r.json.id)).toEqual([
        `wh_${entry.id}`,
        `wh_${entry.id}`,
        `wh_${entry.id}`,
      ]);
      let attempts: Json[] = [];
      await until('three attempts listed', async () => {
        const res = await as(READ_KEY).get(
          `/v1/webhook_endpoints/${id}/deliveries`,
        );
        attempts = res.body.data as Json[];
        return attempts.length === 3;
      });
      const attempt = (status: number) => ({
        object: 'webhook_delivery',
        id: expect.stringMatching(/^wd_[1-9]\d*$/),
        webhook_id: `wh_${entry.id}`,
        event: 'EVENT_SERIES.CREATED',
        status_code: status,
        error: null,
        duration_ms: expect.any(Number),
        attempted_at: expect.any(Number),
      });
      expect(attempts).toEqual([attempt(200), attempt(503), attempt(500)]);
      const page = await as(READ_KEY).get(
        `/v1/webhook_endpoints/${id}/deliveries?limit=2`,
      );
      expect(page.body.data).toEqual(attempts.slice(0, 2));
      const next = await as(READ_KEY).get(page.body.links.next as string);
      expect(next.body.data).toEqual(attempts.slice(2));
      const endpointNow = await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`);
      expect(endpointNow.body.status).toBe('enabled');
    });

    it('disables an endpoint that answers 410 at once', async () => {
      const { at, id } = await endpoint();
      receiver.answers.set(at, [410]);
      await change();
      await until(
        'disabled',
        async () =>
          (await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`)).body
            .status === 'disabled',
      );
      await change();
      // Enabled again, it resumes with the event it stopped at, then the next.
      await writer().post(`/v1/webhook_endpoints/${id}`, { status: 'enabled' });
      await until('both events', () => receiver.of(at).length === 3);
      expect(receiver.of(at)[1].json.id).toBe(receiver.of(at)[0].json.id);
    });

    it('disables an endpoint after its last retry failed', async () => {
      const { at, id } = await endpoint();
      receiver.answers.set(at, [500, 500, 500, 500, 500]);
      const entry = await change();
      await until(
        'disabled',
        async () =>
          (await as(READ_KEY).get(`/v1/webhook_endpoints/${id}`)).body
            .status === 'disabled',
      );
      // The first attempt and the schedule's three retries.
      expect(receiver.of(at).map((r) => r.json.id)).toEqual(
        Array(4).fill(`wh_${entry.id}`),
      );
    });

    it('replays the events after a position, in order, with their ids', async () => {
      const { at, id } = await endpoint();
      const first = await change();
      const second = await change();
      await until('two deliveries', () => receiver.of(at).length === 2);
      const res = await writer().post(
        `/v1/webhook_endpoints/${id}/replay`,
        `starting_after=chg_${first.id - 1}`,
      );
      expect(res.status).toBe(202);
      expect(res.body.id).toBe(id);
      await until('the replay', () => receiver.of(at).length === 4);
      expect(receiver.of(at).map((r) => r.json.id)).toEqual([
        `wh_${first.id}`,
        `wh_${second.id}`,
        `wh_${first.id}`,
        `wh_${second.id}`,
      ]);
      const ahead = await writer().post(`/v1/webhook_endpoints/${id}/replay`, {
        starting_after: 'chg_999999',
      });
      expect(ahead.status).toBe(400);
      expect(ahead.body.error_code).toBe('VALIDATION_ERROR');
    });

    it('counts attempts by outcome, and the lag of each delivery, in the metrics', async () => {
      const { at } = await endpoint();
      receiver.answers.set(at, [500]);
      await change();
      await until('the retry', () => receiver.of(at).length === 2);
      const scrape = async () =>
        (
          await request(t.server)
            .get('/metrics')
            .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        ).text;
      const sample = (text: string, series: string) =>
        Number(
          new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(
            text,
          )?.[1] ?? NaN,
        );
      let text = '';
      await until('the delivery counted', async () => {
        text = await scrape();
        return sample(text, 'boxoffice_webhook_delivery_lag_seconds_count') > 0;
      });
      expect(
        sample(text, 'boxoffice_webhook_deliveries_total{outcome="delivered"}'),
      ).toBeGreaterThan(0);
      expect(
        sample(
          text,
          'boxoffice_webhook_deliveries_total{outcome="failed_status"}',
        ),
      ).toBeGreaterThan(0);
      expect(
        sample(text, 'boxoffice_webhook_deliveries_total{outcome="gone"}'),
      ).toBeGreaterThan(0);
      expect(
        sample(text, 'boxoffice_webhook_deliveries_total{outcome="timeout"}'),
      ).toBe(0);
      expect(text).toMatch(/^boxoffice_webhook_failing_seconds \d+$/m);
    });

    it('removes attempts older than 30 days', async () => {
      const { id } = await endpoint();
      await t.dataSource.query(
        `INSERT INTO webhook_deliveries
           (endpoint_id, box_office_id, change_id, event, status_code, error, duration_ms, attempted_at)
         VALUES (${id.slice(3)}, ${office}, 1, 'ORDER.CREATED', 200, NULL, 5, 1000),
                (${id.slice(3)}, ${office}, 2, 'ORDER.CREATED', 200, NULL, 5, 3000)`,
      );
      expect(await deleteOldDeliveries(t.dataSource, 2000)).toBe(1);
      const res = await as(READ_KEY).get(
        `/v1/webhook_endpoints/${id}/deliveries`,
      );
      expect(res.body.data.map((d: Json) => d.webhook_id)).toEqual(['wh_2']);
    });
  });
});

describe('webhook URLs without WEBHOOK_ALLOW_PRIVATE_URLS', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    const f = new Factory(t.dataSource);
    const office = (await f.boxOffice('A')).id;
    await f.apiKey(office, WRITE_KEY, false, 'write');
    receiver = new Receiver();
    await receiver.start();
  });

  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const create = (url: string) =>
    request(t.server)
      .post('/v1/webhook_endpoints')
      .set('Authorization', basicAuth(WRITE_KEY))
      .send({ url, enabled_events: ['*'] });

  it.each([
    ['http://example.com/hook', 'url must be an https:// URL'],
    ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback, private/],
    ['https://10.1.2.3/hook', /10\.1\.2\.3 is a loopback, private/],
    ['https://192.168.0.10/hook', /is a loopback, private/],
    [
      'https://169.254.169.254/latest/meta-data',
      /169\.254\.169\.254 is a loopback/,
    ],
    ['https://[::1]/hook', /::1 is a loopback, private/],
    ['https://[fd00::1]/hook', /fd00::1 is a loopback, private/],
    ['https://[::ffff:127.0.0.1]/hook', /is a loopback, private/],
    ['https://localhost/hook', /localhost is a loopback, private/],
    [
      'https://user:pw@example.com/hook',
      'url must not carry a user name or password',
    ],
  ])(
    'refuses %s with 400 VALIDATION_ERROR, before any connection',
    async (url, message) => {
      const res = await create(url);
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('VALIDATION_ERROR');
      expect(res.body.errors).toEqual([
        { field: 'url', messages: [expect.stringMatching(message)] },
      ]);
    },
  );

  describe("a keyed retry after its URL's host resolves elsewhere", () => {
    // The URL check's lookups (webhook-url-guard.ts, node:dns/promises) of HOST are answered
    // with `addresses` (a lookup that fails without any) and counted; other names resolve as ever.
    const HOST = 'hooks.rebound.example';
    let addresses: string[] = [];
    let lookups = 0;
    let spy: jest.SpyInstance | undefined;

    beforeEach(() => {
      const real = dns.lookup.bind(dns);
      lookups = 0;
      spy = jest.spyOn(dns, 'lookup').mockImplementation(((
        host: string,
        options: { all: true },
      ) => {
        if (host !== HOST) return real(host, options);
        lookups += 1;
        if (addresses.length === 0) {
          return Promise.reject(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
              code: 'ENOTFOUND',
            }),
          );
        }
        return Promise.resolve(
          addresses.map((address): LookupAddress => ({
            address,
            family: address.includes(':') ? 6 : 4,
          })),
        );
      }) as typeof dns.lookup);
    });

    afterEach(() => spy?.mockRestore());

    const keyed = (key: string) => (url: string, body: Json) =>
      request(t.server)
        .post(url)
        .set('Authorization', basicAuth(WRITE_KEY))
        .set('Idempotency-Key', key)
        .send(body);

    it('replays the create, byte for byte, without looking the host up again', async () => {
      const fields = { url: `https://${HOST}/created`, enabled_events: ['*'] };
      const create = keyed('create-then-rebound');
      addresses = ['93.184.215.14'];
      const first = await create('/v1/webhook_endpoints', fields);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(lookups).toBe(1);

      // The host now resolves to a private address, then not at all: the retry (with the
      // header, or local_unique_id) is the first answer, and the host is not looked up.
      for (const now of [['10.0.0.5'], []]) {
        addresses = now;
        for (const again of [
          await create('/v1/webhook_endpoints', fields),
          await request(t.server)
            .post('/v1/webhook_endpoints')
            .set('Authorization', basicAuth(WRITE_KEY))
            .send({ ...fields, local_unique_id: 'create-then-rebound' }),
        ]) {
          expect(again.status).toBe(201);
          expect(again.text).toBe(first.text);
          expect(again.headers.location).toBe(first.headers.location);
          expect(again.headers['idempotent-replayed']).toBe('true');
        }
      }
      // The key with another request is 422, whatever the host would say.
      const other = await create('/v1/webhook_endpoints', {
        ...fields,
        enabled_events: ['ORDER.CREATED'],
      });
      expect(other.status).toBe(422);
      expect(other.body.error_code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(lookups).toBe(1);

      // A new key is a new write: its host is looked up, and refused now.
      addresses = ['10.0.0.5'];
      const refused = await keyed('create-after-rebound')(
        '/v1/webhook_endpoints',
        fields,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          field: 'url',
          messages: [expect.stringMatching(/is a loopback, private/)],
        },
      ]);
      expect(lookups).toBe(2);
      const [{ n }] = await t.dataSource.query<{ n: unknown }[]>(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE url = '${fields.url}'`,
      );
      expect(Number(n)).toBe(1);
    });

    it('replays a change of URL without looking the new host up again', async () => {
      addresses = ['93.184.215.14'];
      const created = await keyed('create-to-move')('/v1/webhook_endpoints', {
        url: `https://${HOST}/before`,
        enabled_events: ['*'],
      });
      expect(created.status).toBe(201);
      const at = `/v1/webhook_endpoints/${created.body.id as string}`;
      const move = () =>
        keyed('move-then-rebound')(at, { url: `https://${HOST}/after` });
      const moved = await move();
      expect(moved.status).toBe(200);
      expect(lookups).toBe(2);
      addresses = [];
      const again = await move();
      expect(again.status).toBe(200);
      expect(again.text).toBe(moved.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(lookups).toBe(2);
    });
  });

  it('refuses a private address again at connection time: nothing reaches it', async () => {
    const sender = new WebhookSender(false);
    try {
      for (const url of [`${receiver.base}/direct`, `https://localhost:1/x`]) {
        const attempt = await sender.send(url, '{}', {});
        expect(attempt.statusCode).toBeNull();
        expect(attempt.error).toMatch(/^refused/);
      }
      const https = await sender.send(
        receiver.base.replace('http:', 'https:') + '/direct',
        '{}',
        {},
      );
      expect(https).toEqual({
        statusCode: null,
        error: 'refused: the address is private, loopback or reserved',
        durationMs: expect.any(Number),
      });
    } finally {
      sender.close();
    }
    expect(receiver.got.size).toBe(0);
  });
});

describe('webhooks with a short lease and a long retry wait', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX: '1000000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '3600',
      WEBHOOK_LEASE_S: '1',
      WEBHOOK_POLL_MS: '20',
    });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('A')).id;
    await f.apiKey(office, WRITE_KEY, false, 'write');
    receiver = new Receiver();
    await receiver.start();
  });

  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const post = (url: string, body: Json) =>
    request(t.server)
      .post(url)
      .set('Authorization', basicAuth(WRITE_KEY))
      .send(body);

  it('keeps the lease while a receiver takes longer than it: never two sends at once', async () => {
    const res = await post('/v1/webhook_endpoints', {
      url: `${receiver.base}/slow`,
      enabled_events: ['*'],
    });
    expect(res.status).toBe(201);
    receiver.delays.set('/slow', 2500);
    await f.series(office);
    await f.series(office);
    await until('both events', () => receiver.of('/slow').length === 2);
    expect(receiver.maxInFlight.get('/slow')).toBe(1);
    expect(new Set(receiver.of('/slow').map((r) => r.json.id)).size).toBe(2);
  });

  it('waits out the retry schedule, but tries a new URL at once', async () => {
    const res = await post('/v1/webhook_endpoints', {
      url: `${receiver.base}/broken`,
      enabled_events: ['*'],
    });
    const id = res.body.id as string;
    receiver.answers.set('/broken', [500]);
    await f.series(office);
    await until('the failure', () => receiver.of('/broken').length === 1);
    const moved = await post(`/v1/webhook_endpoints/${id}`, {
      url: `${receiver.base}/fixed`,
    });
    expect(moved.status).toBe(200);
    await until(
      'the event at the new URL',
      () => receiver.of('/fixed').length === 1,
    );
    expect(receiver.of('/fixed')[0].json.id).toBe(
      receiver.of('/broken')[0].json.id,
    );
    expect(receiver.of('/broken')).toHaveLength(1);
  });
});

describe('webhook delivery with nothing to do', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX: '1000000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '20',
    });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('Idle')).id;
    await f.apiKey(office, WRITE_KEY, false, 'write');
    receiver = new Receiver();
    await receiver.start();
  });

  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  /** The statements naming webhook_endpoints sent during `ms`, by every part of the service. */
  async function endpointStatements(ms: number): Promise<string[]> {
    const sent: string[] = [];
    const spy = jest
      .spyOn(t.dataSource.logger, 'logQuery')
      .mockImplementation((sql: string) => {
        if (sql.includes('webhook_endpoints')) sent.push(sql.trim());
      });
    try {
      await sleep(ms);
    } finally {
      spy.mockRestore();
    }
    return sent;
  }

  const writes = (statements: string[]) =>
    statements.filter((sql) => !/^SELECT\b/i.test(sql));

  it('polls with a read alone, with no endpoint and with every endpoint up to date', async () => {
    // No endpoint: each poll (every 20 ms) is one SELECT, and nothing is written.
    const none = await endpointStatements(1000);
    expect(none.length).toBeGreaterThanOrEqual(10);
    expect(writes(none)).toEqual([]);

    const res = await request(t.server)
      .post('/v1/webhook_endpoints')
      .set('Authorization', basicAuth(WRITE_KEY))
      .send({ url: `${receiver.base}/idle`, enabled_events: ['*'] });
    expect(res.status).toBe(201);
    await f.series(office);
    await until('the event', () => receiver.of('/idle').length === 1);
    // Delivered, its lease let go: again nothing but reads.
    await sleep(200);
    const upToDate = await endpointStatements(1000);
    expect(upToDate.length).toBeGreaterThanOrEqual(10);
    expect(writes(upToDate)).toEqual([]);

    // And the read finds the next event at once.
    await f.series(office);
    await until('the next event', () => receiver.of('/idle').length === 2);
  });
});

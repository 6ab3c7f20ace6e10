import { type Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { seededRandom, shuffle } from './random';

/** What the soak knows of the seeded data, to build requests with known answers. */
export interface SoakData {
  /** Box office 1's orders (a sample). */
  orders: {
    id: number;
    eventId: number;
    status: string;
    email: string;
    txnId: string | null;
    createdAt: number;
  }[];
  /** Orders of box office 2: another tenant's, 404 for key 1. */
  foreignOrders: number[];
  events: { id: number; seriesId: number; startAt: number }[];
  tickets: { id: number; barcode: string; orderId: number }[];
}

export interface Answer {
  status: number;
  etag: string | undefined;
  body: Buffer;
}

export interface Outcome {
  flow: string;
  path: string;
  status: number | null;
  expected: number;
  ms: number;
  /** A connection error or a time-out. */
  error: string | null;
}

/** One keep-alive client: a server's agent, the demo key, and gzip or not. */
export interface SoakClient {
  port: number;
  agent: Agent;
  gzip: boolean;
  timeoutMs: number;
}

const AUTHORIZATION = `Basic ${Buffer.from('sk_demo_boxoffice_1:').toString('base64')}`;

function get(
  client: SoakClient,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: client.port,
        path,
        agent: client.agent,
        timeout: client.timeoutMs,
        headers: {
          Authorization: AUTHORIZATION,
          ...(client.gzip ? { 'Accept-Encoding': 'gzip' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            body:
              res.headers['content-encoding'] === 'gzip' && raw.length > 0
                ? gunzipSync(raw)
                : raw,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The traffic: weighted flows over every endpoint, each request with the status it must get. A
 * flow is one request or a short sequence (a cursor walk, a request then its conditional repeat).
 */
export class SoakFlows {
  private readonly lists: string[];
  private readonly retrievals: string[];
  private readonly missing: string[];
  private readonly invalid: string[];

  /**
   * `writes`: a writer changes the data meanwhile, so a page may change between a 200 and its
   * If-None-Match (a 200 with a new ETag is then right), and a walk's cursor order may be deleted
   * between two pages (400 INVALID_CURSOR: docs/API.md, "Pagination").
   */
  constructor(
    data: SoakData,
    private readonly writes = false,
  ) {
    const random = seededRandom(7);
    const pick = <T>(items: T[], n: number) =>
      shuffle([...items], random).slice(0, n);
    const orders = pick(data.orders, 200);
    const events = pick(data.events, 20);
    const tickets = pick(data.tickets, 200);
    const day = 86_400;
    this.lists = [
      '/v1/orders',
      '/v1/orders?limit=10',
      '/v1/orders?status=completed&limit=50',
      '/v1/orders?status=cancelled',
      '/v1/events',
      '/v1/events?status=published&limit=10',
      '/v1/issued_tickets?limit=50',
      '/v1/issued_tickets?status=valid&limit=25',
      '/v1/changes?limit=10',
      '/v1/changes?type=ORDER.*&limit=20',
      ...orders
        .slice(0, 40)
        .flatMap((o) => [
          `/v1/orders?event_id=ev_${o.eventId}&limit=20`,
          `/v1/orders?created_at.gte=${o.createdAt - 7 * day}&created_at.lt=${o.createdAt + 7 * day}`,
          `/v1/orders?email=${encodeURIComponent(o.email)}`,
          ...(o.txnId
            ? [`/v1/orders?txn_id=${encodeURIComponent(o.txnId)}`]
            : []),
          `/v1/issued_tickets?order_id=or_${o.id}`,
          `/v1/issued_tickets?event_id=ev_${o.eventId}&status=valid&limit=10`,
        ]),
      ...tickets
        .slice(0, 40)
        .flatMap((t) => [
          `/v1/orders?barcode=${encodeURIComponent(t.barcode)}`,
          `/v1/issued_tickets?barcode=${encodeURIComponent(t.barcode)}`,
        ]),
      ...events.flatMap((e) => [
        // A series id of 0 (none recorded) is not a valid es_ id.
        ...(e.seriesId > 0
          ? [`/v1/events?event_series_id=es_${e.seriesId}`]
          : []),
        `/v1/events?start_at.gte=${e.startAt - 30 * day}&start_at.lt=${e.startAt + 30 * day}`,
      ]),
    ];
    this.retrievals = [
      ...orders.map((o) => `/v1/orders/or_${o.id}`),
      ...events.map((e) => `/v1/events/ev_${e.id}`),
      ...tickets.map((t) => `/v1/issued_tickets/it_${t.id}`),
    ];
    this.missing = [
      ...pick(data.foreignOrders, 20).map((id) => `/v1/orders/or_${id}`),
      '/v1/orders/or_999999999',
      '/v1/orders/ev_1',
      '/v1/events/ev_999999999',
      '/v1/issued_tickets/it_999999999',
      '/v1/no-such-resource',
    ];
    this.invalid = [
      '/v1/orders?limit=0',
      '/v1/orders?limit=101',
      '/v1/orders?limit=ten',
      '/v1/orders?starting_after=or_0',
      ...pick(data.foreignOrders, 5).map(
        (id) => `/v1/orders?starting_after=or_${id}`,
      ),
      '/v1/orders?status=lost',
      '/v1/orders?colour=blue',
      '/v1/events?status=open',
      '/v1/issued_tickets?created_at.gt=yesterday',
    ];
  }

  /** The flows and their weights (shares of the flows started). */
  private readonly flows: [
    string,
    number,
    (c: SoakClient, r: () => number) => Promise<Outcome[]>,
  ][] = [
    [
      'list',
      25,
      (c, r) => this.one(c, 'list', this.choose(this.lists, r), 200),
    ],
    ['walk', 20, (c, r) => this.walk(c, r)],
    [
      'retrieve',
      20,
      (c, r) => this.one(c, 'retrieve', this.choose(this.retrievals, r), 200),
    ],
    ['conditional', 15, (c, r) => this.conditional(c, r)],
    [
      'not found',
      8,
      (c, r) => this.one(c, 'not found', this.choose(this.missing, r), 404),
    ],
    [
      'invalid',
      8,
      (c, r) => this.one(c, 'invalid', this.choose(this.invalid, r), 400),
    ],
    ['ping', 4, (c) => this.one(c, 'ping', '/v1/ping', 200)],
    ['sync run', 12, (c, r) => this.syncRun(c, r)],
    ['feed poll', 12, (c, r) => this.feedPoll(c, r)],
  ];

  /** Runs one flow chosen by weight. */
  next(client: SoakClient, random: () => number): Promise<Outcome[]> {
    const total = this.flows.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = random() * total;
    for (const [, weight, run] of this.flows) {
      roll -= weight;
      if (roll < 0) return run(client, random);
    }
    return this.flows[0][2](client, random);
  }

  private choose(paths: string[], random: () => number): string {
    return paths[Math.floor(random() * paths.length)];
  }

  private async timed(
    client: SoakClient,
    flow: string,
    path: string,
    expected: number,
    headers: Record<string, string> = {},
  ): Promise<{ outcome: Outcome; answer: Answer | null }> {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    try {
      const answer = await get(client, path, headers);
      return {
        outcome: {
          flow,
          path,
          status: answer.status,
          expected,
          ms: ms(),
          error: null,
        },
        answer,
      };
    } catch (error) {
      return {
        outcome: {
          flow,
          path,
          status: null,
          expected,
          ms: ms(),
          error: error instanceof Error ? error.message : String(error),
        },
        answer: null,
      };
    }
  }

  private async one(
    client: SoakClient,
    flow: string,
    path: string,
    expected: number,
  ): Promise<Outcome[]> {
    return [(await this.timed(client, flow, path, expected)).outcome];
  }

  /** A first page, then up to four pages on by links.next, then one back by links.previous. */
  private async walk(
    client: SoakClient,
    random: () => number,
  ): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const resource = this.choose(
      ['orders', 'orders', 'issued_tickets'],
      random,
    );
    let path: string | null =
      `/v1/${resource}?limit=${5 + Math.floor(random() * 30)}`;
    let previous: string | null = null;
    for (let page = 0; page < 5 && path; page++) {
      const { outcome, answer } = await this.timed(client, 'walk', path, 200);
      outcomes.push(page > 0 ? this.deletedCursor(outcome, answer) : outcome);
      if (answer?.status !== 200) return outcomes;
      const { links } = JSON.parse(answer.body.toString()) as {
        links: { next: string | null; previous: string | null };
      };
      path = links.next;
      previous = links.previous;
    }
    if (previous) {
      const { outcome, answer } = await this.timed(
        client,
        'walk',
        previous,
        200,
      );
      outcomes.push(this.deletedCursor(outcome, answer));
    }
    return outcomes;
  }

  /**
   * An integration's run (docs/API.md, "Incremental sync"): a list in updated_at order from a
   * recent updated_at, followed to its end (at most five pages).
   */
  private async syncRun(
    client: SoakClient,
    random: () => number,
  ): Promise<Outcome[]> {
    const resource = this.choose(['orders', 'issued_tickets'], random);
    const since =
      Math.floor(Date.now() / 1000) - 60 - Math.floor(random() * 600);
    return this.follow(
      client,
      'sync run',
      `/v1/${resource}?sort=updated_at&updated_at.gte=${since}&limit=20`,
      5,
    );
  }

  /** A poller: the change feed from its start, three pages on by links.next. */
  private async feedPoll(
    client: SoakClient,
    random: () => number,
  ): Promise<Outcome[]> {
    const type = this.choose(
      ['', '&type=ORDER.*', '&type=ISSUED_TICKET.UPDATED'],
      random,
    );
    return this.follow(client, 'feed poll', `/v1/changes?limit=25${type}`, 3);
  }

  /** `path`, then links.next while there is one, `pages` pages at most. */
  private async follow(
    client: SoakClient,
    flow: string,
    path: string,
    pages: number,
  ): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    let link: string | null = path;
    for (let page = 0; page < pages && link; page++) {
      const { outcome, answer } = await this.timed(client, flow, link, 200);
      outcomes.push(outcome);
      if (answer?.status !== 200) return outcomes;
      const body = JSON.parse(answer.body.toString()) as {
        data: unknown[];
        links: { next: string | null };
      };
      link = body.data.length > 0 ? body.links.next : null;
    }
    return outcomes;
  }

  /** A retrieval or a list page, then the same with If-None-Match: 304. */
  private async conditional(
    client: SoakClient,
    random: () => number,
  ): Promise<Outcome[]> {
    const path = this.choose(
      random() < 0.5 ? this.retrievals : this.lists,
      random,
    );
    const first = await this.timed(client, 'conditional', path, 200);
    const etag = first.answer?.etag;
    if (first.answer?.status !== 200 || !etag) return [first.outcome];
    const again = await this.timed(client, 'conditional', path, 304, {
      'If-None-Match': etag,
    });
    const changed =
      this.writes &&
      again.answer?.status === 200 &&
      again.answer.etag !== undefined &&
      again.answer.etag !== etag;
    return [
      first.outcome,
      changed ? { ...again.outcome, expected: 200 } : again.outcome,
    ];
  }

  /** A followed link answered INVALID_CURSOR because the writer deleted its order: expected. */
  private deletedCursor(outcome: Outcome, answer: Answer | null): Outcome {
    if (!this.writes || answer?.status !== 400) return outcome;
    const body = JSON.parse(answer.body.toString()) as { error_code?: string };
    return body.error_code === 'INVALID_CURSOR'
      ? { ...outcome, expected: 400 }
      : outcome;
  }
}

// A typed client for the Box Office API, for browsers and Node.js alike: requests go through
// openapi-fetch with types generated from openapi.json (`npm run client:generate` writes
// schema.d.ts). Only web-platform APIs are used (fetch, Headers, btoa), no Node.js modules.
import createClient from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type Order = components['schemas']['Order'];
/** An event (named so as not to hide the DOM's `Event` where it is imported). */
export type BoxOfficeEvent = components['schemas']['Event'];
export type IssuedTicket = components['schemas']['IssuedTicket'];
export type EventSeries = components['schemas']['EventSeries'];
export type CheckIn = components['schemas']['CheckIn'];
export type Overview = components['schemas']['Overview'];
export type Product = components['schemas']['Product'];
export type Voucher = components['schemas']['Voucher'];
export type VoucherCode = components['schemas']['VoucherCode'];
export type Discount = components['schemas']['Discount'];
export type WaitlistSignup = components['schemas']['WaitlistSignup'];
export type ErrorBody = components['schemas']['ErrorBody'];
/** An entry of the change feed (docs/API.md, GET /v1/changes). */
export type Change = components['schemas']['Change'];
/** A scan refused by the ticket's state: its code and the check-in that decides it. */
export type ScanRefusal = components['schemas']['ScanRefusal'];
/** Why a scan is refused: the ticket's state, or `WRONG_EVENT` (a door's `eventId`). */
export type ScanRefusalCode = ScanRefusal['error_code'];

/** The door's numbers for one event (docs/API.md, GET /v1/events/{event_id}/attendance). */
export type Attendance = components['schemas']['EventAttendance'];

/** The ticket a door scanned: by the barcode printed on it, or by its id. */
export type ScannedTicket =
  | { barcode: string; issuedTicketId?: never }
  | { issuedTicketId: string; barcode?: never };

export interface CheckInOptions {
  /**
   * Makes the scan safe to send again (a lost answer, a queue replayed after an offline spell):
   * the same key within 24 hours gets the first answer, never a second check-in. Keep it with the
   * scan until an answer comes; one key per scan (`crypto.randomUUID()`).
   */
  idempotencyKey: string;
  /** 1 checks the ticket in (the default), -1 checks it out. */
  quantity?: 1 | -1;
  /** Unix seconds: when a scan made offline happened (default: when it is received). */
  checkInAt?: number;
  /**
   * The door's event (`ev_1`, or a comma list): a ticket for another event is refused,
   * `WRONG_EVENT`, with its own event in `issuedTicket`.
   */
  eventId?: string;
  /** Asks for the ticket with a recorded scan too (`?expand=issued_ticket`): who came in. */
  expandIssuedTicket?: boolean;
  signal?: AbortSignal;
}

/**
 * What became of a scan (docs/API.md, POST /v1/check_ins): recorded, with the CheckIn, or refused
 * by the ticket's state (`ALREADY_CHECKED_IN`, `NOT_CHECKED_IN`, `TICKET_VOID`), with the
 * check-in that decides it (when the ticket was scanned). `replayed`: the answer to an earlier
 * request with the same Idempotency-Key.
 */
export type ScanResult =
  | {
      outcome: 'recorded';
      checkIn: CheckIn;
      /** The scanned ticket, with `expandIssuedTicket` (null without). */
      issuedTicket: IssuedTicket | null;
      replayed: boolean;
    }
  | {
      outcome: 'refused';
      reason: ScanRefusalCode;
      message: string;
      checkIn: CheckIn | null;
      /** The scanned ticket (holder, ticket type, event), as every refusal carries it. */
      issuedTicket: IssuedTicket | null;
      replayed: boolean;
    };

/** What a ticket write needs besides its fields (docs/API.md, Retries: Idempotency-Key). */
export interface TicketWriteOptions {
  /**
   * Makes the write safe to send again: the same key within 24 hours gets the first answer,
   * never a second ticket or void. One key per write (`crypto.randomUUID()`).
   */
  idempotencyKey: string;
  signal?: AbortSignal;
}

/** A ticket to issue with no order (docs/API.md, POST /v1/issued_tickets). */
export interface TicketToIssue {
  eventId: string;
  ticketTypeId: string;
  /** The holder's name: its first word becomes `first_name`, the rest `last_name`. */
  fullName?: string;
  email?: string;
}

/**
 * What became of a ticket write: done, with the ticket as it now is, or refused by the ticket
 * type's or the ticket's state (`SOLD_OUT`, `ALREADY_VOID`). `replayed`: the answer to an
 * earlier request with the same Idempotency-Key.
 */
export type TicketWriteResult =
  | { outcome: 'done'; issuedTicket: IssuedTicket; replayed: boolean }
  | {
      outcome: 'refused';
      reason: 'SOLD_OUT' | 'ALREADY_VOID';
      message: string;
      replayed: boolean;
    };

/** The generated client for every operation, and the door's own call. */
export interface BoxOfficeClient extends Client<paths> {
  /**
   * Issues a ticket with no order (a guest list, a competition); needs a key of scope write.
   * Resolves with the ticket, or `SOLD_OUT`; throws BoxOfficeApiError on any other answer.
   *
   *     const result = await client.issueTicket({ eventId, ticketTypeId, fullName },
   *       { idempotencyKey: crypto.randomUUID() });
   */
  issueTicket(
    ticket: TicketToIssue,
    options: TicketWriteOptions,
  ): Promise<TicketWriteResult>;
  /**
   * Voids a ticket for good; needs a key of scope write. Resolves with the void ticket, or
   * `ALREADY_VOID`; throws BoxOfficeApiError on any other answer (404 for a ticket not of the
   * key's box office).
   */
  voidTicket(
    issuedTicketId: string,
    options: TicketWriteOptions,
  ): Promise<TicketWriteResult>;
  /**
   * Records a door scan. Resolves with what became of it; throws BoxOfficeApiError on any other
   * answer (a key without the check_in scope: 403; an unknown ticket: 404; the same
   * Idempotency-Key still running: 409 IDEMPOTENCY_KEY_IN_USE, …), and fetch's own TypeError
   * when the network is down (keep the scan and its key, and send it again later).
   *
   *     const result = await client.checkIn({ barcode }, { idempotencyKey: crypto.randomUUID() });
   *     if (result.outcome === 'refused') show(result.reason, result.checkIn?.check_in_at);
   */
  checkIn(ticket: ScannedTicket, options: CheckInOptions): Promise<ScanResult>;
  /** The door's numbers for an event: inside now, valid tickets. Throws BoxOfficeApiError. */
  attendance(
    eventId: string,
    options?: { signal?: AbortSignal },
  ): Promise<Attendance>;
  /**
   * The first page of issued tickets matching `search` (a name, an e-mail, the start of a barcode
   * or order id), with the list's other filters (`event_id`): the door's look-up when a code
   * will not scan. Throws BoxOfficeApiError.
   */
  searchIssuedTickets(
    query: ListQuery<'/v1/issued_tickets'> & { search: string },
    options?: { signal?: AbortSignal },
  ): Promise<IssuedTicket[]>;
}

export interface BoxOfficeClientOptions {
  /** Where the API is served, e.g. `https://api.example.com` (no trailing `/v1`). */
  baseUrl: string;
  apiKey: string;
  /**
   * Remembers each GET's last ETag and body, sends `If-None-Match`, and answers a `304` with the
   * remembered body (see conditionalRequests). One store per API key.
   */
  cache?: ResponseStore;
  /** Defaults to the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createBoxOfficeClient(
  options: BoxOfficeClientOptions,
): BoxOfficeClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: basicAuthorization(options.apiKey) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.cache) client.use(conditionalRequests(options.cache));
  return Object.assign(client, {
    checkIn: (ticket: ScannedTicket, scan: CheckInOptions) =>
      checkIn(client, ticket, scan),
    issueTicket: (ticket: TicketToIssue, write: TicketWriteOptions) =>
      issueTicket(client, ticket, write),
    voidTicket: (issuedTicketId: string, write: TicketWriteOptions) =>
      voidTicket(client, issuedTicketId, write),
    attendance: (eventId: string, init: { signal?: AbortSignal } = {}) =>
      attendance(client, eventId, init),
    searchIssuedTickets: (
      query: ListQuery<'/v1/issued_tickets'> & { search: string },
      init: { signal?: AbortSignal } = {},
    ) => searchIssuedTickets(client, query, init),
  });
}

async function attendance(
  client: Client<paths>,
  eventId: string,
  init: { signal?: AbortSignal },
): Promise<Attendance> {
  const { data, error, response } = await client.GET(
    '/v1/events/{event_id}/attendance',
    { params: { path: { event_id: eventId } }, ...init },
  );
  if (!data) throw new BoxOfficeApiError(response.status, asErrorBody(error));
  return data;
}

async function searchIssuedTickets(
  client: Client<paths>,
  query: ListQuery<'/v1/issued_tickets'> & { search: string },
  init: { signal?: AbortSignal },
): Promise<IssuedTicket[]> {
  const { data, error, response } = await client.GET('/v1/issued_tickets', {
    params: { query },
    ...init,
  });
  if (!data) throw new BoxOfficeApiError(response.status, asErrorBody(error));
  return data.data;
}

const SCAN_REFUSALS: readonly string[] = [
  'WRONG_EVENT',
  'ALREADY_CHECKED_IN',
  'NOT_CHECKED_IN',
  'TICKET_VOID',
];

async function checkIn(
  client: Client<paths>,
  ticket: ScannedTicket,
  options: CheckInOptions,
): Promise<ScanResult> {
  const { data, error, response } = await client.POST('/v1/check_ins', {
    body: {
      ...(ticket.barcode !== undefined
        ? { barcode: ticket.barcode }
        : { issued_ticket_id: ticket.issuedTicketId }),
      quantity: options.quantity ?? 1,
      ...(options.checkInAt !== undefined
        ? { check_in_at: options.checkInAt }
        : {}),
      ...(options.eventId !== undefined ? { event_id: options.eventId } : {}),
    } as CheckInBody,
    ...(options.expandIssuedTicket
      ? { params: { query: { expand: 'issued_ticket' as const } } }
      : {}),
    headers: { 'Idempotency-Key': options.idempotencyKey },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const replayed = response.headers.get('Idempotent-Replayed') === 'true';
  if (data) {
    const { issued_ticket: issuedTicket = null, ...recorded } =
      data as CheckIn & { issued_ticket?: IssuedTicket };
    return { outcome: 'recorded', checkIn: recorded, issuedTicket, replayed };
  }
  if (response.status === 409 && isRefusal(error)) {
    return {
      outcome: 'refused',
      reason: error.error_code,
      message: error.message,
      checkIn: error.check_in ?? null,
      issuedTicket: error.issued_ticket ?? null,
      replayed,
    };
  }
  throw new BoxOfficeApiError(response.status, asErrorBody(error));
}

async function issueTicket(
  client: Client<paths>,
  ticket: TicketToIssue,
  options: TicketWriteOptions,
): Promise<TicketWriteResult> {
  const answer = await client.POST('/v1/issued_tickets', {
    body: {
      event_id: ticket.eventId,
      ticket_type_id: ticket.ticketTypeId,
      ...(ticket.fullName !== undefined ? { full_name: ticket.fullName } : {}),
      ...(ticket.email !== undefined ? { email: ticket.email } : {}),
    },
    headers: { 'Idempotency-Key': options.idempotencyKey },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return ticketWriteResult(answer, 'SOLD_OUT');
}

async function voidTicket(
  client: Client<paths>,
  issuedTicketId: string,
  options: TicketWriteOptions,
): Promise<TicketWriteResult> {
  const answer = await client.POST(
    '/v1/issued_tickets/{issued_ticket_id}/void',
    {
      params: { path: { issued_ticket_id: issuedTicketId } },
      body: {},
      headers: { 'Idempotency-Key': options.idempotencyKey },
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  return ticketWriteResult(answer, 'ALREADY_VOID');
}

/** A ticket write's answer: the ticket, its one refusal, or a BoxOfficeApiError. */
function ticketWriteResult(
  {
    data,
    error,
    response,
  }: { data?: unknown; error?: unknown; response: Response },
  refusal: 'SOLD_OUT' | 'ALREADY_VOID',
): TicketWriteResult {
  const replayed = response.headers.get('Idempotent-Replayed') === 'true';
  if (data) {
    return { outcome: 'done', issuedTicket: data as IssuedTicket, replayed };
  }
  const body = asErrorBody(error);
  if (response.status === 409 && body?.error_code === refusal) {
    return {
      outcome: 'refused',
      reason: refusal,
      message: body.message,
      replayed,
    };
  }
  throw new BoxOfficeApiError(response.status, body);
}

/** A POST /v1/check_ins body. */
type CheckInBody = NonNullable<
  paths['/v1/check_ins']['post']['requestBody']
>['content']['application/json'];

/** A 409 of a scan: the refusal, the deciding check-in (if any) and the ticket. */
interface Refusal {
  error_code: ScanRefusalCode;
  message: string;
  check_in?: CheckIn | null;
  issued_ticket?: IssuedTicket | null;
}

function isRefusal(error: unknown): error is Refusal {
  return (
    typeof error === 'object' &&
    error !== null &&
    SCAN_REFUSALS.includes(
      (error as { error_code?: unknown }).error_code as string,
    ) &&
    ('check_in' in error || 'issued_ticket' in error)
  );
}

/** The `Authorization` value for a key: Basic auth with the key as user name, no password. */
export function basicAuthorization(apiKey: string): string {
  return `Basic ${btoa(`${apiKey}:`)}`;
}

/** A non-2xx answer: its status and the API's error body (docs/API.md, Errors). */
export class BoxOfficeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(body?.message ?? `The API answered ${status}`);
    this.name = 'BoxOfficeApiError';
  }
}

type JsonOf<R> = R extends { content: { 'application/json': infer T } }
  ? T
  : never;
type GetOf<P extends keyof paths> = paths[P] extends {
  get: infer Operation;
}
  ? Operation
  : never;
type OkBody<P extends keyof paths> =
  GetOf<P> extends { responses: { 200: infer R } } ? JsonOf<R> : never;

/**
 * The paths whose GET answers a page, `{ data: [...], links: { next, previous } }`. A path without
 * a GET (a webhook replay) has no body at all (`never`), which would pass the test: left out.
 */
export type ListPath = {
  [P in keyof paths]: [OkBody<P>] extends [never]
    ? never
    : OkBody<P> extends {
          data: unknown[];
          links: { next?: string | null };
        }
      ? P
      : never;
}[keyof paths];
/** What a list's pages hold: Order for `/v1/orders`, Event for `/v1/events`, … */
export type ItemOf<P extends ListPath> = OkBody<P>['data'][number];
/** A list's query parameters (filters, `limit`). */
export type ListQuery<P extends ListPath> = NonNullable<
  GetOf<P> extends { parameters: { query?: infer Q } } ? Q : never
>;

/** A nested list's path parameters (`{ event_series_id: 'es_3' }`); never for a top-level list. */
export type ListPathParams<P extends ListPath> =
  GetOf<P> extends { parameters: { path: infer A } }
    ? A extends Record<string, unknown>
      ? A
      : never
    : never;

/** One page as listAll reads it: the list's items and the link to the next page. */
type PageRequest<P extends ListPath> = (
  path: P,
  init: {
    params: { query?: ListQuery<P>; path?: ListPathParams<P> };
    querySerializer?: () => string;
    signal?: AbortSignal;
  },
) => Promise<{
  data?: { data: ItemOf<P>[]; links: { next?: string | null } };
  error?: unknown;
  response: Response;
}>;

/**
 * Every item of a list, in the list's order, page after page: the first page with `query`,
 * then each `links.next` until it is null. A link carries the query it continues (cursor first,
 * then the other parameters as sent), so its query string is sent as it is.
 *
 *     for await (const order of listAll(client, '/v1/orders', { query: { status: 'completed' } }))
 *     for await (const event of listAll(client, '/v1/event_series/{event_series_id}/events', {
 *       path: { event_series_id: 'es_3' },
 *     }))
 *
 * Throws BoxOfficeApiError on a non-2xx answer.
 */
export async function* listAll<P extends ListPath>(
  client: BoxOfficeClient,
  path: P,
  options: {
    query?: ListQuery<P>;
    path?: ListPathParams<P>;
    signal?: AbortSignal;
  } = {},
): AsyncGenerator<ItemOf<P>, void, undefined> {
  // openapi-fetch types GET per literal path; for a path that is any list it cannot relate the
  // path to its page type, which ItemOf states instead.
  const getPage = client.GET.bind(client) as unknown as PageRequest<P>;
  let nextQuery: string | undefined;
  do {
    const search = nextQuery;
    const { data, error, response } = await getPage(path, {
      params: { query: options.query, path: options.path },
      ...(search === undefined ? {} : { querySerializer: () => search }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!data) throw new BoxOfficeApiError(response.status, asErrorBody(error));
    yield* data.data;
    const next = data.links.next;
    nextQuery = next ? next.slice(next.indexOf('?') + 1) : undefined;
  } while (nextQuery !== undefined);
}

/** An entry of the feed and the position to store once it is handled. */
export interface ChangeAt {
  change: Change;
  /** `starting_after` for the next run: this entry's id. */
  position: string;
}

/**
 * The change feed from a stored position (`chg_0`, or the `X-Change-Head` noted before a full
 * read of the lists), oldest first, until the feed has nothing more for now: store each
 * `position` once its change is handled, and call again later from the last one stored. Entries
 * are numbered in commit order with no gap, so nothing is skipped between runs.
 *
 *     for await (const { change, position } of changesSince(client, stored)) {
 *       await apply(change); // re-read change.resource_url; a 404 there means deleted
 *       stored = position;
 *     }
 *
 * Throws BoxOfficeApiError on a non-2xx answer: 410 CURSOR_EXPIRED when the position is older
 * than the feed keeps (read the lists again, then follow the feed from its head).
 */
export async function* changesSince(
  client: BoxOfficeClient,
  position: string,
  options: {
    query?: Omit<ListQuery<'/v1/changes'>, 'starting_after'>;
    signal?: AbortSignal;
  } = {},
): AsyncGenerator<ChangeAt, void, undefined> {
  let query: ListQuery<'/v1/changes'> = {
    ...options.query,
    starting_after: position,
  };
  for (;;) {
    const { data, error, response } = await client.GET('/v1/changes', {
      params: { query },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!data) throw new BoxOfficeApiError(response.status, asErrorBody(error));
    if (data.data.length === 0) return;
    for (const change of data.data) yield { change, position: change.id };
    query = { ...query, starting_after: data.data[data.data.length - 1].id };
  }
}

function asErrorBody(error: unknown): ErrorBody | undefined {
  return typeof error === 'object' && error !== null && 'error_code' in error
    ? (error as ErrorBody)
    : undefined;
}

/** What conditionalRequests keeps per URL. */
export interface CachedResponse {
  etag: string;
  body: string;
}

/** Where conditionalRequests keeps it: a Map, or an adapter over sessionStorage, IndexedDB, … */
export interface ResponseStore {
  get(url: string): CachedResponse | undefined;
  set(url: string, entry: CachedResponse): void;
}

/**
 * Conditional GETs (docs/API.md, ETag and If-None-Match): a GET whose URL has a stored ETag
 * sends it as `If-None-Match`; a `304` comes back to the caller as a `200` with the stored body
 * and the 304's own headers (the rate-limit headers are current); a `200` with an ETag is stored.
 * The store is the cache: GETs bypass a browser's HTTP cache (`cache: 'no-store'`), so the data
 * is kept once, never in the browser's disk cache. Keep one store per API key: it holds that
 * key's data.
 */
export function conditionalRequests(store: ResponseStore): Middleware {
  return {
    onRequest({ request }) {
      if (request.method !== 'GET') return undefined;
      const headers = new Headers(request.headers);
      const cached = store.get(request.url);
      if (cached) headers.set('If-None-Match', cached.etag);
      return new Request(request, { headers, cache: 'no-store' });
    },
    async onResponse({ request, response }) {
      if (request.method !== 'GET') return undefined;
      if (response.status === 304) {
        const cached = store.get(request.url);
        if (!cached) return undefined;
        const headers = new Headers(response.headers);
        headers.delete('Content-Length');
        headers.set('Content-Type', 'application/json; charset=utf-8');
        return new Response(cached.body, { status: 200, headers });
      }
      const etag = response.headers.get('ETag');
      if (response.status === 200 && etag) {
        store.set(request.url, { etag, body: await response.clone().text() });
      }
      return undefined;
    },
  };
}

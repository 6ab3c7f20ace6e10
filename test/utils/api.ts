import type { Server } from 'node:http';
import request from 'supertest';
import { basicAuth } from './create-test-app';

/** A list response body (docs/API.md, Pagination). */
export interface ListBody<T extends { id: string } = OrderBody> {
  data: T[];
  links: { next: string | null; previous: string | null };
}

/** An Order resource as received; tests compare whole objects, this names only the keys they read. */
export type OrderBody = { id: string; created_at: number } & Record<
  string,
  unknown
>;

/**
 * The one error body (docs/API.md, Errors). The message is required: give it exactly, or a
 * matcher for the part a table of cases shares (the parameter it names, say).
 */
export const errorBody = (
  status: number,
  errorCode: string,
  message: unknown,
) => ({ status, error_code: errorCode, message });

/**
 * The fixed error messages (docs/API.md, Errors: Messages), written out here rather than imported
 * from the code, so that a changed message fails the tests that pin it.
 */
export const MESSAGES = {
  unauthorized:
    'Send a valid API key as the user name of HTTP Basic auth with an empty password: Authorization: Basic base64("<api key>:")',
  internal: 'An unexpected error occurred; it has been logged',
  databaseUnavailable:
    'The service is temporarily unable to reach its database; retry shortly',
  undecodablePath: 'No resource at this path: it is not valid percent-encoding',
  noSuchOrder: 'No such order in this box office (order ids are or_<number>)',
  noOrder: (id: string) => `No order ${id} in this box office`,
  noResource: (method: string, path: string) =>
    `No resource at ${method} ${path}`,
  notAllowed: (method: string, path: string) =>
    `${method} is not allowed on ${path}; use GET, HEAD, OPTIONS`,
  orderCursor: (parameter: 'starting_after' | 'ending_before') =>
    `${parameter} must be the id of an order of this box office (or_<number>)`,
  noSuchEvent: 'No such event in this box office (event ids are ev_<number>)',
  noEvent: (id: string) => `No event ${id} in this box office`,
  eventCursor: (parameter: 'starting_after' | 'ending_before') =>
    `${parameter} must be the id of an event of this box office (ev_<number>)`,
  noSuchIssuedTicket:
    'No such issued ticket in this box office (issued ticket ids are it_<number>)',
  noIssuedTicket: (id: string) => `No issued ticket ${id} in this box office`,
  issuedTicketCursor: (parameter: 'starting_after' | 'ending_before') =>
    `${parameter} must be the id of an issued ticket of this box office (it_<number>)`,
  rateLimited: (max: number, windowSeconds: number, retryAfter: string) =>
    `Rate limit of ${max} requests per ${windowSeconds} seconds exceeded; retry in ${retryAfter} seconds`,
} as const;

export type Get = (path: string) => request.Test;

/** GET as the holder of `key` (HTTP Basic, key as user name, empty password). */
export const getAs =
  (server: Server, key: string): Get =>
  (path: string) =>
    request(server).get(path).set('Authorization', basicAuth(key));

/**
 * Follows `links.next` (or `links.previous`) from `start` until it is null, returning every page.
 * Fails on a non-200 page and on a walk that does not end.
 */
export async function walk<T extends { id: string } = OrderBody>(
  get: Get,
  start: string,
  direction: 'next' | 'previous',
  maxPages = 500,
): Promise<ListBody<T>[]> {
  const pages: ListBody<T>[] = [];
  let path: string | null = start;
  while (path !== null) {
    const res = await get(path);
    if (res.status !== 200) {
      throw new Error(`GET ${path} → ${res.status} ${res.text}`);
    }
    const page = res.body as ListBody<T>;
    pages.push(page);
    if (pages.length > maxPages)
      throw new Error(`walk from ${start} never ends`);
    path = page.links[direction];
  }
  return pages;
}

/** The item ids of pages, in order. */
export const idsOf = <T extends { id: string }>(
  pages: ListBody<T> | ListBody<T>[],
): string[] =>
  (Array.isArray(pages) ? pages : [pages]).flatMap((p) =>
    p.data.map((o) => o.id),
  );

/** Every matching order, fetched with links.next from `/v1/orders?<query>`. */
export async function listAll(get: Get, query: string): Promise<string[]> {
  return listIds(get, `/v1/orders?${query}`);
}

/** The ids of every item of a list, fetched with links.next from `start` (a path and query). */
export async function listIds(get: Get, start: string): Promise<string[]> {
  return idsOf(await walk(get, start, 'next'));
}

/** The list order: created_at descending, then numeric id descending. */
export const newestFirst = (
  a: { id: number; createdAt: number },
  b: { id: number; createdAt: number },
) => b.createdAt - a.createdAt || b.id - a.id;

/** An error body must not carry stack frames, file paths, SQL or driver names. */
export function expectNothingLeaked(text: string) {
  for (const pattern of [
    /\bat .+\(.*:\d+:\d+\)/, // stack frame
    /\.(ts|js):\d+/,
    /\/(work|src|node_modules|dist|home|usr)\//,
    /\b(SELECT|FROM|WHERE|INSERT|DROP)\b/,
    /SQLITE|sqlite|postgres|QueryFailedError|relation "|no such table|TypeORM/i,
    /issued_tickets|line_items|box_office_id|api_keys/,
  ]) {
    expect(text).not.toMatch(pattern);
  }
}

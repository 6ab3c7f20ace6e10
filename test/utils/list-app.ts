import type { BoxOffice } from '../../src/auth/entities/box-office.entity';
import { Get, getAs } from './api';
import { TestApp, createTestApp } from './create-test-app';
import { Factory } from './factories';

// What the list specs (GET /v1/orders, /v1/events, /v1/issued_tickets) start from: an app of their
// own with box office A, whose items, in the list order, are the oracle the responses are checked
// against, and box office B, whose items sit among A's and must never show.

export interface ListApp {
  t: TestApp;
  f: Factory;
  a: BoxOffice;
  b: BoxOffice;
  /** GET as box office A. */
  get: Get;
}

/**
 * A fresh app with box offices A and B, holding `key` and `otherKey`. The rate limit is out of
 * the way: a spec walks many pages.
 */
export async function createListApp(
  key: string,
  otherKey: string,
): Promise<ListApp> {
  const t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
  const f = new Factory(t.dataSource);
  const a = await f.boxOffice('A');
  const b = await f.boxOffice('B');
  await f.apiKey(a.id, key);
  await f.apiKey(b.id, otherKey);
  return { t, f, a, b, get: getAs(t.server, key) };
}

/** The ids of the oracle's items that `keep` accepts, in list order. */
export const expectedIds = <K extends { id: string }>(
  all: K[],
  keep: (item: K) => boolean,
) => all.filter(keep).map((item) => item.id);

type Comparison = [suffix: string, op: (a: number, b: number) => boolean];

/**
 * A range filter's key suffixes (`created_at.gt`) and the comparison each makes (docs/API.md,
 * GET /v1/orders).
 */
export const COMPARISONS: Comparison[] = [
  ['', (a, b) => a === b],
  ['.gt', (a, b) => a > b],
  ['.gte', (a, b) => a >= b],
  ['.lt', (a, b) => a < b],
  ['.lte', (a, b) => a <= b],
];

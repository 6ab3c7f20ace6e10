import type { DataSource } from 'typeorm';
import { type ReadRows, rowReader } from '../database/row-reader';
import { catchUpChanges } from './change-assigner';
import { dialectFor, SqlParams } from '../database/sql-dialect';
import {
  RESOURCE,
  idOf,
  pathOf,
} from '../common/resources/resource-identities';

/**
 * The change feed's reads (docs/API.md, "Change feed"). Entries are numbered per box office: on
 * SQLite by the writing transactions (migration SyncAndChanges), on PostgreSQL after they commit,
 * by the assigner (migration WritesWithoutHotRows, change-assigner.ts), whose numbering a reader
 * sees whole. Either way whatever a reader sees of one box office's entries is always 1..head
 * with no hole. No query here needs to hold anything back.
 */

/** The resources the feed tells of, in the order its types list them. */
export const FED_RESOURCES = [
  RESOURCE.order,
  RESOURCE.issuedTicket,
  RESOURCE.event,
  RESOURCE.eventSeries,
  RESOURCE.checkIn,
] as const;
type Fed = (typeof FED_RESOURCES)[number];

/** `ORDER.CREATED`, …: each fed resource's family and what happens to it. */
export type ChangeType = {
  [
    R in Fed as R['change']['family']
  ]: `${R['change']['family']}.${R['change']['events'][number]}`;
}[Fed['change']['family']];

export const CHANGE_TYPES: readonly ChangeType[] = FED_RESOURCES.flatMap(
  (resource) =>
    resource.change.events.map(
      (event) => `${resource.change.family}.${event}` as ChangeType,
    ),
);

/** Each resource family's id prefix and the path its resources are read at. */
export const CHANGE_RESOURCES = Object.fromEntries(
  FED_RESOURCES.map((resource) => [
    resource.change.family,
    { prefix: resource.prefix, path: `${pathOf(resource)}/` },
  ]),
) as Record<Fed['change']['family'], { prefix: string; path: string }>;
export type ChangeFamily = keyof typeof CHANGE_RESOURCES;

/** One entry as stored. */
export interface ChangeRow {
  id: number;
  type: ChangeType;
  resourceId: number;
  createdAt: number;
}

export interface ChangePageQuery {
  boxOfficeId: number;
  /** Entries with a greater id (0: from the start). */
  after: number;
  limit: number;
  /** Only these types (none: all). */
  types?: readonly ChangeType[];
  /** Only entries about this resource: its family's types and its number. */
  resource?: { family: ChangeFamily; id: number };
  createdAt?: { gt?: number; gte?: number; lt?: number; lte?: number };
}

const number = (value: unknown) => Number(value);

/**
 * The newest entry a reader can see now (0 when the box office has none yet): `chg_<n>`. Read as
 * the feed's page is (`read`: on PostgreSQL a named statement straight to the pool), since every
 * poll reads it. On PostgreSQL the box office's entries committed before it are numbered first
 * (change-assigner.ts), so the head is past every change committed before the call, as when the
 * writers numbered their own entries.
 */
export async function changeHead(
  dataSource: DataSource,
  boxOfficeId: number,
  read: ReadRows = rowReader(dataSource),
): Promise<number> {
  await catchUpChanges(dataSource, boxOfficeId, read);
  const p = new SqlParams(dialectFor(dataSource.options.type));
  const rows = await read(
    `SELECT last_id FROM change_heads WHERE box_office_id = ${p.add(boxOfficeId)}`,
    p.values,
  );
  return rows.length === 0 ? 0 : number(rows[0].last_id);
}

/**
 * Every box office's head added up: how many entries the feed has numbered in this database
 * (docs/OPERATIONS.md, Metrics). It only grows, as each head does; one row per box office.
 */
export async function changeHeadsTotal(read: ReadRows): Promise<number> {
  const rows = await read(
    'SELECT coalesce(sum(last_id), 0) AS total FROM change_heads',
    [],
  );
  return number(rows[0].total);
}

/** The entries after `after`, oldest first, as many as `limit`. */
export async function changePage(
  dataSource: DataSource,
  query: ChangePageQuery,
): Promise<ChangeRow[]> {
  const p = new SqlParams(dialectFor(dataSource.options.type));
  const where = [
    `box_office_id = ${p.add(query.boxOfficeId)}`,
    `id > ${p.add(query.after)}`,
  ];
  if (query.types && query.types.length > 0) {
    where.push(`type IN (${query.types.map((t) => p.add(t)).join(', ')})`);
  }
  if (query.resource) {
    const family = CHANGE_TYPES.filter((t) =>
      t.startsWith(`${query.resource!.family}.`),
    );
    where.push(`resource_id = ${p.add(query.resource.id)}`);
    where.push(`type IN (${family.map((t) => p.add(t)).join(', ')})`);
  }
  const range = query.createdAt ?? {};
  const ops = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
  for (const key of Object.keys(ops) as (keyof typeof ops)[]) {
    if (range[key] !== undefined) {
      where.push(`created_at ${ops[key]} ${p.add(range[key])}`);
    }
  }
  const rows = await dataSource.query<Record<string, unknown>[]>(
    `SELECT id, type, resource_id, created_at FROM changes
      WHERE ${where.join(' AND ')} ORDER BY id LIMIT ${p.add(query.limit)}`,
    p.values,
  );
  return rows.map((row) => ({
    id: number(row.id),
    type: row.type as ChangeType,
    resourceId: number(row.resource_id),
    createdAt: number(row.created_at),
  }));
}

/** The oldest entry still kept (null when none is). */
export async function oldestKeptChange(
  dataSource: DataSource,
  boxOfficeId: number,
): Promise<number | null> {
  const p = new SqlParams(dialectFor(dataSource.options.type));
  const [row] = await dataSource.query<{ oldest: unknown }[]>(
    `SELECT min(id) AS oldest FROM changes WHERE box_office_id = ${p.add(boxOfficeId)}`,
    p.values,
  );
  return row.oldest === null ? null : number(row.oldest);
}

/**
 * Whether a position is older than what the feed still holds: some entry after it was removed by
 * retention (410 CURSOR_EXPIRED), so reading on would silently skip it. Retention removes a
 * prefix of each box office's entries, so that is: an entry after the position exists (the head
 * is past it) and the oldest kept is not the next one. Read after the page, so that a cleanup
 * running in between is noticed.
 */
export async function isChangePositionExpired(
  dataSource: DataSource,
  boxOfficeId: number,
  after: number,
): Promise<boolean> {
  const head = await changeHead(dataSource, boxOfficeId);
  if (after >= head) return false;
  const oldest = await oldestKeptChange(dataSource, boxOfficeId);
  return oldest === null || oldest > after + 1;
}

/** `chg_<n>`. */
export const changeId = (n: number) => idOf(RESOURCE.change, n);

/** A position in the feed: a change id, or `chg_0` (the start). */
export const CHANGE_POSITION_PATTERN = `^${RESOURCE.change.prefix}(0|[1-9][0-9]*)$`;

/** `chg_<n>`, up to a safe integer: the position's number, or null. */
export function parseChangePosition(value: unknown): number | null {
  if (typeof value !== 'string' || !value.startsWith(RESOURCE.change.prefix)) {
    return null;
  }
  const digits = value.slice(RESOURCE.change.prefix.length);
  if (!/^(0|[1-9]\d{0,15})$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** The family of a type: `ORDER` of `ORDER.UPDATED`. */
export const changeFamily = (type: ChangeType) =>
  type.slice(0, type.indexOf('.')) as ChangeFamily;

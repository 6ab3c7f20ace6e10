import type { PageHeader } from '../common/openapi/api-operations';
import type { Filter } from '../common/pagination/list-filters';
import type { PageRequest } from '../common/resources/resource-reader';

/** The response header that carries the sync horizon (docs/API.md, "Incremental sync"). */
export const SYNC_WATERMARK_HEADER = 'X-Sync-Watermark';

/** How the lists that serve incremental sync document it (ApiList's pageHeaders). */
export const SYNC_PAGE_HEADERS: Record<string, PageHeader> = {
  [SYNC_WATERMARK_HEADER]: {
    description:
      'The sync horizon H of the caller\'s box office, Unix seconds of the database clock: every write of this box office that becomes visible after this response stamps a later updated_at (or created_at) than H. Another box office\'s writes never hold it back. In sync mode (an updated_at sort or filter, or sort=created_at) rows past H are held back. docs/API.md, "Incremental sync".',
    schema: {
      type: 'integer',
      format: 'int64',
      minimum: 0,
      maximum: 253_402_300_799,
    },
  },
};

/** The key columns of a list that incremental sync reads by. */
export interface SyncColumns {
  readonly created_at: string;
  /** Absent on a list whose rows never change (check-ins). */
  readonly updated_at?: string;
}

/** A list query: its order and whether it filters on updated_at decide sync mode. */
export interface SyncQuery {
  readonly sort?: string;
}

/**
 * What sync mode adds to a page of a list read at horizon H: the watermark header on every
 * response, and, in sync mode, the condition that holds back the rows not yet safe to hand out.
 * Sync mode is an `updated_at` order or any `updated_at` filter (rows with updated_at > H are
 * held back), or `sort=created_at` ascending (rows with created_at > H). The default newest-first
 * order holds nothing back.
 */
export function syncPage(
  query: SyncQuery,
  columns: SyncColumns,
  horizon: number,
): Pick<PageRequest, 'heldBack' | 'headers'> {
  const headers = { [SYNC_WATERMARK_HEADER]: String(horizon) };
  const column = heldBackColumn(query, columns);
  if (column === null) return { headers };
  const heldBack: Filter = {
    condition: (params) => `${column} <= ${params.add(horizon)}`,
    bound: { column, op: '<=', value: horizon },
  };
  return { headers, heldBack };
}

/**
 * Whether a request's query puts a list in sync mode, read from the raw query before validation:
 * its page then depends on the horizon, hence on the clock, not on the data alone.
 */
export function inSyncMode(query: SyncQuery): boolean {
  return heldBackKey(query) !== null;
}

/** The key a query in sync mode holds rows back by, or null outside sync mode. */
function heldBackKey(query: SyncQuery): keyof SyncColumns | null {
  const byUpdate =
    query.sort === 'updated_at' ||
    query.sort === '-updated_at' ||
    Object.entries(query).some(
      ([key, value]) =>
        (key === 'updated_at' || key.startsWith('updated_at.')) &&
        value !== undefined,
    );
  if (byUpdate) return 'updated_at';
  return query.sort === 'created_at' ? 'created_at' : null;
}

/** The column of that key on a list; a list whose rows never change has no updated_at. */
function heldBackColumn(query: SyncQuery, columns: SyncColumns) {
  const key = heldBackKey(query);
  if (key === 'updated_at' && columns.updated_at === undefined) {
    return query.sort === 'created_at' ? columns.created_at : null;
  }
  return key === null ? null : (columns[key] ?? null);
}

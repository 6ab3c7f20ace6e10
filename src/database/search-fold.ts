import { SEARCH_FOLD_TABLE } from './search-fold-table';

/**
 * The search fold (docs/API.md, "Text search"): the `name` and `venue` filters match when the
 * value's fold contains the search's fold. One table defines it (search-fold-table.ts, generated
 * by dev/search-fold-table.cli.ts): PostgreSQL folds with `search_fold(text)`, which migration
 * SearchFold made with that table frozen in it (search-fold.spec.ts checks the two are one), and
 * SQLite with `searchFold` below, which every connection registers under the same name
 * (data-source-options.ts), so both databases give the same rows.
 */
const TABLE: ReadonlyMap<string, string> = new Map(
  Object.entries(JSON.parse(SEARCH_FOLD_TABLE) as Record<string, string>),
);

/** Any UTF-16 unit beyond ASCII (a surrogate included). */
const BEYOND_ASCII = /[\u0080-\uffff]/;

/** `text` folded: each character replaced by its fold (ASCII text: only capitals change). */
export function searchFold(text: string): string {
  if (!BEYOND_ASCII.test(text)) return text.toLowerCase();
  let folded = '';
  for (const c of text) folded += TABLE.get(c) ?? c;
  return folded;
}

/** The SQL function that folds on both databases, and SQLite's definition of it. */
export const SEARCH_FOLD_FUNCTION = {
  name: 'search_fold',
  fold: (value: unknown): unknown =>
    typeof value === 'string' ? searchFold(value) : value,
} as const;

/** `sql` folded in SQL, the same expression on both databases. */
export const searchFoldSql = (sql: string) =>
  `${SEARCH_FOLD_FUNCTION.name}(${sql})`;

import { searchFold, searchFoldSql } from '../../database/search-fold';
import type { SqlParams } from '../../database/sql-dialect';
import { parsePrefixedId } from '../ids';

/** One condition of a list query, written as SQL when the statement is built. */
export interface Filter {
  condition(params: SqlParams): string;
  /**
   * For a list's scope: what it is, for messages (`event series es_3 of this box office`).
   */
  readonly describes?: string;
  /**
   * Set when the filter bounds a column by a constant, so that a keyset position on that column
   * that already implies it can leave it out (see `ResourceReader`).
   */
  readonly bound?: {
    readonly column: string;
    readonly op: Comparison;
    readonly value: number;
  };
}

export type Comparison = '=' | '>' | '>=' | '<' | '<=';

/**
 * The range parameters of a Unix-seconds field, as the API spells them (`created_at`,
 * `created_at.gt`, …), with the comparison each one means.
 */
export const RANGE_SUFFIXES = [
  ['', '=', 'equals'],
  ['.gt', '>', 'is greater than'],
  ['.gte', '>=', 'is greater than or equal to'],
  ['.lt', '<', 'is less than'],
  ['.lte', '<=', 'is less than or equal to'],
] as const satisfies readonly (readonly [string, Comparison, string])[];

/** `created_at`, `created_at.gt`, … for a field name. */
export type RangeKeys<F extends string> =
  `${F}${(typeof RANGE_SUFFIXES)[number][0]}`;

export const filters = {
  /** The range parameters of `field` the query carries, against `column`. */
  range<F extends string>(
    query: Partial<Record<RangeKeys<F>, number>>,
    field: F,
    column: string,
  ): Filter[] {
    const found: Filter[] = [];
    for (const [suffix, op] of RANGE_SUFFIXES) {
      const value = query[`${field}${suffix}` as RangeKeys<F>];
      if (value === undefined) continue;
      found.push({
        condition: (params) => `${column} ${op} ${params.add(value)}`,
        bound: { column, op, value },
      });
    }
    return found;
  },

  equals(column: string, value: unknown): Filter {
    return { condition: (params) => `${column} = ${params.add(value)}` };
  },

  /**
   * `column`'s fold contains `text`'s (docs/API.md, "Text search": `istanbul` finds `İstanbul`,
   * `strasse` `Straße`, `cafe` `Café`), the same on both databases: `%` and `_` in `text` are
   * literal, not wildcards. The search is folded here, the column by the database.
   */
  contains(column: string, text: string): Filter {
    const literal = searchFold(text).replace(/[\\%_]/g, (c) => `\\${c}`);
    return {
      condition: (params) =>
        `${searchFoldSql(column)} LIKE ${params.add(`%${literal}%`)} ESCAPE '\\'`,
    };
  },

  /**
   * `column` is `text` as search folds them (docs/API.md, "Text search"): case ignored in every
   * script, and the accents and compatibility forms `contains` ignores; the whole text, no
   * wildcards.
   */
  sameText(column: string, text: string): Filter {
    return {
      condition: (params) =>
        `${searchFoldSql(column)} = ${params.add(searchFold(text))}`,
    };
  },

  /** One of the values (a comma list in the query), deduplicated. */
  oneOf(column: string, values: readonly unknown[]): Filter {
    const distinct = [...new Set(values)];
    return {
      condition: (params) =>
        distinct.length === 1
          ? `${column} = ${params.add(distinct[0])}`
          : `${column} IN (${distinct.map((value) => params.add(value)).join(', ')})`,
    };
  },

  /** The ids of a validated comma list of prefixed ids (`ev_1,ev_2`). */
  prefixedIds(prefix: string, list: string): number[] {
    return list.split(',').map((id) => parsePrefixedId(prefix, id) ?? 0);
  },
};

/**
 * Rows whose event (`eventColumn`) belongs to one of the series: the box office's events of
 * those series, found through the events' series index.
 */
export function inSeries(
  eventColumn: string,
  boxOfficeId: number,
  seriesIds: readonly number[],
): Filter {
  const distinct = [...new Set(seriesIds)];
  return {
    condition: (params) =>
      `${eventColumn} IN (SELECT se.id FROM events se WHERE se.box_office_id = ${params.add(
        boxOfficeId,
      )} AND se.event_series_id IN (${distinct.map((id) => params.add(id)).join(', ')}))`,
  };
}

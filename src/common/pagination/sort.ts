import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { NotRepeated } from '../validation/strict-query';

/** One order a list can be read in: a column, then the numeric id, both in `direction`. */
export interface SortOrder {
  /** The sort key, a Unix-seconds column of the resource's table (`o.created_at`). */
  readonly column: string;
  readonly direction: 'ASC' | 'DESC';
  /**
   * Whether a row's key can change after it was read (`updated_at`). Cursors of such an order
   * carry the key as returned (`or_9@1786645321`), so that a row updated behind a walk does not
   * move the walk's position (docs/API.md, "Sorting").
   */
  readonly keyed: boolean;
}

/** The orders a resource's list offers, by the value of `sort` that names each, and its default. */
export interface ResourceSorts {
  readonly default: string;
  readonly options: Readonly<Record<string, SortOrder>>;
}

/** A list with one order and no `sort` parameter. */
export function onlySort(
  column: string,
  direction: SortOrder['direction'],
): ResourceSorts {
  return {
    default: 'default',
    options: { default: { column, direction, keyed: false } },
  };
}

/** `created_at` / `-created_at` (and likewise for other keys): ascending, then descending. */
export function sortsBy(
  keys: readonly { key: string; column: string; keyed: boolean }[],
  defaultSort: string,
): ResourceSorts {
  const options: Record<string, SortOrder> = {};
  for (const { key, column, keyed } of keys) {
    options[key] = { column, direction: 'ASC', keyed };
    options[`-${key}`] = { column, direction: 'DESC', keyed };
  }
  if (!(defaultSort in options)) {
    throw new Error(`default sort ${defaultSort} is not one of the options`);
  }
  return { default: defaultSort, options };
}

/** The order a request asked for (validated by SortParam), or the list's default. */
export function sortOf(sorts: ResourceSorts, value: string | undefined) {
  const name = value ?? sorts.default;
  const order = sorts.options[name];
  if (order === undefined) throw new Error(`unknown sort ${name}`);
  return { name, order };
}

/** The `sort` query parameter of a list, documented and checked from the list's own options. */
export function SortParam(sorts: ResourceSorts) {
  const values = Object.keys(sorts.options);
  return applyDecorators(
    ApiPropertyOptional({
      enum: values,
      default: sorts.default,
      description:
        'The list order: the key, then the id, both ascending, or both descending with a leading `-`.',
    }),
    IsOptional(),
    NotRepeated(),
    IsIn(values, { message: `sort must be one of ${values.join(', ')}` }),
  );
}

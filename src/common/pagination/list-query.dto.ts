import { type Type, applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { idSchema } from '../openapi/api-properties';
import { NotRepeated, StrictInt } from '../validation/strict-query';
import { RANGE_SUFFIXES, type RangeKeys } from './list-filters';

/**
 * A timestamp filter's range: from 1970 to the end of year 9999, the instants a date object can
 * write (docs/API.md, Timestamps). The document states exactly what the server takes.
 */
const TIMESTAMP_FILTER = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  maximum: 253_402_300_799,
} as const;

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

export interface CursorQuery {
  limit?: number;
  starting_after?: unknown;
  ending_before?: unknown;
}

/**
 * `limit` and the two cursors of a list whose ids are `<prefix><number>`. Cursors are checked by
 * the reader, which alone knows whether an id names an item the caller may see (a bad one is
 * INVALID_CURSOR, not a validation error).
 */
export function CursorQueryDto(
  noun: string,
  prefix: string,
): Type<CursorQuery> {
  // No examples on the cursors: Swagger UI's "Try it out" would send them, and an id that names
  // no item is an INVALID_CURSOR.
  const cursor = idSchema(prefix);
  class CursorQueryDto implements CursorQuery {
    @ApiPropertyOptional({
      description: `Number of items, 1–${MAX_PAGE_SIZE}`,
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    })
    @IsOptional()
    @StrictInt()
    @NotRepeated()
    @IsInt({ message: LIMIT_MESSAGE })
    @Min(1, { message: LIMIT_MESSAGE })
    @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
    limit?: number;

    @ApiPropertyOptional({
      ...cursor,
      description: `Cursor: the last ${noun} id of the current page, to fetch the next page.`,
    })
    @IsOptional()
    starting_after?: unknown;

    @ApiPropertyOptional({
      ...cursor,
      description: `Cursor: the first ${noun} id of the current page, to fetch the previous page. Wins when both cursors are given.`,
    })
    @IsOptional()
    ending_before?: unknown;
  }
  return CursorQueryDto;
}

const timestampRange = (key: string) =>
  `${key} must be Unix seconds from ${TIMESTAMP_FILTER.minimum} to ${TIMESTAMP_FILTER.maximum} (the end of year 9999)`;

/**
 * The range parameters of a Unix-seconds field (`created_at`, `created_at.gt`, …): each one
 * canonical integer, given once. `items` names what is filtered (`orders`).
 */
export function RangeQueryDto<F extends string>(
  field: F,
  items: string,
): Type<Partial<Record<RangeKeys<F>, number>>> {
  class RangeQueryDto {}
  for (const [suffix, , meaning] of RANGE_SUFFIXES) {
    const key = `${field}${suffix}`;
    const decorators: PropertyDecorator[] = [
      ApiPropertyOptional({
        name: key,
        ...TIMESTAMP_FILTER,
        description: `Unix seconds: ${items} whose ${field} ${meaning} it`,
      }),
      IsOptional(),
      StrictInt(),
      NotRepeated(),
      IsInt({ message: `${key} must be an integer (Unix seconds)` }),
      Min(TIMESTAMP_FILTER.minimum, { message: timestampRange(key) }),
      Max(TIMESTAMP_FILTER.maximum, { message: timestampRange(key) }),
    ];
    for (const decorate of decorators) decorate(RangeQueryDto.prototype, key);
  }
  return RangeQueryDto as Type<Partial<Record<RangeKeys<F>, number>>>;
}

/**
 * A value of `values`, or a comma list of them (`status=draft,published`): checked whole, as
 * the string it arrives as, so that a repeated key still fails NotRepeated.
 */
export function OneOrCommaListOf(name: string, values: readonly string[]) {
  const one = `(${values.join('|')})`;
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      pattern: `^${one}(,${one})*$`,
      maxLength: values.join(',').length,
      // No example, as on every filter: "Try it out" would send it (filter-params.ts).
      description: `One of ${values.join(', ')}, or a comma list of them (\`${values.slice(0, 2).join(',')}\`)`,
    }),
    IsOptional(),
    NotRepeated(),
    IsString({ message: `${name} must be one of ${values.join(', ')}` }),
    Matches(new RegExp(`^${one}(,${one})*$`), {
      message: `${name} must be one of ${values.join(', ')}, or a comma list of them`,
    }),
  );
}

import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/**
 * Property decorators for the response schemas, so that every field of a kind is described the
 * same way, with the bounds the database or docs/API.md sets (docs/API.md, Limits: "Response
 * fields"). The document builder adds `additionalProperties: false` to every object; every field
 * is required (always present) and nullable only where it says so.
 */

interface Described {
  description?: string;
  example?: unknown;
}

/** Integer bounds: `format` and `minimum`/`maximum`. */
export interface IntegerBounds {
  format: 'int32' | 'int64';
  minimum: number;
  maximum: number;
}

const INT32_MAX = 2_147_483_647;

/** An INTEGER column: money in minor units (discounts are negative), quantities, sort orders. */
export const INT32: IntegerBounds = {
  format: 'int32',
  minimum: -INT32_MAX - 1,
  maximum: INT32_MAX,
};

/** A count or an amount left: an INTEGER column that cannot be negative. */
export const COUNT: IntegerBounds = {
  format: 'int32',
  minimum: 0,
  maximum: INT32_MAX,
};

/**
 * A Unix time in seconds, from 1970 to the end of year 9999: the instants a date object can write
 * with its four-digit year (docs/API.md, Timestamps).
 */
export const UNIX_SECONDS: IntegerBounds = {
  format: 'int64',
  minimum: 0,
  maximum: 253_402_300_799,
};

/** The largest number in an id (`or_2147483647`): ids are INTEGER keys. */
export const MAX_ID = INT32_MAX;

/** `^or_[1-9][0-9]*$` and its length: the prefix and at most 10 digits. */
export const idSchema = (prefix: string) => ({
  type: 'string' as const,
  pattern: `^${prefix}[1-9][0-9]*$`,
  maxLength: prefix.length + String(MAX_ID).length,
});

/** An integer field. */
export const Integer = (bounds: IntegerBounds, described: Described = {}) =>
  ApiProperty({ type: 'integer', ...bounds, ...described });

/** An integer field that may be null. */
export const NullableInteger = (
  bounds: IntegerBounds,
  described: Described = {},
) => ApiProperty({ type: 'integer', nullable: true, ...bounds, ...described });

/** One integer of a closed set (`base_multiplier`: 1 or 100). */
export const IntegerEnum = (
  values: readonly number[],
  described: Described = {},
) =>
  ApiProperty({
    type: 'integer',
    format: 'int32',
    enum: [...values],
    minimum: Math.min(...values),
    maximum: Math.max(...values),
    ...described,
  });

/** `object`: the resource's name, always the same string. */
export const Literal = (value: string) =>
  ApiProperty({
    type: String,
    enum: [value],
    description: `Always "${value}"`,
    example: value,
  });

/** An id with this prefix (`or_123`). */
export const Id = (prefix: string, described: Described = {}) =>
  ApiProperty({ ...idSchema(prefix), example: `${prefix}1`, ...described });

/** An id with this prefix, or null. */
export const NullableId = (prefix: string, described: Described = {}) =>
  ApiProperty({
    ...idSchema(prefix),
    nullable: true,
    example: `${prefix}1`,
    ...described,
  });

interface TextOptions extends Described {
  pattern?: string;
  format?: string;
}

/** A string of at most `maxLength` characters (a column's length). */
export const Text = (maxLength: number, options: TextOptions = {}) =>
  ApiProperty({ type: String, maxLength, ...options });

/** A string of at most `maxLength` characters, or null. */
export const NullableText = (maxLength: number, options: TextOptions = {}) =>
  ApiProperty({ type: String, nullable: true, maxLength, ...options });

/** One value of a closed set. */
export const OneOf = (values: readonly string[], described: Described = {}) =>
  ApiProperty({ type: String, enum: [...values], ...described });

/** An object of this schema. */
export const Nested = (type: Type, described: Described = {}) =>
  ApiProperty({ type, ...described });

/** An object of this schema, or null. */
export const NullableNested = (type: Type, described: Described = {}) =>
  ApiProperty({ type, nullable: true, ...described });

/** An array of at most `maxItems` items of this schema (`String` for strings: give `items`). */
export const ArrayOf = (
  type: Type | typeof String,
  maxItems: number,
  described: Described & { items?: Record<string, unknown> } = {},
) => {
  const { items, ...rest } = described;
  return ApiProperty({
    type: [type],
    maxItems,
    ...(items ? { items: { type: 'string', ...items } } : {}),
    ...rest,
  } as Parameters<typeof ApiProperty>[0]);
};

/** A buyer's e-mail as the orders table keeps it: one `@`, no spaces, at most 320 characters. */
export const EMAIL = {
  pattern: '^[^\\s@]+@[^\\s@]+$',
  maxLength: 320,
} as const;

/** Descriptions are TEXT columns; this bound is documented, not enforced by the database. */
export const MAX_DESCRIPTION = 10_000;

/** Ticket Tailor's booleans are the strings "true" and "false". */
export const FLAG = ['true', 'false'] as const;

/** An absolute https URL of at most 500 characters (the URL columns). */
export const HTTPS_URL = {
  format: 'uri',
  pattern: '^https://',
  maxLength: 500,
} as const;

import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { EMAIL, idSchema } from '../openapi/api-properties';
import { NotRepeated } from '../validation/strict-query';

/** Ids in one `event_id` list. */
export const MAX_IDS = 100;

/** `ev_1` or `ev_1,ev_2`, up to MAX_IDS: an IdListParam's pattern, for a body field too. */
export function idListPattern(prefix: string): string {
  const id = `${prefix}[1-9]\\d{0,9}`;
  return `^${id}(,${id}){0,${MAX_IDS - 1}}$`;
}

/**
 * Query parameters that several lists share, each a property decorator that documents and
 * validates it the same way wherever it appears.
 */

/**
 * An optional string parameter given once, documented with its bounds. Filters carry no
 * `example`: Swagger UI's "Try it out" would send it and narrow the list (the description shows
 * the format instead).
 */
const optionalOnce = (
  description: string,
  bounds: { maxLength: number; minLength?: number; pattern?: string },
) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, ...bounds, description }),
    IsOptional(),
    NotRepeated(),
  );

/** `ev_1` or `ev_1,ev_2`: one id of `prefix`, or a comma list of up to MAX_IDS. */
export function IdListParam(name: string, prefix: string, description: string) {
  const pattern = idListPattern(prefix);
  const idLength = idSchema(prefix).maxLength;
  return applyDecorators(
    optionalOnce(
      `${description} (\`${prefix}1\` or \`${prefix}1,${prefix}2\`)`,
      {
        pattern,
        maxLength: MAX_IDS * (idLength + 1) - 1,
      },
    ),
    IsString({ message: `${name} must be an id or a comma list of them` }),
    Matches(new RegExp(pattern), {
      message: `${name} must be an id (${prefix}<number>) or a comma list of up to ${MAX_IDS}`,
    }),
  );
}

/** One prefixed id (`or_1`). */
export function IdParam(name: string, prefix: string, description: string) {
  return applyDecorators(
    optionalOnce(`${description} (\`${prefix}1\`)`, {
      ...idSchema(prefix),
      pattern: `^${prefix}[1-9]\\d{0,9}$`,
    }),
    IsString({ message: `${name} must be an id (${prefix}<number>)` }),
    Matches(new RegExp(`^${prefix}[1-9]\\d{0,9}$`), {
      message: `${name} must be an id (${prefix}<number>)`,
    }),
  );
}

/** A buyer e-mail, matched exactly but case-insensitively. */
export function EmailParam(description: string) {
  return applyDecorators(
    optionalOnce(description, {
      minLength: 1,
      maxLength: EMAIL.maxLength,
      pattern: EMAIL.pattern,
    }),
    IsString({ message: 'email must be an e-mail address' }),
    Length(1, EMAIL.maxLength, {
      message: 'email must be an e-mail address of at most 320 characters',
    }),
    // Deliberately permissive (real addresses vary): one @, something either side, no spaces.
    Matches(new RegExp(EMAIL.pattern), {
      message: 'email must be an e-mail address',
    }),
  );
}

/** Text without a NUL character. */
// eslint-disable-next-line no-control-regex -- a NUL is what it looks for
const NO_NUL = /^[^\u0000]*$/;

/** A free-text value of 1 to `max` characters (a barcode, a transaction id). */
export function TextParam(name: string, max: number, description: string) {
  return applyDecorators(
    optionalOnce(description, {
      minLength: 1,
      maxLength: max,
      pattern: NO_NUL.source,
    }),
    IsString({ message: `${name} must be a string` }),
    Length(1, max, { message: `${name} must be 1 to ${max} characters` }),
    // SQLite ends a LIKE pattern at a NUL: `a%00b` would search for `a`.
    Matches(NO_NUL, {
      message: `${name} must not contain a NUL character (%00)`,
    }),
  );
}

/** One value of a closed set. */
export function EnumParam(
  name: string,
  values: readonly string[],
  description: string,
) {
  return applyDecorators(
    ApiPropertyOptional({ enum: values, description }),
    IsOptional(),
    NotRepeated(),
    IsIn(values, { message: `${name} must be one of ${values.join(', ')}` }),
  );
}

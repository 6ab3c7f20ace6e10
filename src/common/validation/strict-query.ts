import { Transform } from 'class-transformer';
import {
  ValidateIf,
  ValidationOptions,
  registerDecorator,
} from 'class-validator';

/**
 * Query values arrive as strings (or arrays when a key is repeated). These helpers turn only
 * canonical decimal integers into numbers; `1e1`, `0x10`, ` 1`, `1.5`, `` and arrays stay as they
 * are and fail the numeric validators that follow.
 */
export const StrictInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?(0|[1-9]\d{0,15})$/.test(value)
      ? Number(value)
      : value,
  );

/** Fails when a query key was given more than once. */
export function NotRepeated(options?: ValidationOptions): PropertyDecorator {
  return (target: object, property: string | symbol) =>
    registerDecorator({
      name: 'notRepeated',
      target: target.constructor,
      propertyName: String(property),
      options: {
        message: `${String(property)} must be given once`,
        ...options,
      },
      validator: { validate: (value: unknown) => !Array.isArray(value) },
    });
}

/**
 * Checks a body field when the request has it. Unlike `@IsOptional()`, which skips `null` as
 * well, a JSON `null` is a value here and fails the checks that follow: a field nobody meant to
 * leave empty is refused rather than read as its default (every write's DTO).
 */
export const Given = () =>
  ValidateIf((_body: unknown, value: unknown) => value !== undefined);

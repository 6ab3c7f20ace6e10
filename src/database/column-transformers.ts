import { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns BIGINT as a string (it may exceed 2^53); our bigints are Unix seconds, which
 * never do, so they are read back as numbers on both databases.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) =>
    value === null || value === undefined ? value : Number(value),
};

/** JSON kept in a TEXT column, portable to both databases. */
export const jsonText: ValueTransformer = {
  to: (value: unknown) =>
    value === undefined ? undefined : JSON.stringify(value),
  from: (value: string | null) => (value === null ? null : JSON.parse(value)),
};

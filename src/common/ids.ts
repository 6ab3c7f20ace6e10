/** The largest id a row can have (INTEGER columns on PostgreSQL are 32-bit). */
const MAX_ID = 2_147_483_647;

/**
 * The number in a prefixed id (`or_42` → 42), or null when the value is not exactly such an id:
 * other prefixes, leading zeros, signs, spaces and numbers no row can have are all rejected.
 */
export function parsePrefixedId(prefix: string, value: unknown): number | null {
  if (typeof value !== 'string' || !value.startsWith(prefix)) return null;
  const digits = value.slice(prefix.length);
  if (!/^[1-9]\d{0,9}$/.test(digits)) return null;
  const id = Number(digits);
  return id <= MAX_ID ? id : null;
}

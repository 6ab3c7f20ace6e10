import { parsePrefixedId } from '../ids';

/** A place in a list's order: the row's sort key and its numeric id. */
export interface Position {
  readonly key: number;
  readonly id: number;
}

/** The largest key a keyed cursor may carry: the end of year 9999 in Unix seconds. */
export const MAX_CURSOR_KEY = 253_402_300_799;

/**
 * A cursor parameter as the client sent it: an id (`or_9`), which the reader places at the row's
 * current key, or, in an order whose key can change, an id with the key it was read at
 * (`or_9@1786645321`), which is a position by itself. Null when it is neither.
 */
export function parseCursor(
  prefix: string,
  value: unknown,
  keyed: boolean,
): { readonly id: number; readonly key: number | null } | null {
  if (typeof value !== 'string') return null;
  const at = value.indexOf('@');
  if (at === -1) {
    const id = parsePrefixedId(prefix, value);
    return id === null ? null : { id, key: null };
  }
  if (!keyed) return null;
  const id = parsePrefixedId(prefix, value.slice(0, at));
  const digits = value.slice(at + 1);
  if (id === null || !/^(0|[1-9]\d{0,11})$/.test(digits)) return null;
  const key = Number(digits);
  return key <= MAX_CURSOR_KEY ? { id, key } : null;
}

/** The cursor a link carries for a row: its id, with its key in a keyed order. */
export function formatCursor(
  prefix: string,
  position: Position,
  keyed: boolean,
): string {
  const id = `${prefix}${String(position.id)}`;
  return keyed ? `${id}@${String(position.key)}` : id;
}

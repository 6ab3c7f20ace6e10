import { hash, randomInt } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_RANDOM_LENGTH = 40;
/** Shown in key lists so people can tell keys apart: `sk_` and four characters. */
const DISPLAY_PREFIX_LENGTH = 7;

/** A new API key: `sk_` and 40 base62 characters from the CSPRNG (~238 bits). */
export function generateApiKey(): string {
  let key = 'sk_';
  for (let i = 0; i < KEY_RANDOM_LENGTH; i++) key += BASE62[randomInt(62)];
  return key;
}

/**
 * SHA-256 of the key, hex: what api_keys.key_hash holds. Node's one-shot `hash` (no Hash object
 * per call) takes half the time of createHash().update().digest() on a key (1.0 against 1.9 µs
 * in a loop; bench/notes/2026-12-07-ticket-writes-and-nest-floor.md): this runs on every request.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

const STRICT_BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KEY_SHAPE = /^[A-Za-z0-9_]{1,200}$/;

/**
 * The API key in an `Authorization: Basic …` header: the user name of `base64("key:")`, or the
 * whole of `base64("key")`. Null when the header is not that (wrong scheme, bad base64, a key
 * with characters no key has).
 */
export function apiKeyFromAuthorization(header: string): string | null {
  const match = /^Basic +(\S+) *$/i.exec(header);
  if (!match || !STRICT_BASE64.test(match[1])) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon === -1 ? decoded : decoded.slice(0, colon);
  return KEY_SHAPE.test(key) ? key : null;
}

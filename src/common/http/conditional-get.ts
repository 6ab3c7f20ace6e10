import type { Express, Request } from 'express';
import { bodyPartOf } from './etag';

/**
 * Whether an `If-None-Match` field value matches a response's entity tag, as an origin server
 * evaluates it (RFC 9110, 13.1.2): `*` matches any current representation; otherwise the value is
 * a comma list of entity tags, compared weakly (`W/"x"` and `"x"` match each other). A value that
 * is not a valid list matches nothing, so the client gets the full response. Tags are compared by
 * the part that stands for the bytes (etag.ts): a tag read at an older data version still matches
 * a body that has not changed since, and the 304 carries the current tag.
 */
export function ifNoneMatchMatches(
  fieldValue: string | undefined,
  etag: string | undefined,
): boolean {
  if (fieldValue === undefined || !etag) return false;
  if (fieldValue.trim() === '*') return true;
  const tags = entityTags(fieldValue);
  if (tags === null) return false;
  const body = bodyPartOf(etag);
  return tags.some((tag) => bodyPartOf(tag) === body);
}

/** An entity-tag: optional `W/`, then a quoted string of etagc (no `"`, no controls, no space). */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/;

/**
 * The tags of `#entity-tag` (elements separated by commas and optional whitespace, empty elements
 * allowed), or null when the value is not such a list. A comma may appear inside a tag, so the
 * value is read tag by tag rather than split.
 */
export function entityTags(value: string): string[] | null {
  const tags: string[] = [];
  let rest = value;
  for (;;) {
    rest = rest.replace(/^[\t ,]+/, '');
    if (rest === '') return tags;
    const match = ENTITY_TAG.exec(rest);
    if (!match) return null;
    tags.push(match[0]);
    rest = rest.slice(match[0].length);
    if (!/^[\t ]*(,|$)/.test(rest)) return null;
  }
}

/**
 * Express decides 304 in res.send through `req.fresh`, which answers false whenever the request
 * carries `Cache-Control: no-cache`. That directive is for caches, not for an origin server
 * comparing validators: the Fetch standard adds it (with `Pragma: no-cache`) to every request that
 * carries `If-None-Match`, so browsers and Node's fetch would never get a 304. This redefines
 * `req.fresh` for the app's requests: a GET or HEAD whose response is 2xx (or already 304) is fresh
 * exactly when `If-None-Match` matches the response's ETag (docs/API.md, Headers: "ETag and
 * If-None-Match"). `If-Modified-Since` plays no part: no response carries Last-Modified.
 */
export function useValidatorFreshness(app: Express): void {
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const status = this.res?.statusCode ?? 0;
      if (!((status >= 200 && status < 300) || status === 304)) return false;
      const etag = this.res?.getHeader('ETag');
      return ifNoneMatchMatches(
        this.headers['if-none-match'],
        typeof etag === 'string' ? etag : undefined,
      );
    },
  });
}

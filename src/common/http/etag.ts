import { crc32 } from 'node:zlib';

/**
 * Express's ETag function, replaced: a strong tag from the body's byte length and CRC-32, which
 * zlib computes natively, at a fraction of the cost of Express's SHA-1 on a list page (timings:
 * bench/notes/2026-11-22-hot-path-measurements.md). An ETag only has to tell versions of one
 * URL's response apart, not resist forgery: a changed page of the same length keeps its tag with
 * probability 2^-32 (docs/DESIGN.md, Decisions: "The ETag is length plus CRC-32").
 * res.send answers a matching `If-None-Match` with 304 (conditional-get.ts decides when).
 */
export function etagOf(body: string | Buffer): string {
  return `"${bodyValidator(body)}"`;
}

/** `<length>-<crc>` in base 36: the part of every tag that stands for the bytes. */
const bodyValidator = (body: string | Buffer) =>
  `${Buffer.byteLength(body).toString(36)}-${crc32(body).toString(36)}`;

/**
 * The tag of a response whose URL's data version is known (src/revalidation/revalidation.ts):
 * `"<length>-<crc>.<version>"`. The first part stands for the bytes, as etagOf's whole tag does;
 * the second for the version the body was read at, so that a later `If-None-Match` carrying it
 * can be answered 304 without building the body while the version stays the same.
 */
export function versionedEtag(body: string | Buffer, version: string): string {
  return `"${bodyValidator(body)}.${version}"`;
}

/** An entity tag's opaque part without `W/` and quotes: `a-b.v` of `W/"a-b.v"`. */
const opaque = (tag: string) =>
  (tag.startsWith('W/') ? tag.slice(2) : tag).slice(1, -1);

/**
 * The part of a tag that stands for the bytes (`a-b` of `"a-b.v"` and of `"a-b"`): two tags
 * with the same body part name the same bytes, whatever version they were read at.
 */
export function bodyPartOf(tag: string): string {
  const value = opaque(tag);
  const dot = value.indexOf('.');
  return dot === -1 ? value : value.slice(0, dot);
}

/** The version part of a tag (`v` of `"a-b.v"`), or null when it has none. */
export function versionPartOf(tag: string): string | null {
  const value = opaque(tag);
  const dot = value.indexOf('.');
  return dot === -1 ? null : value.slice(dot + 1);
}

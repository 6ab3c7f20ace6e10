/**
 * The matchers the resource shapes (event-shape.ts, order-shape.ts) are written in: what a field
 * of a documented type looks like when its value is not known one by one.
 */

/** null, or whatever `matcher` accepts. */
export const nullOr = (matcher: unknown) => ({
  asymmetricMatch: (actual: unknown) =>
    actual === null ||
    (matcher as { asymmetricMatch(a: unknown): boolean }).asymmetricMatch(
      actual,
    ),
  toString: () => 'NullOr',
  toAsymmetricMatcher: () => `NullOr<${String(matcher)}>`,
});

export const integer = {
  asymmetricMatch: (actual: unknown) => Number.isInteger(actual),
  toString: () => 'Integer',
  toAsymmetricMatcher: () => 'Integer',
};

/** An id of `prefix` (docs/API.md, Identifiers): `ev_1`, never `ev_0` or `ev_01`. */
export const prefixedId = (prefix: string) =>
  expect.stringMatching(new RegExp(`^${prefix}_[1-9]\\d*$`));

/** docs/API.md, Date objects. */
export const dateObject = {
  date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  formatted: expect.any(String),
  iso: expect.stringMatching(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/,
  ),
  time: expect.stringMatching(/^\d{2}:\d{2}$/),
  timezone: expect.stringMatching(/^[+-]\d{2}:\d{2}$/),
  unix: integer,
};

import { Transform } from 'class-transformer';

/** `<prefix><id>` for an integer id, null kept null (class-transformer, plain output only). */
export const Prefixed = (prefix: string) =>
  Transform(
    ({ value }: { value: number | null | undefined }) =>
      value === null || value === undefined ? null : `${prefix}${value}`,
    { toPlainOnly: true },
  );

/** A boolean as the API carries flags: the string `"true"` or `"false"`. */
export const Flag = () =>
  Transform(({ value }: { value: boolean }) => String(value), {
    toPlainOnly: true,
  });

export class PageLinks {
  next: string | null;
  previous: string | null;
}

/**
 * A page link as the API writes it: the cursor first, then the request's other parameters in
 * the order they came.
 */
export function link(
  path: string,
  cursor: 'starting_after' | 'ending_before',
  id: string,
  query: Record<string, unknown>,
): string {
  const params = [`${cursor}=${encodeURIComponent(id)}`];
  for (const [key, value] of Object.entries(query)) {
    if (key === 'starting_after' || key === 'ending_before') continue;
    params.push(
      `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`,
    );
  }
  return `${path}?${params.join('&')}`;
}

/** The links of a page whose first and last items have these public ids. */
export function pageLinks(
  path: string,
  page: { hasNext: boolean; hasPrevious: boolean },
  firstId: string | undefined,
  lastId: string | undefined,
  query: Record<string, unknown>,
): PageLinks {
  return {
    next:
      page.hasNext && lastId
        ? link(path, 'starting_after', lastId, query)
        : null,
    previous:
      page.hasPrevious && firstId
        ? link(path, 'ending_before', firstId, query)
        : null,
  };
}

/**
 * One page of a keyset-paginated list, as the service found it. Items are JSON texts already:
 * the links interceptor only wraps them (see PaginationLinksInterceptor).
 */
export interface Page {
  readonly items: readonly string[];
  /**
   * The cursors of the first and last item, as links carry them (null on an empty page): the
   * prefixed id, with the sort key in an order whose key can change (`or_9@1786645321`).
   */
  readonly firstCursor: string | null;
  readonly lastCursor: string | null;
  /** Whether a matching item comes after the last one / before the first one. */
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
  /** Response headers that describe the page (the sync watermark, the change feed's head). */
  readonly headers?: Readonly<Record<string, string>>;
}

export function emptyPage(headers?: Readonly<Record<string, string>>): Page {
  return {
    items: [],
    firstCursor: null,
    lastCursor: null,
    hasNext: false,
    hasPrevious: false,
    headers,
  };
}

/**
 * One page of a keyset-paginated list, as the service found it. Items are JSON texts already:
 * the links interceptor only wraps them (see PaginationLinksInterceptor).
 */
export interface Page {
  readonly items: readonly string[];
  /** Prefixed id of the first and last item (null on an empty page). */
  readonly firstId: string | null;
  readonly lastId: string | null;
  /** Whether a matching item comes after the last one / before the first one. */
  readonly hasNext: boolean;
  readonly hasPrevious: boolean;
}

export function emptyPage(): Page {
  return {
    items: [],
    firstId: null,
    lastId: null,
    hasNext: false,
    hasPrevious: false,
  };
}

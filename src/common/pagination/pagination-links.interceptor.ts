import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Observable, map } from 'rxjs';
import type { Page } from './page';

const LIST_PAGE = 'listPage';

/**
 * On a handler that returns a Page: PaginationLinksInterceptor turns it into the list's body.
 * `ApiList` applies it with the operation's documentation.
 */
export const ListPage = () => SetMetadata(LIST_PAGE, true);

const CURSORS = new Set(['starting_after', 'ending_before']);

/** `/v1/orders?starting_after=or_9&limit=10…`: the cursor first, then the request's other parameters. */
export function pageLink(
  path: string,
  cursor: 'starting_after' | 'ending_before',
  id: string,
  query: Record<string, unknown>,
): string {
  // `@` may stand in a query as it is (RFC 3986): a keyed cursor reads `or_9@1786645321`.
  const parts = [`${cursor}=${encodeURIComponent(id).replace(/%40/g, '@')}`];
  for (const [key, value] of Object.entries(query)) {
    if (CURSORS.has(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(
        `${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`,
      );
    }
  }
  return `${path}?${parts.join('&')}`;
}

/** A page's `next` and `previous`: null when nothing lies that way. */
export function pageLinks(
  page: Page,
  path: string,
  query: Record<string, unknown>,
): { next: string | null; previous: string | null } {
  return {
    next:
      page.hasNext && page.lastCursor
        ? pageLink(path, 'starting_after', page.lastCursor, query)
        : null,
    previous:
      page.hasPrevious && page.firstCursor
        ? pageLink(path, 'ending_before', page.firstCursor, query)
        : null,
  };
}

/**
 * Registered globally (AppModule), it acts on the handlers marked ListPage: turns the service's
 * Page into `{"data": [...], "links": {"next", "previous"}}`, encoded (the HTTP adapter sends a
 * Buffer as JSON bytes). Links are relative, keep the request's other parameters, and are null
 * when nothing lies that way.
 */
@Injectable()
export class PaginationLinksInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (
      context.getType() !== 'http' ||
      this.reflector.get<true | undefined>(LIST_PAGE, context.getHandler()) !==
        true
    ) {
      return next.handle();
    }
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // The raw query: the validated DTO has lost the caller's spelling of values (e.g. `canceled`).
    const query = request.query as Record<string, unknown>;
    const path = listPath(request);
    return next.handle().pipe(
      map((page: Page) => {
        for (const [name, value] of Object.entries(page.headers ?? {})) {
          response.setHeader(name, value);
        }
        return wrapPage(page.items, pageLinks(page, path, query));
      }),
    );
  }
}

/**
 * The list's own path for its links: the route's (`/v1/orders`, not the caller's `/v1/orders/`),
 * with the values of its path parameters (`/v1/event_series/es_3/events`), each encoded.
 */
export function listPath(request: Request): string {
  const route = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof route !== 'string') return request.path.replace(/\/+$/, '') || '/';
  const params = request.params as Record<string, string | undefined>;
  const path = route.replace(/:([A-Za-z_]\w*)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  return path.replace(/\/+$/, '') || '/';
}

/** Reused from page to page; grown when a page needs more, never above this size. */
let scratch = Buffer.allocUnsafeSlow(1 << 20);
const MAX_SCRATCH_BYTES = 8 << 20;

/**
 * `{"data":[item,item…],"links":{…}}` as one buffer of the exact size. Items are encoded into a
 * scratch buffer sized from their UTF-16 lengths (UTF-8 needs at most 3 bytes per code unit),
 * then copied out once: measuring each item's UTF-8 length first cost more than the copy.
 * Joining the strings first would make one page-sized string that V8 stores with two bytes per
 * character as soon as one order holds a character beyond Latin-1, and encoding that is slow;
 * one allocation also spares the garbage collector a buffer per item.
 */
export function wrapPage(
  items: readonly string[],
  links: { next: string | null; previous: string | null },
): Buffer {
  const open = '{"data":[';
  const close = `],"links":${JSON.stringify(links)}}`;
  let bound = open.length + items.length + 3 * close.length;
  for (const item of items) bound += 3 * item.length;
  let target = scratch;
  if (bound > target.length) {
    target = Buffer.allocUnsafeSlow(bound);
    if (bound <= MAX_SCRATCH_BYTES) scratch = target;
  }
  let offset = target.write(open, 0, 'latin1');
  items.forEach((item, index) => {
    if (index > 0) offset += target.write(',', offset, 'latin1');
    offset += target.write(item, offset, 'utf8');
  });
  offset += target.write(close, offset, 'utf8');
  const body = Buffer.allocUnsafe(offset);
  target.copy(body, 0, 0, offset);
  return body;
}

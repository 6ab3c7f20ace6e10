import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import type { Page } from './page';
import {
  ListPage,
  PaginationLinksInterceptor,
  pageLink,
  wrapPage,
} from './pagination-links.interceptor';

describe('pageLink', () => {
  it('is exactly path?cursor=id when the request had no other parameter', () => {
    expect(pageLink('/v1/orders', 'starting_after', 'or_9', {})).toBe(
      '/v1/orders?starting_after=or_9',
    );
    expect(pageLink('/v1/orders', 'ending_before', 'or_12', {})).toBe(
      '/v1/orders?ending_before=or_12',
    );
  });

  it('keeps the other parameters after the cursor, in request order', () => {
    expect(
      pageLink('/v1/orders', 'starting_after', 'or_9', {
        limit: '10',
        'created_at.gte': '1750000000',
        status: 'canceled',
      }),
    ).toBe(
      '/v1/orders?starting_after=or_9&limit=10&created_at.gte=1750000000&status=canceled',
    );
  });

  it('drops both cursors of the request', () => {
    expect(
      pageLink('/v1/orders', 'ending_before', 'or_3', {
        starting_after: 'or_1',
        limit: '2',
        ending_before: 'or_7',
      }),
    ).toBe('/v1/orders?ending_before=or_3&limit=2');
  });

  it('percent-encodes keys and values', () => {
    expect(
      pageLink('/v1/orders', 'starting_after', 'or_9', {
        email: 'a+b@example.com',
        txn_id: 'x y&z=1',
        event_id: 'ev_1,ev_2',
      }),
    ).toBe(
      '/v1/orders?starting_after=or_9&email=a%2Bb%40example.com&txn_id=x%20y%26z%3D1&event_id=ev_1%2Cev_2',
    );
  });

  it('repeats a repeated key', () => {
    expect(pageLink('/p', 'starting_after', 'or_1', { a: ['1', '2'] })).toBe(
      '/p?starting_after=or_1&a=1&a=2',
    );
  });
});

describe('wrapPage', () => {
  const links = { next: '/v1/orders?starting_after=or_1', previous: null };
  const expected = (items: string[]) =>
    Buffer.from(
      `{"data":[${items.join(',')}],"links":${JSON.stringify(links)}}`,
      'utf8',
    );

  it.each([
    ['no items', []],
    ['one ASCII item', ['{"id":"or_1"}']],
    ['multi-byte items', ['{"n":"Zoë"}', '{"n":"東京 🎟"}', '{"n":"x"}']],
  ])(
    'gives exactly the UTF-8 bytes of the joined page (%s)',
    (_name, items) => {
      expect(wrapPage(items, links).equals(expected(items))).toBe(true);
    },
  );

  it('handles pages beyond its reusable buffer, and is exact again afterwards', () => {
    // 3 x 1.5 MB of three-byte characters: 13.5 MB of UTF-8, above every internal size.
    const huge = Array.from(
      { length: 3 },
      (_, i) => `"${'東'.repeat(1.5e6)}${i}"`,
    );
    const small = ['{"id":"or_2"}'];
    expect(wrapPage(huge, links).equals(expected(huge))).toBe(true);
    expect(wrapPage(small, links).equals(expected(small))).toBe(true);
  });

  it('returns a buffer of its own: a later page does not overwrite an earlier one', () => {
    const first = wrapPage(['{"id":"or_1"}'], links);
    const copy = Buffer.from(first);
    wrapPage(['{"id":"or_9999"}'], links);
    expect(first.equals(copy)).toBe(true);
  });
});

describe('PaginationLinksInterceptor', () => {
  const interceptor = new PaginationLinksInterceptor(new Reflector());
  /** A handler as ApiList marks it (Nest reads a method's metadata from the function). */
  const listHandler = () => undefined;
  ListPage()(listHandler);

  const headers = new Map<string, string>();

  async function render(
    page: Page,
    path: string,
    query: Record<string, unknown> = {},
    route?: { path: string; params: Record<string, string> },
  ): Promise<unknown> {
    headers.clear();
    const request = {
      path,
      query,
      route: route && { path: route.path },
      params: route?.params ?? {},
    };
    const response = {
      setHeader: (name: string, value: string) => headers.set(name, value),
    };
    const context = {
      getType: () => 'http',
      getHandler: () => listHandler,
      switchToHttp: () => ({
        getRequest: () => request,
        getResponse: () => response,
      }),
    } as unknown as ExecutionContext;
    const next: CallHandler = { handle: () => of(page) };
    const result = await lastValueFrom(interceptor.intercept(context, next));
    expect(Buffer.isBuffer(result)).toBe(true);
    return JSON.parse((result as Buffer).toString('utf8'));
  }

  const page = (over: Partial<Page> = {}): Page => ({
    items: ['{"id":"or_5"}', '{"id":"or_4"}'],
    firstCursor: 'or_5',
    lastCursor: 'or_4',
    hasNext: true,
    hasPrevious: true,
    ...over,
  });

  it('leaves the result of a handler that is not a list as it is', async () => {
    const body = { object: 'order', id: 'or_1' };
    const context = {
      getType: () => 'http',
      getHandler: () => () => undefined,
    } as unknown as ExecutionContext;
    const result = await lastValueFrom(
      interceptor.intercept(context, { handle: () => of(body) }),
    );
    expect(result).toBe(body);
  });

  it('wraps the items and links both ways', async () => {
    expect(await render(page(), '/v1/orders', { limit: '2' })).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: {
        next: '/v1/orders?starting_after=or_4&limit=2',
        previous: '/v1/orders?ending_before=or_5&limit=2',
      },
    });
  });

  it('encodes items with characters beyond Latin-1 exactly (multi-byte UTF-8)', async () => {
    const items = ['{"name":"Zoë Łukasz 東京 🎟"}', '{"name":"plain"}'];
    expect(await render(page({ items }), '/v1/orders')).toEqual({
      data: [{ name: 'Zoë Łukasz 東京 🎟' }, { name: 'plain' }],
      links: {
        next: '/v1/orders?starting_after=or_4',
        previous: '/v1/orders?ending_before=or_5',
      },
    });
  });

  it('sets a link to null when nothing lies that way', async () => {
    expect(await render(page({ hasPrevious: false }), '/v1/orders')).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: { next: '/v1/orders?starting_after=or_4', previous: null },
    });
    expect(await render(page({ hasNext: false }), '/v1/orders')).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: { next: null, previous: '/v1/orders?ending_before=or_5' },
    });
  });

  it('gives an empty page both links null', async () => {
    expect(
      await render(
        {
          items: [],
          firstCursor: null,
          lastCursor: null,
          hasNext: false,
          hasPrevious: false,
        },
        '/v1/orders',
        { starting_after: 'or_1' },
      ),
    ).toEqual({ data: [], links: { next: null, previous: null } });
  });

  it('links from /v1/orders/ as from /v1/orders', async () => {
    expect(
      await render(page(), '/v1/orders/', { starting_after: 'or_6' }),
    ).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: {
        next: '/v1/orders?starting_after=or_4',
        previous: '/v1/orders?ending_before=or_5',
      },
    });
  });

  it('links a nested list under its own path, path parameters and all', async () => {
    expect(
      await render(
        page(),
        '/v1/event_series/es_3/events/',
        { limit: '2' },
        {
          path: '/v1/event_series/:event_series_id/events',
          params: { event_series_id: 'es_3' },
        },
      ),
    ).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: {
        next: '/v1/event_series/es_3/events?starting_after=or_4&limit=2',
        previous: '/v1/event_series/es_3/events?ending_before=or_5&limit=2',
      },
    });
  });

  it('carries keyed cursors as they are, `@` and all, and keeps sort', async () => {
    expect(
      await render(
        page({
          firstCursor: 'or_5@1786645321',
          lastCursor: 'or_4@1786645300',
        }),
        '/v1/orders',
        { sort: '-updated_at' },
      ),
    ).toEqual({
      data: [{ id: 'or_5' }, { id: 'or_4' }],
      links: {
        next: '/v1/orders?starting_after=or_4@1786645300&sort=-updated_at',
        previous: '/v1/orders?ending_before=or_5@1786645321&sort=-updated_at',
      },
    });
  });

  it("sets the page's headers on the response", async () => {
    await render(
      page({ headers: { 'X-Sync-Watermark': '1786645300' } }),
      '/v1/orders',
    );
    expect(Object.fromEntries(headers)).toEqual({
      'X-Sync-Watermark': '1786645300',
    });
  });
});

import type { Server } from 'node:http';
import request from 'supertest';
import { errorBody, getAs } from './api';
import { basicAuth } from './create-test-app';

// The cases every resource's retrieve route answers alike (docs/API.md, Errors; HEAD and OPTIONS;
// ETag and If-None-Match), registered as `it`s where the spec calls them. The spec's app and ids
// exist only once its beforeAll has run, so they are passed as functions.

/** A resource's routes, as a spec's box office sees them. */
export interface ResourceRoutes {
  /** The list's path, `/v1/events`; the retrieve route is `<collection>/<id>`. */
  collection: string;
  /** The key the spec retrieves with. */
  key: string;
  server: () => Server;
}

/** `GET <collection>/<id>` answers 404 NOT_FOUND with its message, for each `[id, message]`. */
export function itAnswersNotFound(
  routes: ResourceRoutes,
  cases: [id: string, message: string][],
) {
  it.each(cases)('answers 404 NOT_FOUND for %s', async (id, message) => {
    const get = getAs(routes.server(), routes.key);
    const res = await get(`${routes.collection}/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(errorBody(404, 'NOT_FOUND', message));
  });
}

/**
 * HEAD answers the retrieve route (with `id()`, a resource the key sees), the list and the list
 * with a trailing slash as GET does, without the body; the retrieve route and the list carry an
 * ETag that If-None-Match revalidates.
 */
export function itServesHeadAndETag(routes: ResourceRoutes, id: () => string) {
  const { collection } = routes;
  const get = (path: string) => getAs(routes.server(), routes.key)(path);
  const pathOf = (template: string) => template.replace('{id}', id());

  it.each([`${collection}/{id}`, `${collection}?limit=2`, `${collection}/`])(
    'HEAD %s works as GET does, with no body',
    async (template) => {
      const path = pathOf(template);
      const got = await get(path);
      const head = await request(routes.server())
        .head(path)
        .set('Authorization', basicAuth(routes.key));
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['content-type']).toBe(got.headers['content-type']);
      expect(head.headers.etag).toBe(got.headers.etag);
    },
  );

  it.each([`${collection}/{id}`, `${collection}?limit=3`])(
    '%s carries an ETag; If-None-Match with it → 304',
    async (template) => {
      const path = pathOf(template);
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const cached = await get(path).set('If-None-Match', etag);
      expect(cached.status).toBe(304);
      expect(cached.text ?? '').toBe('');
      const stale = await get(path).set('If-None-Match', '"stale"');
      expect(stale.status).toBe(200);
    },
  );
}

import express from 'express';
import {
  type ExpressLike,
  allowedMethods,
  routeTemplateAt,
  routedFor,
} from './route-methods';

/** A router as Nest leaves it: the API's routes, then a not-found route for every method. */
function app(): ExpressLike {
  const router = express();
  const ok: express.RequestHandler = (_req, res) => void res.end();
  router.get('/v1/check_ins', ok);
  router.post('/v1/check_ins', ok);
  router.get('/v1/check_ins/:check_in_id', ok);
  router.post('/v1/issued_tickets/:issued_ticket_id/void', ok);
  router.all('/{*rest}', ok);
  return router as unknown as ExpressLike;
}

describe('route methods', () => {
  it('lists what Allow says at a path, and nothing at a path no route serves', () => {
    const routes = app();
    expect(allowedMethods(routes, '/v1/check_ins')).toEqual([
      'GET',
      'HEAD',
      'OPTIONS',
      'POST',
    ]);
    expect(allowedMethods(routes, '/v1/check_ins/ci_1')).toEqual([
      'GET',
      'HEAD',
      'OPTIONS',
    ]);
    // A path of writes alone: no reads, so no HEAD or OPTIONS either.
    expect(allowedMethods(routes, '/v1/issued_tickets/it_1/void')).toEqual([
      'POST',
    ]);
    expect(allowedMethods(routes, '/v1/nothing')).toEqual([]);
    expect(routeTemplateAt(routes, '/v1/check_ins/ci_1')).toBe(
      '/v1/check_ins/:check_in_id',
    );
  });

  it('tells the paths of one method as allowedMethods does, past the not-found route', () => {
    const routes = app();
    const takesPost = routedFor(routes, 'POST');
    for (const path of [
      '/v1/check_ins',
      '/v1/check_ins/ci_1',
      '/v1/nothing',
      '/',
    ]) {
      expect(takesPost(path)).toBe(
        allowedMethods(routes, path).includes('POST'),
      );
    }
    expect(takesPost('/v1/check_ins')).toBe(true);
    expect(takesPost('/v1/check_ins/ci_1')).toBe(false);
  });
});

import type { NextFunction, Request, Response } from 'express';
import { type ExpressLike, routeTemplateAt } from '../errors/route-methods';
import { routeOf } from '../http/access-log';
import type { HistogramChild } from './bucket-histogram';
import type { Metrics } from './metrics';

/** The `route` of a request no route serves (an unknown path): never the path as sent. */
export const UNMATCHED_ROUTE = 'unmatched';

/** From 1 ms (a 304, a retrieval) to 10 s (a statement timeout): p50 to p99.9 of every route. */
const REQUEST_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

type Labels = 'route' | 'method' | 'status';

/**
 * The request pipeline's metrics step, first so that it times all of a request
 * (docs/OPERATIONS.md, Metrics): `boxoffice_http_request_duration_seconds` by route template,
 * method and status, observed when the response is done or the connection is gone.
 *
 * A response sent before routing (a 429, a CORS preflight, a 503 of a drain) is labelled with the
 * template of the route at its path; a path no route serves, `unmatched`. The labels of each
 * route, method and status are made once and kept: a request allocates no label object.
 */
export function requestMetrics(metrics: Metrics, app: ExpressLike) {
  const durations = metrics.histogram<Labels>({
    name: 'boxoffice_http_request_duration_seconds',
    help: 'Time from the arrival of a request to the end of its response, by route template (unmatched: no route), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: REQUEST_BUCKETS,
  });
  /** Each route's template, by the Express route object; '' for Nest's not-found catch-all. */
  const templates = new Map<object, string>();
  const children = new Map<string, Map<string, Map<number, HistogramChild>>>();

  const routeLabel = (req: Request): string => {
    const route = req.route as object | undefined;
    if (route !== undefined) {
      let template = templates.get(route);
      if (template === undefined) {
        template = routeOf(req) ?? '';
        templates.set(route, template);
      }
      if (template !== '') return template;
    }
    return routeTemplateAt(app, req.path) ?? UNMATCHED_ROUTE;
  };

  const child = (
    route: string,
    method: string,
    status: number,
  ): HistogramChild => {
    let methods = children.get(route);
    if (methods === undefined) children.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (statuses === undefined) methods.set(method, (statuses = new Map()));
    let found = statuses.get(status);
    if (found === undefined) {
      found = durations.labels(route, method, String(status));
      statuses.set(status, found);
    }
    return found;
  };

  // `on`, not `once`: a response closes once, and `once` wraps each listener in another. (One
  // listener for all responses, with the start kept on the response, counted more instructions a
  // request: bench/notes/2026-12-06-metrics-cost-in-instructions.md.)
  return (req: Request, res: Response, next: NextFunction) => {
    const start = performance.now();
    res.on('close', () => {
      child(routeLabel(req), req.method, res.statusCode).observe(
        (performance.now() - start) / 1000,
      );
    });
    next();
  };
}

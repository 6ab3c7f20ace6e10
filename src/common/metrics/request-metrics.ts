import type { Request } from 'express';
import {
  type ExpressLike,
  routeTemplateAt,
  servedMethods,
} from '../errors/route-methods';
import { routeOf } from '../http/access-log';
import type { ResponseDoneListener } from '../http/http-server';
import type { HistogramChild } from './bucket-histogram';
import type { Metrics } from './metrics';

/** The `route` of a request no route serves (an unknown path): never the path as sent. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The `method` of a request whose method no route serves (`PROPFIND`, `BREW`). */
export const OTHER_METHOD = 'other';

/** From 1 ms (a 304, a retrieval) to 10 s (a statement timeout): p50 to p99.9 of every route. */
const REQUEST_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

type Labels = 'route' | 'method' | 'status';

/**
 * The request pipeline's metrics step (docs/OPERATIONS.md, Metrics):
 * `boxoffice_http_request_duration_seconds` by route template, method and status, from the
 * request's arrival at the HTTP server to the end of its response or its connection's close. It
 * listens to the HTTP server's responses (onResponseDone) and adds no `close` listener of its own
 * to each response: one more such listener a request made V8 collect the old generation more
 * often, and cost a retrieval several times what the step itself does
 * (bench/notes/2026-12-06-metrics-close-listener-and-major-gcs.md).
 *
 * A response sent before routing (a 429, a CORS preflight, a 503 of a drain) is labelled with the
 * template of the route at its path; a path no route serves, `unmatched`. A method no route
 * serves is `other`, and a status is one the service answers with: every label has a small fixed
 * set of values, whatever a client sends. The labels of each route, method and status are made
 * once and kept: a request allocates no label object.
 */
export function requestMetrics(
  metrics: Metrics,
  app: ExpressLike,
): ResponseDoneListener {
  const durations = metrics.histogram<Labels>({
    name: 'boxoffice_http_request_duration_seconds',
    help: 'Time from the arrival of a request to the end of its response, by route template (unmatched: no route), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: REQUEST_BUCKETS,
  });
  /** Each route's template, by the Express route object; '' for Nest's not-found catch-all. */
  const templates = new Map<object, string>();
  const children = new Map<string, Map<string, Map<number, HistogramChild>>>();
  const served = servedMethods(app);
  const methodLabel = (method: string): string =>
    served().has(method) ? method : OTHER_METHOD;

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

  return (req, res, arrivedAt) => {
    const request = req as Request; // Express's: every request passes its router
    child(
      routeLabel(request),
      methodLabel(request.method),
      res.statusCode,
    ).observe((performance.now() - arrivedAt) / 1000);
  };
}

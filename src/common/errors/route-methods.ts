import { METHODS } from 'node:http';

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** The part of an Express app the router is read from. */
export interface ExpressLike {
  router?: { stack: RouterLayer[] };
}

/** How `Allow` lists methods: the reads first, then the writes in alphabetical order. */
const READS = ['GET', 'HEAD', 'OPTIONS'];
const rank = (method: string) => {
  const read = READS.indexOf(method);
  return read === -1 ? READS.length : read;
};

/**
 * The methods Express has routes for at `path`, or none when the path is unknown, as `Allow` lists
 * them (`GET, HEAD, OPTIONS, POST`): GET also answers HEAD and OPTIONS, the reads every readable
 * path serves; a path of writes alone lists only them (`POST` on
 * `/v1/issued_tickets/{id}/void`, docs/API.md, Codes), its CORS preflight answered all the same,
 * before routing. Used to tell 405 from 404 after routing found no match.
 */
export function allowedMethods(app: ExpressLike, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of app.router?.stack ?? []) {
    if (!layer.route || isCatchAll(layer.route.methods) || !layer.match(path))
      continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.size === 0) return [];
  if (methods.has('GET')) {
    methods.add('HEAD');
    methods.add('OPTIONS');
  }
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Whether a route for `method` (one a route names: not HEAD or OPTIONS, which allowedMethods
 * infers) is at a path, as `allowedMethods(app, path).includes(method)` says, with the routes for
 * `method` found once, at the first call (every route is registered before the first request), so
 * that each request matches those alone instead of every route of the app.
 */
export function routedFor(
  app: ExpressLike,
  method: string,
): (path: string) => boolean {
  const key = method.toLowerCase();
  let layers: RouterLayer[] | undefined;
  return (path) => {
    layers ??= (app.router?.stack ?? []).filter(
      (layer) =>
        layer.route?.methods[key] === true && !isCatchAll(layer.route.methods),
    );
    return layers.some((layer) => layer.match(path));
  };
}

/**
 * Every method some route serves (GET also answers HEAD; CORS answers OPTIONS), read once at the
 * first call (every route is registered before the first request): the methods a metric's label
 * may name, any other being one value, `other`.
 */
export function servedMethods(app: ExpressLike): () => ReadonlySet<string> {
  let served: Set<string> | undefined;
  return () => {
    if (served === undefined) {
      served = new Set(['HEAD', 'OPTIONS']);
      for (const layer of app.router?.stack ?? []) {
        if (!layer.route || isCatchAll(layer.route.methods)) continue;
        for (const [method, enabled] of Object.entries(layer.route.methods)) {
          if (enabled && method !== '_all') served.add(method.toUpperCase());
        }
      }
    }
    return served;
  };
}

/**
 * The template of the route at `path`, whatever its method (`/v1/orders/:order_id`), or undefined
 * when no route is there: for a response sent before routing (a rate limit, a preflight). A path
 * whose parameter cannot be percent-decoded is no route's (the router refuses it).
 */
export function routeTemplateAt(
  app: ExpressLike,
  path: string,
): string | undefined {
  for (const layer of app.router?.stack ?? []) {
    const route = layer.route;
    if (
      route &&
      typeof route.path === 'string' &&
      !isCatchAll(route.methods) &&
      matches(layer, path)
    ) {
      return route.path;
    }
  }
  return undefined;
}

/** `layer.match`, which throws a URIError for a parameter that is not valid percent-encoding. */
function matches(layer: RouterLayer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    return false;
  }
}

/** Nest's not-found handler is a route for every method; it says nothing about resources. */
export function isCatchAll(methods: Record<string, boolean>): boolean {
  return (
    methods._all === true || Object.keys(methods).length >= METHODS.length / 2
  );
}

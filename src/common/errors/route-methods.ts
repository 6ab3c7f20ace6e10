import { METHODS } from 'node:http';

interface RouterLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

interface ExpressLike {
  router?: { stack: RouterLayer[] };
}

/**
 * The methods Express has routes for at `path` (GET also answers HEAD; CORS answers OPTIONS), or
 * none when the path is unknown. Used to tell 405 from 404 after routing found no match.
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
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods];
}

/** Nest's not-found handler is a route for every method; it says nothing about resources. */
export function isCatchAll(methods: Record<string, boolean>): boolean {
  return (
    methods._all === true || Object.keys(methods).length >= METHODS.length / 2
  );
}

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * The door app (docs/API.md, "The door app"): the static files of door/ served at /door by the
 * service itself, in production as in the demo. No key is inside them and none is needed to load
 * them; the app calls the API with the key its user enters. A fixed table of files, no directory
 * listing and no path from the request ever reaches the file system.
 */
const HTML = 'text/html; charset=utf-8';
const SCRIPT = 'text/javascript; charset=utf-8';
const ZXING = 'node_modules/zxing-wasm/dist';
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/door': { file: 'door/index.html', type: HTML },
  '/door/': { file: 'door/index.html', type: HTML },
  '/door/door.css': { file: 'door/door.css', type: 'text/css; charset=utf-8' },
  '/door/door.js': { file: 'door/door.js', type: SCRIPT },
  '/door/local-tickets.js': { file: 'door/local-tickets.js', type: SCRIPT },
  '/door/camera.js': { file: 'door/camera.js', type: SCRIPT },
  '/door/sw.js': { file: 'door/sw.js', type: SCRIPT },
  '/door/manifest.webmanifest': {
    file: 'door/manifest.webmanifest',
    type: 'application/manifest+json; charset=utf-8',
  },
  // The typed client (`npm run client:build`; `npm run build` runs it too) and its one dependency.
  '/door/client/index.js': { file: 'client/dist/index.js', type: SCRIPT },
  '/door/vendor/openapi-fetch.mjs': {
    file: 'node_modules/openapi-fetch/dist/index.mjs',
    type: SCRIPT,
  },
  // The camera's decoder where the browser has no BarcodeDetector: served from here, never from a
  // CDN (a venue may have no internet). reader/index.js imports ../share.js.
  '/door/vendor/zxing/reader/index.js': {
    file: `${ZXING}/es/reader/index.js`,
    type: SCRIPT,
  },
  '/door/vendor/zxing/share.js': { file: `${ZXING}/es/share.js`, type: SCRIPT },
  '/door/vendor/zxing/reader/zxing_reader.wasm': {
    file: `${ZXING}/reader/zxing_reader.wasm`,
    type: 'application/wasm',
  },
};

/**
 * What the app's pages may load: their own files and the API on the same origin, nothing inline
 * (no inline script, style or import map), WebAssembly compiled for the camera's decoder, and the
 * service worker from /door/. The JSON API sends no CSP (helmet's is off: Swagger UI at /docs
 * needs inline scripts).
 */
export const DOOR_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "media-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The built client imports openapi-fetch by its package name, which a browser resolves only
 * through an import map; an inline import map is inline script, which the CSP refuses. The
 * specifier is pointed at the file served above instead.
 */
function servedClient(source: Buffer): Buffer {
  return Buffer.from(
    source
      .toString('utf8')
      .replace(
        /from\s*(['"])openapi-fetch\1/g,
        "from '/door/vendor/openapi-fetch.mjs'",
      ),
  );
}

/** localhost and the loopback addresses: a secure context over plain HTTP too. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.startsWith('127.') ||
    hostname === '[::1]' ||
    hostname === '::1'
  );
}

/**
 * The repository: the first folder above this file with door/ in it (src or dist alike), or
 * null for a deployment that ships dist/ alone (docs/OPERATIONS.md, "The door app").
 */
function projectRoot(): string | null {
  let dir = __dirname;
  while (!existsSync(join(dir, 'door', 'index.html'))) {
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return dir;
}

/**
 * The pipeline's door step: GET and HEAD of a file of the table; anything else goes on (a POST
 * to /door meets the API's 404 or 405 like any unknown path).
 */
export function doorApp() {
  const root = projectRoot();
  /** Each file as served, read once: a release's files do not change while it runs. */
  const served = new Map<string, Buffer>();
  return (req: Request, res: Response, next: NextFunction) => {
    const entry = FILES[req.path];
    if (
      root === null ||
      entry === undefined ||
      !['GET', 'HEAD'].includes(req.method)
    ) {
      return next();
    }
    let body = served.get(req.path);
    if (body === undefined) {
      try {
        body = readFileSync(join(root, entry.file));
      } catch {
        return next();
      }
      if (entry.file === 'client/dist/index.js') body = servedClient(body);
      served.set(req.path, body);
    }
    res.status(200).type(entry.type);
    // Revalidated on each load (the ETag makes it a 304): a new release reaches the phones.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', DOOR_CSP);
    // Over plain HTTP on a LAN a browser ignores Cross-Origin-Opener-Policy and logs an error on
    // every load of the app; it serves only where the page is a secure context.
    if (!req.secure && !isLoopback(req.hostname)) {
      res.removeHeader('Cross-Origin-Opener-Policy');
    }
    // The worker at /door/sw.js controls /door itself too (its folder alone would be /door/).
    if (req.path === '/door/sw.js') {
      res.setHeader('Service-Worker-Allowed', '/door');
    }
    res.send(body);
  };
}

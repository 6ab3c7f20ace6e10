// `node examples/serve.mjs`: serves the example front end on its own origin (EXAMPLE_PORT, default
// 8080), so that its calls to the API are cross-origin and go through CORS. API_URL (default
// http://localhost:3000) only goes into the address it prints. It serves a fixed set of
// files: the page, its script, the built client (`npm run client:build` writes client/dist) and
// openapi-fetch, the client's one dependency.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** URL path prefix → directory, or exact path → file. */
const FILES = {
  '/': 'examples/index.html',
  '/app.js': 'examples/app.js',
  '/vendor/openapi-fetch.mjs': 'node_modules/openapi-fetch/dist/index.mjs',
};
const CLIENT_PREFIX = '/client/';
const CLIENT_DIR = 'client/dist';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function fileFor(pathname) {
  if (Object.hasOwn(FILES, pathname)) return FILES[pathname];
  if (!pathname.startsWith(CLIENT_PREFIX)) return null;
  const rest = normalize(pathname.slice(CLIENT_PREFIX.length));
  if (rest.startsWith('..') || rest.includes('\0')) return null;
  return join(CLIENT_DIR, rest);
}

/** Starts the server; resolves to it and its URL once listening (port 0: any free port). */
export function startExampleServer({ port = 8080, host = '127.0.0.1' } = {}) {
  const server = createServer(async (req, res) => {
    const file = fileFor(new URL(req.url, 'http://x').pathname);
    if (!file || !['GET', 'HEAD'].includes(req.method)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    try {
      const body = await readFile(join(root, file));
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(
        file.startsWith(CLIENT_DIR)
          ? 'Not built: run `npm run client:build`\n'
          : 'Not found\n',
      );
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}` });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.EXAMPLE_PORT ?? 8080);
  const api = process.env.API_URL ?? 'http://localhost:3000';
  const { url } = await startExampleServer({ port, host: 'localhost' });
  console.log(`Example front end: ${url}/?api=${api}`);
  console.log(`(the API must allow this origin: CORS_ORIGINS=* or ${url})`);
}

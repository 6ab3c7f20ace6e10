import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * The door page (dev/door/): what the demo server serves under /door, on the API's own origin, in
 * development only. A fixed set of files: the page, its script, the built typed client
 * (`npm run client:build`, which `npm start` runs) and openapi-fetch, the client's one
 * dependency, as ES modules the page's import map names.
 */
const SCRIPT = 'text/javascript; charset=utf-8';
const FILES: Record<string, { file: string; type: string }> = {
  '/door': { file: 'dev/door/index.html', type: 'text/html; charset=utf-8' },
  '/door/door.js': { file: 'dev/door/door.js', type: SCRIPT },
  '/door/client/index.js': { file: 'client/dist/index.js', type: SCRIPT },
  '/door/vendor/openapi-fetch.mjs': {
    file: 'node_modules/openapi-fetch/dist/index.mjs',
    type: SCRIPT,
  },
};

/** The repository: the first folder above this file with the client in it (src or dist alike). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'client', 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('the project root was not found');
    dir = parent;
  }
  return dir;
}

/** Express middleware serving the door page's files; anything else goes on. */
export function doorPage() {
  const root = projectRoot();
  return (req: Request, res: Response, next: NextFunction) => {
    const entry = FILES[req.path];
    if (entry === undefined || !['GET', 'HEAD'].includes(req.method)) {
      return next();
    }
    let body: Buffer;
    try {
      body = readFileSync(join(root, entry.file));
    } catch {
      res
        .status(404)
        .type('text/plain')
        .send(
          entry.file.startsWith('client/')
            ? 'The typed client is not built: run `npm run client:build`\n'
            : 'Not found\n',
        );
      return;
    }
    res.status(200).type(entry.type).setHeader('Cache-Control', 'no-cache');
    res.send(body);
  };
}

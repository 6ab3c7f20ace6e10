// `npm run openapi`: writes the OpenAPI document the application serves at /docs-json to
// openapi.json, the file the typed client is generated from (`npm run client:generate`). The app
// is the production one (createApp) on an empty in-memory database, listening on a free port of
// the loopback interface only for the time of one request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/create-app';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';

const OUT = join(__dirname, '..', 'openapi.json');

async function main() {
  const config = new AppConfig(
    validateEnvironment({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'sqlite::memory:',
    }),
  );
  const app = await createApp({ config });
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/docs-json`);
    if (!res.ok) throw new Error(`GET /docs-json answered ${res.status}`);
    const document: unknown = await res.json();
    writeFileSync(OUT, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`Wrote ${OUT}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// `npm run openapi`: writes openapi.json (the API's contract, at the repository root) and the 200
// examples it carries (src/common/openapi/openapi-examples.json). The document is built by the code
// createApp serves at /docs-json; the examples are the demo data's answers, from an in-memory
// SQLite database. `npm run openapi -- --check` writes nothing and fails when either file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/create-app';
import { buildOpenApiDocument } from '../src/common/openapi/openapi-document';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { collectExamples, seedExampleData } from './openapi-examples';

const ROOT = join(__dirname, '..');
const OPENAPI_FILE = join(ROOT, 'openapi.json');
const EXAMPLES_FILE = join(ROOT, 'src/common/openapi/openapi-examples.json');

const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function main() {
  const check = process.argv.includes('--check');
  // Fixed settings, not the environment's: the document must not depend on where it is built.
  const config = new AppConfig(
    validateEnvironment({
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'sqlite::memory:',
    }),
  );
  const app = await createApp({ config });
  try {
    await app.init();
    await seedExampleData(app.get(DataSource));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const examples = await collectExamples(`http://127.0.0.1:${port}`);
    const files = [
      [EXAMPLES_FILE, asJson(examples)],
      [OPENAPI_FILE, asJson(buildOpenApiDocument(app, examples))],
    ] as const;
    const stale = files.filter(
      ([file, text]) => readFileSync(file, 'utf8') !== text,
    );
    if (check) {
      for (const [file] of stale) {
        console.error(
          `${relative(ROOT, file)} is stale: run \`npm run openapi\``,
        );
      }
      process.exitCode = stale.length > 0 ? 1 : 0;
    } else {
      for (const [file, text] of stale) writeFileSync(file, text);
      console.log(
        stale.length > 0
          ? `Wrote ${stale.map(([file]) => relative(ROOT, file)).join(', ')}`
          : 'openapi.json and its examples are up to date',
      );
    }
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

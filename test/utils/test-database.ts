import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database of its own for one test file: a fresh in-memory SQLite by default, or, when
 * TEST_DATABASE_URL names a PostgreSQL server (`npm run test:e2e:postgres`), a new database on it
 * that is dropped afterwards, so runs never see each other's data.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const isPostgresUrl = (url: string | undefined): url is string =>
  /^postgres(ql)?:\/\//.test(url ?? '');

/**
 * Whether this run is on PostgreSQL (`npm run test:e2e:postgres`), as the environment says when
 * a test file loads. The server-process suites set TEST_DATABASE_URL later, in their own code:
 * createTestDatabase reads it when called.
 */
export const onPostgres = isPostgresUrl(process.env.TEST_DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!isPostgresUrl(serverUrl)) {
    return { url: 'sqlite::memory:', drop: async () => {} };
  }
  const name = `boxoffice_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) =>
    client.query(`CREATE DATABASE "${name}"`),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}

async function withClient<T>(
  url: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

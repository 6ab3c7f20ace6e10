import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CreateAppOptions, createApp } from '../../src/create-app';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/environment';
import { checkResponsesAgainstContract } from './openapi-contract';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  server: Server;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The production application (createApp, migrations run at init) on a database of its own.
 * `settings` are environment variables, validated as at boot; `logDestination` receives the log
 * lines (with LOG_LEVEL set: it is `silent` unless given). Every response its server sends is
 * checked against openapi.json (openapi-contract.ts).
 */
export async function createTestApp(
  settings: Record<string, string> = {},
  { logDestination }: Pick<CreateAppOptions, 'logDestination'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = new AppConfig(
    validateEnvironment({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      ...settings,
    }),
  );
  const app = await createApp({ config, logDestination });
  await app.init();
  checkResponsesAgainstContract(app.getHttpServer() as Server);
  return {
    app,
    server: app.getHttpServer() as Server,
    dataSource: app.get(DataSource),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/**
 * The service as deployed on an existing database (`url`): it applies the pending migrations when
 * it starts, then listens on a free port of the loopback interface. For upgrade tests.
 */
export async function startOn(
  url: string,
): Promise<{ app: NestExpressApplication; base: string }> {
  const app = await createApp({
    config: new AppConfig(
      validateEnvironment({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: url,
      }),
    ),
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}` };
}

/** `Authorization` header value for an API key, as clients send it (Basic, key as user name). */
export const basicAuth = (key: string, withColon = true) =>
  `Basic ${Buffer.from(withColon ? `${key}:` : key).toString('base64')}`;

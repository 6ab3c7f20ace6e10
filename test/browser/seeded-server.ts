import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/environment';
import { createApp } from '../../src/create-app';
import { seedDemoData } from '../../seeds/demo-data';

export interface SeededServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The HTTP server, to watch the requests that reach it. */
  server: Server;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The application (createApp, as in production) on a temporary SQLite file with the demo data,
 * listening on a free port of the loopback interface. `settings` are environment variables;
 * `before` mounts what a test adds before the API's routes; `seeding.today` dates the demo data
 * around another day than the catalogue's (the door app lists the events to come from now).
 */
export async function startSeededServer(
  settings: Record<string, string> = {},
  before: (app: NestExpressApplication) => void = () => undefined,
  seeding: { today?: string } = {},
): Promise<SeededServer> {
  const dir = mkdtempSync(join(tmpdir(), 'box-office-browser-'));
  const config = new AppConfig(
    validateEnvironment({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
      ...settings,
    }),
  );
  const app = await createApp({ config });
  before(app);
  await app.init();
  await seedDemoData(app.get(DataSource), {
    orders: 250,
    seed: 1,
    reset: false,
    ...seeding,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server: app.getHttpServer() as Server,
    dataSource: app.get(DataSource),
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

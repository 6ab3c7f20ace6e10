import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DEMO_BOX_OFFICES, seedDemoData } from '../../seeds/demo-data';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { TestDatabase, createTestDatabase } from '../utils/test-database';

/** The PostgreSQL server of these suites: DATABASE_URL, else the local default. */
export const POSTGRES_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The demo data's first key (box office 1 holds nine orders in ten). */
export const DEMO_KEY = DEMO_BOX_OFFICES[0].apiKey;

export type Kind = 'sqlite' | 'postgres';

/** A database of its own for a server process: an SQLite file in a new directory, or a new PostgreSQL database. */
export async function freshDatabase(kind: Kind): Promise<TestDatabase> {
  if (kind === 'postgres') {
    process.env.TEST_DATABASE_URL ??= POSTGRES_URL;
    return createTestDatabase();
  }
  const dir = mkdtempSync(join(tmpdir(), 'boxoffice-'));
  return {
    url: `sqlite:${join(dir, 'boxoffice.sqlite')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

/** Opens `url` with the service's options, migrated. */
export async function openDatabase(url: string): Promise<DataSource> {
  const dataSource = new DataSource(
    buildDataSourceOptions(parseDatabaseUrl(url)),
  );
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

/** Migrates `url` and fills it with the demo data (`orders` orders, seed 1). */
export async function seedDemo(url: string, orders: number): Promise<void> {
  const dataSource = await openDatabase(url);
  try {
    await seedDemoData(dataSource, { orders, seed: 1, reset: false });
  } finally {
    await dataSource.destroy();
  }
}

export const sleep = (ms: number) =>
  new Promise((resolve) => setTimeout(resolve, ms));

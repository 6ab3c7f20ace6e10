import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { TestDatabase, createTestDatabase } from './test-database';

/**
 * A database that outlives one connection: a new PostgreSQL database under
 * `npm run test:e2e:postgres`, else an SQLite file in a new directory (an in-memory SQLite
 * database lives and dies with its one connection).
 */
export async function durableTestDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  if (database.url !== 'sqlite::memory:') return database;
  const dir = mkdtempSync(join(tmpdir(), 'boxoffice-e2e-'));
  return {
    url: `sqlite:${join(dir, 'boxoffice.sqlite')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

/** `url` opened with the service's options but only `migrations`, which are applied. */
export async function openWithMigrations(
  url: string,
  migrations: (new () => MigrationInterface)[],
): Promise<DataSource> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(parseDatabaseUrl(url)),
    migrations,
  });
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

/**
 * The schema as the database describes it: every table's columns (type, nullability, default),
 * indexes, foreign keys, and triggers and functions with their definitions (SQLite keeps a
 * trigger's text as written; PostgreSQL a function's body), in a stable order. Tables and indexes
 * compare whatever DDL text produced them; triggers and functions by what they run.
 */
export async function schemaSnapshot(dataSource: DataSource) {
  return dataSource.options.type === 'postgres'
    ? postgresSchema(dataSource)
    : sqliteSchema(dataSource);
}

async function sqliteSchema(dataSource: DataSource) {
  const all = <T>(sql: string) => dataSource.query<T[]>(sql);
  const tables = await all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations' ORDER BY name",
  );
  const schema: Record<string, unknown> = {};
  for (const { name } of tables) {
    const indexes = await all<{ name: string; unique: number; origin: string }>(
      `PRAGMA index_list("${name}")`,
    );
    schema[name] = {
      columns: await all(
        `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_xinfo('${name}') ORDER BY cid`,
      ),
      indexes: await Promise.all(
        indexes
          .filter((index) => index.origin === 'c')
          .sort((a, b) => a.name.localeCompare(b.name))
          .map(async (index) => ({
            name: index.name,
            unique: index.unique,
            columns: (
              await all<{ name: string }>(
                `SELECT name FROM pragma_index_info('${index.name}') ORDER BY seqno`,
              )
            ).map((column) => column.name),
          })),
      ),
      foreignKeys: (
        await all<Record<string, unknown>>(
          `SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list('${name}')`,
        )
      ).sort((a, b) => String(a.from).localeCompare(String(b.from))),
    };
  }
  const triggers = await all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
  );
  return { tables: schema, triggers };
}

async function postgresSchema(dataSource: DataSource) {
  const all = <T>(sql: string) => dataSource.query<T[]>(sql);
  return {
    columns: await all(
      `SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
         FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'migrations'
        ORDER BY table_name, ordinal_position`,
    ),
    indexes: await all(
      `SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename <> 'migrations'
        ORDER BY tablename, indexname`,
    ),
    constraints: await all(
      `SELECT c.conrelid::regclass::text AS table_name, c.contype, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> 'migrations'
        ORDER BY 1, 2, 3`,
    ),
    triggers: await all(
      `SELECT tgrelid::regclass::text AS table_name, tgname, pg_get_triggerdef(oid) AS definition
         FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`,
    ),
    functions: await all(
      `SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' ORDER BY 1`,
    ),
  };
}

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { DatabaseProbe } from './load';
import type { DbKind } from './options';

/** Read-only access to the benchmark database, for building request lists. */
export interface BenchDb {
  kind: DbKind;
  /** DATABASE_URL the servers get. */
  url: string;
  /** Human label (file path or database name). */
  label: string;
  /** `?` placeholders on both databases. */
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export const DEFAULT_PG_URL =
  'postgres://postgres@127.0.0.1:5432/boxoffice_bench';

function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

async function openDb(
  kind: DbKind,
  url: string,
  label: string,
): Promise<BenchDb> {
  if (kind === 'sqlite') {
    const db = new Database(url.slice('sqlite:'.length), {
      readonly: true,
      fileMustExist: true,
    });
    return {
      kind,
      url,
      label,
      all: <T>(sql: string, params: unknown[] = []) =>
        Promise.resolve(db.prepare(sql).all(...params) as T[]),
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    kind,
    url,
    label,
    all: async <T>(sql: string, params: unknown[] = []) =>
      // Numbers come back as strings from BIGINT/COUNT: callers convert with Number().
      (await client.query(toPg(sql), params)).rows as T[],
    close: () => client.end(),
  };
}

interface SeedMeta {
  orders: number;
  seed: number;
  seededAt: string;
  seconds: number;
}

async function countOrders(db: BenchDb): Promise<number> {
  try {
    const rows = await db.all<{ n: number | string }>(
      'SELECT count(*) AS n FROM orders',
    );
    return Number(rows[0].n);
  } catch {
    return -1; // no schema yet
  }
}

async function ensurePostgresDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name))
    throw new Error(`unexpected database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query(
      'SELECT 1 FROM pg_database WHERE datname = $1',
      [name],
    );
    if (found.rowCount === 0) {
      console.log(`Creating PostgreSQL database ${name}`);
      await client.query(`CREATE DATABASE "${name}"`);
    }
  } finally {
    await client.end();
  }
}

function runSeeder(
  distRoot: string,
  url: string,
  orders: number,
  seed: number,
): Promise<void> {
  const cli = join(distRoot, 'seeds', 'seed.cli.js');
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: build first (npm run build:tools)`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [cli, '--orders', String(orders), '--reset', '--seed', String(seed)],
      {
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
        stdio: 'inherit',
      },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`seeder exited with code ${code}`)),
    );
  });
}

/** The run's database, with whether this run seeded it and how long that took. */
export type PreparedDb = BenchDb & {
  seeded: boolean;
  seedSeconds: number | null;
};

/**
 * The database for this run: reused when it already holds the requested number of orders seeded
 * with the same seed (recorded in a file beside it), else (re)seeded with the project's seeder.
 */
export async function prepareDatabase(options: {
  kind: DbKind;
  orders: number;
  seed: number;
  root: string;
  distRoot: string;
  reseed: boolean;
}): Promise<PreparedDb> {
  const dataDir = join(options.root, 'bench', 'data');
  mkdirSync(dataDir, { recursive: true });
  let url: string;
  let label: string;
  let metaFile: string;
  if (options.kind === 'sqlite') {
    const file = resolve(dataDir, `bench-${options.orders}.sqlite`);
    url = `sqlite:${file}`;
    label = file;
    metaFile = `${file}.json`;
  } else {
    url = process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL;
    await ensurePostgresDatabase(url);
    const parsed = new URL(url);
    label = `${parsed.host}${parsed.pathname}`;
    metaFile = join(
      dataDir,
      `postgres-${parsed.host.replace(/\W/g, '_')}-${parsed.pathname.slice(1)}.json`,
    );
  }

  const meta: SeedMeta | null = existsSync(metaFile)
    ? (JSON.parse(readFileSync(metaFile, 'utf8')) as SeedMeta)
    : null;
  let current = -1;
  if (options.kind === 'postgres' || existsSync(label)) {
    const probe = await openDb(options.kind, url, label);
    current = await countOrders(probe);
    await probe.close();
  }
  const reusable =
    !options.reseed &&
    meta !== null &&
    meta.orders === options.orders &&
    meta.seed === options.seed &&
    current === options.orders;

  let seedSeconds: number | null = null;
  if (reusable) {
    console.log(
      `Reusing ${label}: ${current.toLocaleString('en-US')} orders, seed ${options.seed} (seeded ${meta.seededAt} in ${meta.seconds.toFixed(1)} s)`,
    );
  } else {
    console.log(
      `Seeding ${options.orders.toLocaleString('en-US')} orders (seed ${options.seed}) into ${label}`,
    );
    const started = process.hrtime.bigint();
    await runSeeder(options.distRoot, url, options.orders, options.seed);
    seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`Seeded in ${seedSeconds.toFixed(1)} s`);
    if (options.kind === 'sqlite') {
      // Fold the write-ahead log into the file so the first timed run does not pay for it.
      const db = new Database(label);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    }
    const written: SeedMeta = {
      orders: options.orders,
      seed: options.seed,
      seededAt: new Date().toISOString(),
      seconds: seedSeconds,
    };
    writeFileSync(metaFile, `${JSON.stringify(written, null, 2)}\n`);
  }
  const db = await openDb(options.kind, url, label);
  if (options.kind === 'postgres') {
    // The tables as autovacuum keeps them in steady state. Statistics: without them the planner
    // overestimates the page query and JIT-compiles it on every request (seconds each). Dead
    // row versions: the triggers that keep an event's counters rewrite its row for every
    // statement that inserts its orders or tickets, so a seed leaves a few dozen live event rows
    // among thousands of dead ones, which every join with events walks until vacuumed
    // (bench/notes/2026-11-23-vacuum-before-the-runs.md).
    const vacuumed = Date.now();
    await db.all('VACUUM ANALYZE');
    console.log(
      `VACUUM ANALYZE in ${((Date.now() - vacuumed) / 1000).toFixed(1)} s`,
    );
  }
  const count = await countOrders(db);
  if (count !== options.orders) {
    await db.close();
    throw new Error(
      `expected ${options.orders} orders in ${label}, found ${count}`,
    );
  }
  return { ...db, seeded: !reusable, seedSeconds };
}

/**
 * Runs `work` with a probe of the database server when it is a process of its own (PostgreSQL):
 * the CPU of the backends serving the benchmark database is then reported per request, and idle
 * waits include their queries. Only those backends count: other databases of the same server
 * (test suites sharing the machine) and its background processes are left out.
 */
export async function withDatabaseProbe<T>(
  kind: DbKind,
  url: string,
  work: (probe: DatabaseProbe | undefined) => Promise<T>,
): Promise<T> {
  if (kind !== 'postgres') return work(undefined);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work({
      backends: async () => {
        const { rows } = await client.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        );
        return rows.map((row) => row.pid);
      },
      busy: async () => {
        const { rows } = await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()",
        );
        return Number(rows[0].n) > 0;
      },
    });
  } finally {
    await client.end();
  }
}

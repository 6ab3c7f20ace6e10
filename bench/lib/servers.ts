import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allCores,
  freePort,
  httpGet,
  peakRssMb,
  startServer,
  type Pinning,
  type ServerProcess,
} from './proc';
import { REQUEST_HEADERS, type Scenario } from './scenarios';
import { SERVICE_NODE_FLAGS } from './service';

export const SERVER_NAMES = [
  'ceiling',
  'bare',
  'nest',
  'ours',
  'metrics',
  'ours2',
  'ours4',
  'typical',
  'before',
] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export const SERVER_LABELS: Record<ServerName, string> = {
  ceiling: 'ceiling (node:http, fixed body)',
  bare: 'bare (node:http + driver + our reader)',
  nest: 'nest (Nest on Express, one controller, our reader)',
  ours: 'ours (1 process)',
  metrics: 'ours, metrics on (1 process, scraped each second)',
  ours2: 'ours (2 workers)',
  ours4: 'ours (4 workers)',
  typical: 'typical (find + ClassSerializer)',
  before: 'ours, the build before (--before, 1 process)',
};

/**
 * The metrics A/B (docs/OPERATIONS.md, Metrics): `metrics` is `ours` with METRICS_TOKEN set,
 * scraped with this token every SCRAPE_INTERVAL_MS while its cells run (cells.ts), where
 * Prometheus would scrape every 15 s or more: the scrape's own cost shows rather than hides.
 */
export const METRICS_TOKEN = randomBytes(32).toString('hex');
export const SCRAPE_INTERVAL_MS = 1_000;

/**
 * How often the metrics side is scraped during its warm-up: ten scrapes in the default second,
 * so that the scrape's code is compiled, as it is in an instance that has served for a minute,
 * before the timed runs. A fresh process's first scrapes cost 15–24 ms of CPU and the later ones
 * 3–5 ms (bench/notes/2026-12-06-metrics-close-listener-and-major-gcs.md); timed runs of fresh
 * processes would otherwise measure the first compilation, once in an instance's life.
 */
export const WARM_UP_SCRAPE_INTERVAL_MS = 100;

/** The service in several processes behind one port (bench/cluster.ts). */
export const isCluster = (name: string): boolean =>
  name === 'ours2' || name === 'ours4';

const isServerName = (name: string): name is ServerName =>
  (SERVER_NAMES as readonly string[]).includes(name);

/** What every server is started from. */
export interface Launch {
  /** The build output: dist/ (holds src/ and bench/). */
  distRoot: string;
  /** bench/data: the ceiling's body and the CPU profiles go there. */
  dataDir: string;
  /** The environment the service and its peer get (see `serverEnv`). */
  env: Record<string, string>;
  pinning: Pinning | null;
  /** `--before`: the earlier build's output (before.ts), which the `before` server runs. */
  beforeDist?: string;
}

/** `node <args>` with this environment, on these CPUs (null: free). */
export interface ServerSpec {
  name: string;
  args: string[];
  env: Record<string, string>;
  cpus: string | null;
}

export function serverEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The benchmark must measure the API, not the rate limiter's 429s.
    RATE_LIMIT_MAX: '1000000000',
    MIGRATIONS_RUN: 'true',
  };
}

const ceilingBodyFile = (dataDir: string) => join(dataDir, 'ceiling-body.json');

export function serverSpec(name: ServerName, launch: Launch): ServerSpec {
  const dist = (...parts: string[]) => join(launch.distRoot, ...parts);
  const pinned = launch.pinning?.servers ?? null;
  switch (name) {
    case 'ours':
      return {
        name,
        args: [...SERVICE_NODE_FLAGS, dist('src', 'main.js')],
        env: launch.env,
        cpus: pinned,
      };
    case 'metrics':
      return {
        name,
        args: [...SERVICE_NODE_FLAGS, dist('src', 'main.js')],
        env: { ...launch.env, METRICS_TOKEN },
        cpus: pinned,
      };
    case 'ours2':
    case 'ours4':
      return {
        name,
        args: [dist('bench', 'cluster.js')],
        env: { ...launch.env, WORKERS: name === 'ours2' ? '2' : '4' },
        // Every core (a child inherits the parent's affinity, which is core 0 here).
        cpus: launch.pinning ? allCores() : null,
      };
    case 'typical':
      return {
        name,
        args: [dist('bench', 'typical', 'main.js')],
        env: launch.env,
        cpus: pinned,
      };
    case 'bare':
      return {
        name,
        // The service's Node flags: the same heap settings, so that only the pipeline differs.
        args: [...SERVICE_NODE_FLAGS, dist('bench', 'bare.js')],
        env: { DATABASE_URL: launch.env.DATABASE_URL, NODE_ENV: 'production' },
        cpus: pinned,
      };
    case 'nest':
      return {
        name,
        // The service's Node flags and environment, less what only our steps read.
        args: [...SERVICE_NODE_FLAGS, dist('bench', 'nest.js')],
        env: { DATABASE_URL: launch.env.DATABASE_URL, NODE_ENV: 'production' },
        cpus: pinned,
      };
    case 'before':
      if (!launch.beforeDist)
        throw new Error('the before server needs --before');
      return {
        name,
        args: [
          ...SERVICE_NODE_FLAGS,
          join(launch.beforeDist, 'src', 'main.js'),
        ],
        // The database is ours' (migrated by it): the earlier build runs on it as a previous
        // release does in a rolling deploy, and migrates nothing.
        env: { ...launch.env, MIGRATIONS_RUN: 'false' },
        cpus: pinned,
      };
    case 'ceiling':
      return {
        name,
        args: [dist('bench', 'ceiling.js')],
        env: { CEILING_BODY: ceilingBodyFile(launch.dataDir) },
        cpus: pinned,
      };
  }
}

/** `ours` under bench/profile-preload.ts, which writes its CPU profile to `file`. */
export function profiledSpec(launch: Launch, file: string): ServerSpec {
  const ours = serverSpec('ours', launch);
  return {
    ...ours,
    name: 'ours (profiled)',
    args: [
      '--require',
      join(launch.distRoot, 'bench', 'profile-preload.js'),
      ...ours.args,
    ],
    env: { ...ours.env, BENCH_PROFILE_FILE: file },
  };
}

/** The running servers of a run, by name, in the order they started. */
export class Servers {
  private readonly running = new Map<string, ServerProcess>();

  get(name: ServerName): ServerProcess | undefined {
    return this.running.get(name);
  }

  list(): ServerProcess[] {
    return [...this.running.values()];
  }

  /** Starts the server on a free port and waits until it answers. */
  async start(spec: ServerSpec): Promise<ServerProcess> {
    const port = await freePort();
    const server = await startServer({
      ...spec,
      env: { ...spec.env, PORT: String(port) },
      port,
    });
    this.running.set(spec.name, server);
    return server;
  }

  async stop(server: ServerProcess): Promise<void> {
    this.running.delete(server.name);
    await server.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((server) => this.stop(server)));
  }
}

/**
 * Starts the servers one after the other, runs `work` with them, and stops every server started
 * meanwhile (the initial ones and any `work` added) when it returns or throws, or when Ctrl-C or a
 * CI timeout (SIGINT, SIGTERM) ends the run: then the process exits with 130.
 */
export async function withServers<T>(
  specs: readonly ServerSpec[],
  work: (servers: Servers) => Promise<T>,
): Promise<T> {
  const servers = new Servers();
  const abort = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the servers`);
    void servers.stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    for (const spec of specs) await servers.start(spec);
    return await work(servers);
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
    await servers.stopAll();
  }
}

/** The ceiling serves a walk page captured from `ours`: the same bytes, nothing left to compute. */
export async function startCeiling(
  servers: Servers,
  launch: Launch,
  scenarios: readonly Scenario[],
): Promise<void> {
  const walk = scenarios.find((s) => s.name === 'walk') ?? scenarios[0];
  const page = await httpGet(
    servers.get('ours')!.port,
    walk.paths[0],
    REQUEST_HEADERS,
  );
  writeFileSync(ceilingBodyFile(launch.dataDir), page.body);
  await servers.start(serverSpec('ceiling', launch));
}

/** Peak RSS of each server's processes, MB. */
export function peakRss(
  servers: Servers,
): Partial<Record<ServerName, number[]>> {
  const rss: Partial<Record<ServerName, number[]>> = {};
  for (const server of servers.list()) {
    if (!isServerName(server.name)) continue;
    const pids = server.pids();
    // A cluster's primary only hands out connections: report its workers.
    rss[server.name] = peakRssMb(
      isCluster(server.name) && pids.length > 1 ? pids.slice(1) : pids,
    );
  }
  return rss;
}

import autocannon from 'autocannon';
import {
  ServerProcess,
  cpuBetween,
  cpuByPid,
  cpuMicros,
  waitIdle,
} from './proc';

/** The database server, when it is a separate process (PostgreSQL). */
export interface DatabaseProbe {
  /** The server processes (backends) connected to the benchmark database now. */
  backends: () => Promise<number[]>;
  busy: () => Promise<boolean>;
}

/** One timed run of one scenario against one server. */
export interface RunMetrics {
  requests: number;
  rps: number;
  /** Latency mean and percentiles, ms. */
  mean: number;
  p50: number;
  p99: number;
  /** Response bytes (headers and bodies) per second, MB (10^6). */
  mbps: number;
  /** Server CPU (user + system, all its processes) per completed request, µs. */
  cpuUsPerRequest: number | null;
  /** Database server CPU per completed request, µs (PostgreSQL; null on SQLite). */
  dbCpuUsPerRequest: number | null;
  /** Socket errors, timeouts and unexpected statuses. */
  errors: number;
  statuses: Record<string, number>;
  durationS: number;
}

export interface LoadOptions {
  server: ServerProcess;
  paths: readonly string[];
  okStatuses: readonly number[];
  connections: number;
  duration: number;
  headers: Record<string, string>;
  database?: DatabaseProbe;
}

function fire(options: LoadOptions, duration: number) {
  let next = 0;
  const { paths } = options;
  return autocannon({
    url: `http://127.0.0.1:${options.server.port}`,
    connections: options.connections,
    duration,
    // Slow peers must be measured, not timed out: a deep offset page can take seconds.
    timeout: Math.max(30, duration * 3),
    headers: options.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: paths[next++ % paths.length],
        }),
      },
    ],
  });
}

/** Warm-up: the same requests, results discarded; then wait until the server is idle again. */
export async function warmUp(
  options: LoadOptions,
  seconds: number,
): Promise<void> {
  if (seconds > 0) await fire(options, seconds);
  await waitIdle(options.server, options.database?.busy);
}

export async function timedRun(options: LoadOptions): Promise<RunMetrics> {
  const pids = options.server.pids();
  const { database } = options;
  const dbBefore = cpuByPid((await database?.backends()) ?? []);
  const cpuBefore = cpuMicros(pids);
  const result = await fire(options, options.duration);
  const cpuAfter = cpuMicros(pids);
  const dbAfter = cpuByPid((await database?.backends()) ?? []);
  await waitIdle(options.server, database?.busy);

  const statuses: Record<string, number> = {};
  let unexpected = 0;
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    const count = stat?.count ?? 0;
    statuses[status] = count;
    if (!options.okStatuses.includes(Number(status))) unexpected += count;
  }
  const completed = Object.values(statuses).reduce((a, b) => a + b, 0);
  const seconds = result.duration || options.duration;
  return {
    requests: completed,
    rps: completed / seconds,
    mean: completed > 0 ? result.latency.mean : NaN,
    p50: completed > 0 ? result.latency.p50 : NaN,
    p99: completed > 0 ? result.latency.p99 : NaN,
    mbps: result.throughput.total / seconds / 1e6,
    cpuUsPerRequest:
      completed > 0 && cpuAfter > 0 ? (cpuAfter - cpuBefore) / completed : null,
    dbCpuUsPerRequest:
      completed > 0 && database
        ? cpuBetween(dbBefore, dbAfter) / completed
        : null,
    errors: result.errors + unexpected,
    statuses,
    durationS: seconds,
  };
}

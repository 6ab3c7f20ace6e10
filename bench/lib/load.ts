import autocannon from 'autocannon';
import { type LoadResult, paced } from './paced';
import {
  ServerProcess,
  cpuBetween,
  cpuByPid,
  cpuMicros,
  httpGet,
  waitIdle,
} from './proc';

/**
 * A request that writes: its JSON body and its Idempotency-Key (a door scan, a ticket issued),
 * POSTed to its own path when it has one (a void), else to the scenario's.
 */
export interface WriteRequest {
  path?: string;
  body: string;
  idempotencyKey: string;
}

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
  /** A write scenario: tickets the database shows let in twice after the run (must be 0). */
  doubleEntries?: number;
  /**
   * A ticket-write scenario: rows the database holds unlike the answers said (issued or voided
   * rows more or fewer than the successes, ticket types over capacity or with a drifted
   * quantity_issued), after the run (must be 0).
   */
  writeFaults?: number;
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
  /** Headers of one path's requests on top of `headers` (a poller's If-None-Match). */
  pathHeaders?: ReadonlyMap<string, Record<string, string>>;
  /** A write scenario: POST these, one a request, to `paths[0]` (see Scenario.scans). */
  scans?: readonly WriteRequest[];
  /** Scans per second over all connections, evenly paced (paced.ts); none: flat out. */
  rate?: number;
  database?: DatabaseProbe;
}

/**
 * A poller's If-None-Match for each path: the ETag of a 200, revalidated once, as a client's cache
 * holds it after its first revalidation (the tag then carries the data version). Fails unless
 * that revalidation is a 304.
 */
export async function revalidationHeaders(
  port: number,
  paths: readonly string[],
  headers: Record<string, string>,
): Promise<Map<string, Record<string, string>>> {
  const tags = new Map<string, Record<string, string>>();
  for (const path of new Set(paths)) {
    const first = await httpGet(port, path, headers);
    const again = await httpGet(port, path, {
      ...headers,
      'if-none-match': String(first.headers.etag),
    });
    if (again.status !== 304) {
      throw new Error(
        `revalidating GET ${path} answered ${again.status}, not 304`,
      );
    }
    tags.set(path, { 'if-none-match': String(again.headers.etag) });
  }
  return tags;
}

/**
 * Sends the load for `duration` seconds; resolves to autocannon's result, or, for scans at a
 * rate, to that of the even pacing (paced.ts).
 */
export function fire(
  options: LoadOptions,
  duration: number,
): Promise<LoadResult> {
  let next = 0;
  const { paths, scans } = options;
  if (scans && options.rate) {
    return paced({
      port: options.server.port,
      path: paths[0],
      headers: options.headers,
      scans,
      rate: options.rate,
      connections: options.connections,
      duration,
    });
  }
  const get: autocannon.Request = {
    method: 'GET',
    setupRequest: (request) => {
      const path = paths[next++ % paths.length];
      const extra = options.pathHeaders?.get(path);
      return extra
        ? { ...request, path, headers: { ...request.headers, ...extra } }
        : { ...request, path };
    },
  };
  // Each request the next scan: every connection (a scanner) gets tickets of its own.
  const post = (list: readonly WriteRequest[]): autocannon.Request => ({
    method: 'POST',
    setupRequest: (request) => {
      const scan = list[next++ % list.length];
      return {
        ...request,
        path: scan.path ?? paths[0],
        body: scan.body,
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'idempotency-key': scan.idempotencyKey,
        },
      };
    },
  });
  return autocannon({
    url: `http://127.0.0.1:${options.server.port}`,
    connections: options.connections,
    duration,
    // Slow peers must be measured, not timed out: a deep offset page can take seconds.
    timeout: Math.max(30, duration * 3),
    headers: options.headers,
    requests: [scans ? post(scans) : get],
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

import { Agent, request } from 'node:http';
import type { WriteRequest } from './load';

/**
 * The door rush at a given rate (bench/README.md, "Door rush"): `rate` scans a second spread
 * evenly over the run, each scanner (a connection) taking its turn, as the people in its queue
 * reach it. Scanner k of n sends its j-th scan at start + (j·n + k) / rate; one that has no answer
 * yet when its next scan is due sends it the moment the answer comes, and that scan's latency is
 * counted from when it was due (the person has been waiting since), so a stall of the service is
 * measured whole rather than hidden by the scanners it holds up.
 *
 * Why not autocannon's `overallRate`: it gives each connection a quota a second and sends the
 * quota back to back as each second starts, so "200 scans a second" arrived as a burst of 200 at
 * full speed and an idle rest of the second (bench/notes/2026-12-01-door-rush-paced-evenly.md).
 */
export interface PacedOptions {
  port: number;
  path: string;
  headers: Record<string, string>;
  scans: readonly WriteRequest[];
  rate: number;
  connections: number;
  /** Seconds. */
  duration: number;
}

/**
 * What timedRun reads of a run, in autocannon's result's shape (a paced run's `throughput`
 * counts the response bodies alone).
 */
export interface LoadResult {
  duration: number;
  errors: number;
  statusCodeStats?: Record<string, { count?: number } | undefined>;
  latency: { mean: number; p50: number; p99: number };
  throughput: { total: number };
}

export async function paced(options: PacedOptions): Promise<LoadResult> {
  const { connections, rate, scans } = options;
  const latencies: number[] = [];
  const statusCodeStats: Record<string, { count: number }> = {};
  let errors = 0;
  let bytes = 0;
  let next = 0;
  const start = performance.now();
  const end = start + options.duration * 1000;

  const send = (agent: Agent, scan: WriteRequest) =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          port: options.port,
          host: '127.0.0.1',
          path: options.path,
          method: 'POST',
          agent,
          headers: {
            ...options.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(scan.body),
            'idempotency-key': scan.idempotencyKey,
          },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => {
            const stat = (statusCodeStats[String(res.statusCode)] ??= {
              count: 0,
            });
            stat.count++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(scan.body);
    });

  const scanner = async (k: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let j = 0; ; j++) {
        const due = start + ((j * connections + k) / rate) * 1000;
        if (due >= end) return;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await send(agent, scans[next++ % scans.length]);
        latencies.push(performance.now() - due);
      }
    } finally {
      agent.destroy();
    }
  };

  await Promise.all(Array.from({ length: connections }, (_, k) => scanner(k)));
  const duration = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  // To 0.1 ms, as the reports print them.
  const tenth = (ms: number) => Math.round(ms * 10) / 10;
  const at = (q: number) =>
    latencies.length === 0
      ? NaN
      : tenth(
          latencies[
            Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)
          ],
        );
  return {
    duration,
    errors,
    statusCodeStats,
    latency: {
      mean: tenth(latencies.reduce((a, b) => a + b, 0) / latencies.length),
      p50: at(0.5),
      p99: at(0.99),
    },
    throughput: { total: bytes },
  };
}

import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux we run on). */
const CLK_TCK = (() => {
  try {
    return (
      Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
    );
  } catch {
    return 100;
  }
})();

export const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

export const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The cores this process may use, counted when it starts: once the harness pins itself to the load
 * generator's core, `availableParallelism()` counts that one only.
 */
export const CORES = availableParallelism();

/** taskset CPU lists: the load generator's and the servers'. */
export interface Pinning {
  load: string;
  servers: string;
}

/**
 * Load generator on core 0, servers on the last core: they never compete for a core (except the
 * two-worker server, which needs both: see `allCores`). Null without taskset or a second core.
 */
export function choosePinning(noPin: boolean): Pinning | null {
  return !noPin && hasTaskset && CORES >= 2
    ? { load: '0', servers: String(CORES - 1) }
    : null;
}

/** Every core, as a taskset CPU list. */
export function allCores(): string {
  return `0-${CORES - 1}`;
}

/** Pins every thread of a process (libuv and V8 helpers included) to the given CPU list. */
export function pin(pid: number, cpus: string): void {
  if (!hasTaskset) return;
  try {
    execFileSync('taskset', ['-a', '-pc', cpus, String(pid)], {
      stdio: 'ignore',
    });
  } catch {
    // A process that exited meanwhile: nothing to pin.
  }
}

interface Stat {
  ppid: number;
  /** utime + stime, microseconds. */
  cpuMicros: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) may hold spaces: split after its closing parenthesis.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is the state (3rd field of the file): ppid is 4th, utime 14th, stime 15th.
    return {
      ppid: Number(fields[1]),
      cpuMicros: ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK,
    };
  } catch {
    return null;
  }
}

/** The process and all its descendants (a cluster's workers). */
export function processTree(root: number): number[] {
  if (!hasProc) return [root];
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(entry));
    children.set(stat.ppid, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** User + system CPU of the given processes, microseconds. */
export function cpuMicros(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (readStat(pid)?.cpuMicros ?? 0), 0);
}

/** User + system CPU of each of the given processes still running, microseconds. */
export function cpuByPid(pids: readonly number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat) cpu.set(pid, stat.cpuMicros);
  }
  return cpu;
}

/**
 * CPU the processes used between two samples: per process, so that one that ended meanwhile
 * (a pool closing an idle connection) is left out instead of subtracted, and one that started
 * meanwhile counts from zero (all its CPU falls in between).
 */
export function cpuBetween(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): number {
  let used = 0;
  for (const [pid, micros] of after) used += micros - (before.get(pid) ?? 0);
  return used;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Peak resident set (VmHWM) of each process, MB. */
export function peakRssMb(pids: readonly number[]): number[] {
  return pids.map((pid) => statusKb(pid, 'VmHWM') / 1024);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

export interface ServerProcess {
  name: string;
  port: number;
  child: ChildProcess;
  /** Last lines of its output, for the error message when it dies. */
  output: string[];
  pids(): number[];
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  /** CPU list for taskset, or null to leave the process free. */
  cpus: string | null;
  readyTimeoutMs?: number;
}

/** Starts `node <args>` and waits until it answers HTTP on its port. */
export async function startServer(
  options: StartOptions,
): Promise<ServerProcess> {
  const command = options.cpus && hasTaskset ? 'taskset' : process.execPath;
  const args =
    options.cpus && hasTaskset
      ? ['-c', options.cpus, process.execPath, ...options.args]
      : options.args;
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim()) output.push(line);
    }
    if (output.length > 40) output.splice(0, output.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));

  const server: ServerProcess = {
    name: options.name,
    port: options.port,
    child,
    output,
    pids: () => (child.pid === undefined ? [] : processTree(child.pid)),
    stop: async () => {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exited) {
      throw new Error(
        `${options.name} exited before it was ready:\n${output.join('\n')}`,
      );
    }
    try {
      await httpGet(options.port, '/v1/ping', {}, 2_000);
      return server;
    } catch {
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(
          `${options.name} did not answer within the time limit:\n${output.join('\n')}`,
        );
      }
      await sleep(200);
    }
  }
}

/**
 * Waits until the server's processes stop using CPU: a server that was still busy with requests
 * the load generator abandoned would otherwise steal time from the next run.
 */
export async function waitIdle(
  server: ServerProcess,
  databaseBusy: () => Promise<boolean> = () => Promise.resolve(false),
  maxMs = 180_000,
): Promise<number> {
  const started = Date.now();
  const pids = server.pids();
  let last = cpuMicros(pids);
  let quiet = 0;
  while (Date.now() - started < maxMs) {
    await sleep(150);
    const now = cpuMicros(pids);
    // At most one tick in 150 ms, twice in a row: idle (timers, GC of what the run left behind).
    quiet = now - last <= 1e6 / CLK_TCK ? quiet + 1 : 0;
    last = now;
    // On PostgreSQL an abandoned request's query runs on in a backend: wait for it too.
    if (quiet >= 2 && !(await databaseBusy())) break;
  }
  return Date.now() - started;
}

import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** Resolves when the process has exited (at once if it has). */
  exited: () => Promise<Exit>;
  /** Waits until the output has a line matching `pattern` (rejects after `timeoutMs`). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const SERVER_MAIN = join(__dirname, '../../dist/src/main.js');

/**
 * The Redis key prefix of the servers this file starts, unless a test sets its own. Every server
 * inherits REDIS_URL, and a rate-limit count lives for RATE_LIMIT_WINDOW_S (30 minutes): under the
 * default prefix the files would spend one budget per client address and per demo key between them,
 * so a file's 429s would depend on which files ran before it. The servers of one file still share
 * their counts, as a fleet does.
 */
const FILE_KEY_PREFIX = `test:${randomBytes(6).toString('hex')}:`;

/** Server processes started and not exited yet. */
const children = new Set<ChildProcess>();

/**
 * Kills (SIGKILL) every server process still running: what a file leaves when it fails before
 * stopping its servers (or one of several starting together fails), which would keep jest from
 * exiting (multi-instance/leftovers.setup.ts). Returns how many there were.
 */
export async function killLeftoverServers(): Promise<number> {
  const left = [...children];
  await Promise.all(left.map(kill));
  return left.length;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

export interface SpawnOptions {
  /**
   * `read` (the default): the test reads the server's stdout as it comes. `unread`: nobody reads
   * it, so the pipe fills (a log collector that has stopped reading); only stderr is collected.
   */
  stdout?: 'read' | 'unread';
}

/** Starts `node dist/src/main.js` (the production entry point) without waiting for it. */
export function spawnServer(
  env: Record<string, string>,
  port: number,
  { stdout = 'read' }: SpawnOptions = {},
) {
  const child: ChildProcess = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      REDIS_KEY_PREFIX: FILE_KEY_PREFIX,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  if (stdout === 'read') child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited: () => exit,
    waitForOutput: (pattern: RegExp, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no output matching ${pattern}:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}

/** Starts `node dist/src/main.js` (the production entry point) and waits until /v1/ping answers. */
export async function startServer(
  env: Record<string, string>,
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const spawned = spawnServer(env, port, options);
  const { child } = spawned;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `server exited with ${child.exitCode}:\n${spawned.output()}`,
      );
    }
    try {
      if ((await fetch(`${url}/v1/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running: nothing would ever stop it.
      await kill(child);
      throw new Error(`server did not start:\n${spawned.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    ...spawned,
    url,
    port,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await spawned.exited();
      clearTimeout(timer);
    },
  };
}

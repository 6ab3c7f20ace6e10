import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  ChangeOutcome,
  RoundTrips,
  SalesTarget,
  Written,
} from './sales-writer';

/**
 * Writers on threads of their own (bench/lib/writer-thread.ts), each with its own connection, as
 * separate sales-system processes would be: on SQLite a writer waiting for the write lock blocks
 * its thread, which must not be the others'.
 */

/** What one writer does during a run. */
export interface WriterJob {
  url: string;
  /**
   * `sales`: the sales cycle back to back; `holder`: one new order held open `holdMs` after its
   * first statement, begun `holdAfterMs` into the run; `editor`: a ticket-type edit every
   * `pauseMs`; `counter`: bench_counters bumps back to back.
   */
  role: 'sales' | 'holder' | 'editor' | 'counter';
  target: SalesTarget;
  tag: string;
  seconds: number;
  /** Added to every statement's round trip (a sales system across a network). */
  rttMs: number;
  /** PostgreSQL: the session's synchronous_commit. */
  synchronousCommit: 'on' | 'off';
  holdAfterMs?: number;
  holdMs?: number;
  pauseMs?: number;
}

export interface WriterReport {
  role: WriterJob['role'];
  office: number;
  outcomes: ChangeOutcome[];
  written: Written;
  trips: RoundTrips;
  /** holder: when its held transaction had written its first statement (ms since the epoch). */
  locked?: number;
}

export type ToThread = { job: WriterJob } | { startAt: number };
export type FromThread =
  { ready: true } | { report: WriterReport } | { failed: string };

const ENTRY = join(__dirname, `writer-thread${extname(__filename)}`);
// Under ts-node (npm run bench:writer) each thread compiles its own imports.
const EXEC_ARGV = __filename.endsWith('.ts')
  ? ['-r', 'ts-node/register/transpile-only']
  : [];

/** Threads kept for the whole bench: starting one costs far more than a run's setup. */
export class WriterPool {
  private readonly threads: Worker[] = [];

  async run(
    jobs: WriterJob[],
    during?: (startAt: number, endAt: number) => Promise<void>,
  ): Promise<{ reports: WriterReport[]; startAt: number; endAt: number }> {
    while (this.threads.length < jobs.length) {
      this.threads.push(new Worker(ENTRY, { execArgv: EXEC_ARGV }));
    }
    const threads = this.threads.slice(0, jobs.length);
    const inboxes = threads.map((thread) => new Inbox(thread));
    try {
      threads.forEach((thread, i) => thread.postMessage({ job: jobs[i] }));
      await Promise.all(inboxes.map((inbox) => inbox.next('ready')));
      // Everyone connected: they begin together a moment from now.
      const startAt = Date.now() + 100;
      const seconds = Math.max(...jobs.map((job) => job.seconds));
      const endAt = startAt + seconds * 1000;
      threads.forEach((thread) => thread.postMessage({ startAt }));
      const [reports] = await Promise.all([
        Promise.all(inboxes.map((inbox) => inbox.next('report'))),
        during?.(startAt, endAt),
      ]);
      return { reports: reports.map((m) => m.report), startAt, endAt };
    } finally {
      for (const inbox of inboxes) inbox.close();
    }
  }

  async close() {
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }
}

/** A thread's messages during one run, taken in order; an error or exit fails the next. */
class Inbox {
  private readonly queue: FromThread[] = [];
  private readonly waiting: {
    resolve: (m: FromThread) => void;
    reject: (e: Error) => void;
  }[] = [];
  private failure: Error | null = null;
  private readonly onMessage = (m: FromThread) => {
    const next = this.waiting.shift();
    if (next) next.resolve(m);
    else this.queue.push(m);
  };
  private readonly onError = (error: Error) => {
    this.failure = error;
    for (const next of this.waiting.splice(0)) next.reject(error);
  };
  private readonly onExit = (code: number) =>
    this.onError(new Error(`a writer thread exited (${code})`));

  constructor(private readonly thread: Worker) {
    thread.on('message', this.onMessage);
    thread.on('error', this.onError);
    thread.on('exit', this.onExit);
  }

  async next<K extends 'ready' | 'report'>(
    kind: K,
  ): Promise<Extract<FromThread, Record<K, unknown>>> {
    const m =
      this.queue.shift() ??
      (await new Promise<FromThread>((resolve, reject) => {
        if (this.failure) reject(this.failure);
        else this.waiting.push({ resolve, reject });
      }));
    if ('failed' in m) throw new Error(`a writer failed: ${m.failed}`);
    if (!(kind in m)) throw new Error(`a writer sent ${JSON.stringify(m)}`);
    return m as Extract<FromThread, Record<K, unknown>>;
  }

  close() {
    this.thread.off('message', this.onMessage);
    this.thread.off('error', this.onError);
    this.thread.off('exit', this.onExit);
  }
}

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sqliteConnection } from './row-reader';

/** How often the worker copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 200;

/**
 * The log size (pages) at which a commit checkpoints by itself after all, as SQLite does by
 * default at 1,000: only if the worker falls behind or is gone. 10,000 pages is 40 MB of log.
 */
const BACKSTOP_PAGES = 10_000;

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint every CHECKPOINT_EVERY_MS.
 * PASSIVE never waits for, nor blocks, a reader or a writer; a round that finds the checkpoint
 * lock taken (another process's worker, a commit's backstop) does nothing until the next.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    if (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED') return;
    parentPort.postMessage(String(error.code || error.message));
  }
}, workerData.everyMs);
`;

/**
 * SQLite's checkpoints, off the request path (docs/OPERATIONS.md, "Running in production"). In
 * WAL mode a commit that finds the log past 1,000 pages copies the log into the database file
 * and syncs it before it returns; with better-sqlite3 that happens on the event loop, inside a
 * request, every fifty door scans or so, and the sync is a wait of milliseconds during which the
 * process answers nothing. Here a worker thread with a connection of its own checkpoints every
 * 200 ms, and the process's connection checkpoints only as a backstop, past 10,000 pages.
 *
 * A file database only (":memory:" has no log). A worker that fails is reported once and the
 * connection goes back to SQLite's default, so the log never grows unbounded.
 */
@Injectable()
export class WalCheckpoints
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('WalCheckpoints');
  private worker: Worker | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap() {
    const { options } = this.dataSource;
    if (options.type !== 'better-sqlite3' || options.database === ':memory:') {
      return;
    }
    const connection = sqliteConnection(this.dataSource);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: createRequire(__filename).resolve('better-sqlite3'),
        file: options.database,
        everyMs: CHECKPOINT_EVERY_MS,
      },
    });
    worker.unref();
    let reported = false;
    const fallBack = (why: string) => {
      if (reported) return;
      reported = true;
      this.logger.warn(
        `checkpoints are back on the request path: the checkpoint worker ${why}`,
      );
      if (connection.open) connection.pragma('wal_autocheckpoint = 1000');
    };
    worker.on('message', (failure: string) => fallBack(`failed (${failure})`));
    worker.on('error', (error) => fallBack(`failed (${error.message})`));
    worker.on('exit', () => {
      if (this.worker === worker) fallBack('stopped');
    });
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker = worker;
  }

  async onApplicationShutdown() {
    const worker = this.worker;
    this.worker = undefined;
    // A checkpoint cut short is safe: the next one starts over.
    await worker?.terminate();
  }
}

import { parentPort } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, sql } from '../../dev/activity/connection';
import type {
  FromThread,
  ToThread,
  WriterJob,
  WriterReport,
} from './writer-pool';
import {
  type ChangeOutcome,
  type RoundTrips,
  SalesWriter,
  acrossNetwork,
} from './sales-writer';

/** One writer thread of bench/lib/writer-pool.ts: a job, its connection, its report. */

const port = parentPort;
if (!port) throw new Error('writer-thread.ts runs as a worker thread');
const send = (m: FromThread) => port.postMessage(m);

let begin: ((startAt: number) => void) | null = null;

port.on('message', (m: ToThread) => {
  if ('job' in m) {
    run(m.job).catch((error: unknown) =>
      send({
        failed:
          error instanceof Error
            ? (error.stack ?? error.message)
            : String(error),
      }),
    );
  } else {
    begin?.(m.startAt);
  }
});

async function run(current: WriterJob) {
  const trips: RoundTrips = { count: 0, totalMs: 0 };
  const raw = await connect(current.url);
  try {
    if (raw.type === 'postgres' && current.synchronousCommit === 'off')
      await raw.query(sql`SET synchronous_commit = off`);
    const db = acrossNetwork(raw, current.rttMs, trips);
    const writer = new SalesWriter(db, current.target, current.tag);
    const startAt = await new Promise<number>((resolve) => {
      begin = resolve;
      send({ ready: true });
    });
    await sleep(Math.max(0, startAt - Date.now()));
    const endAt = startAt + current.seconds * 1000;
    const outcomes: ChangeOutcome[] = [];
    const report: WriterReport = {
      role: current.role,
      office: current.target.office,
      outcomes,
      written: writer.written,
      trips,
    };
    switch (current.role) {
      case 'sales':
        while (Date.now() < endAt) outcomes.push(await writer.next());
        break;
      case 'counter':
        while (Date.now() < endAt) outcomes.push(await writer.bumpCounter());
        break;
      case 'editor':
        while (Date.now() < endAt) {
          outcomes.push(await writer.editTicketType());
          await sleep(current.pauseMs ?? 100);
        }
        break;
      case 'holder':
        await sleep(
          Math.max(0, startAt + (current.holdAfterMs ?? 0) - Date.now()),
        );
        outcomes.push(
          await writer.heldOrder(current.holdMs ?? 1000, (at) => {
            report.locked = at;
          }),
        );
        break;
    }
    send({ report });
  } finally {
    begin = null;
    await raw.close();
  }
}

import type { DataSource } from 'typeorm';
import { ResourceReader } from '../common/resources/resource-reader';
import type { Row } from '../database/row-reader';
import { dialectFor } from '../database/sql-dialect';
import type { WriteWork } from '../database/write-transaction';
import { ISSUED_TICKET_SOURCE } from '../issued-tickets/issued-ticket.fields';
import { CHECK_IN_SOURCE } from './check-in.fields';
import { type Scan, type ScanAnswer, ScanRecorder } from './scan-recorder';

// What a scan costs in statements, and what its answer is made of (docs/API.md, "Recording
// scans"), on SQLite, where each resource's JSON is built by the database (one `j0` column).

const type = 'better-sqlite3';
const readerOf = (source: typeof CHECK_IN_SOURCE) =>
  new ResourceReader({ options: { type } } as unknown as DataSource, source);
const recorder = new ScanRecorder(
  dialectFor(type),
  readerOf(CHECK_IN_SOURCE),
  readerOf(ISSUED_TICKET_SOURCE),
);

const TICKET = {
  id: 5,
  status: 'valid',
  voided_at: null,
  created_at: 1_750_000_000,
  event_id: 3,
  event_series_id: 2,
  now: 1_760_000_000,
};
const CHECK_IN_JSON = '{"object":"check_in","id":"ci_9"}';
const TICKET_JSON = '{"object":"issued_ticket","id":"it_5"}';

/** Runs the work, answering each statement by what it reads; the statements and the answer. */
function run(work: WriteWork<ScanAnswer>, history: Row[] = []) {
  const sent: string[] = [];
  const answerTo = (sql: string): Row[] => {
    if (sql.includes('FROM issued_tickets t JOIN events e')) return [TICKET];
    if (sql.includes('SELECT id, quantity, check_in_at')) return history;
    if (sql.startsWith('INSERT INTO check_ins')) return [{ id: 9 }];
    if (sql.includes('FROM check_ins ci'))
      return [{ id: 9, j0: CHECK_IN_JSON }];
    if (sql.includes('FROM issued_tickets t'))
      return [{ id: 5, j0: TICKET_JSON }];
    throw new Error(`unexpected statement: ${sql}`);
  };
  let step = work.next();
  while (!step.done) {
    sent.push(step.value.sql);
    step = work.next(answerTo(step.value.sql));
  }
  return { sent, answer: step.value };
}

const scan: Scan = { ticket: { id: 5 }, quantity: 1, checkInAt: null };

describe('ScanRecorder', () => {
  it('adds one statement for ?expand=issued_ticket, and the ticket as the last field of the 201', () => {
    const plain = run(recorder.scan(1, scan));
    const expanded = run(
      recorder.scan(1, { ...scan, expand: 'issued_ticket' }),
    );
    expect(plain.answer.body).toBe(CHECK_IN_JSON);
    expect(expanded.answer.body).toBe(
      `{"object":"check_in","id":"ci_9","issued_ticket":${TICKET_JSON}}`,
    );
    expect(expanded.sent.length).toBe(plain.sent.length + 1);
    expect(expanded.sent.slice(0, -1)).toEqual(plain.sent);
    expect(JSON.parse(expanded.answer.body)).toEqual({
      object: 'check_in',
      id: 'ci_9',
      issued_ticket: JSON.parse(TICKET_JSON),
    });
  });

  it('refuses a ticket of another event before reading its scans', () => {
    const { sent, answer } = run(
      recorder.scan(1, { ...scan, eventIds: [4, 7] }),
    );
    expect(sent).toHaveLength(2);
    expect(answer.outcome).toBe('WRONG_EVENT');
    expect(JSON.parse(answer.body)).toEqual({
      status: 409,
      error_code: 'WRONG_EVENT',
      message: 'it_5 is for ev_3, not for the event_id of this scan',
      check_in: null,
      issued_ticket: JSON.parse(TICKET_JSON),
    });
  });
});

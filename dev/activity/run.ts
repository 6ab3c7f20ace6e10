import { setTimeout as sleep } from 'node:timers/promises';
import { SeededRandom } from '../../seeds/seeded-random';
import { type Connection, sql } from './connection';
import {
  ActivityError,
  type ActivityWriter,
  type PrintedChange,
} from './writer';

export interface RunOptions {
  boxOfficeId: number;
  durationS: number;
  /** Changes (transactions) per second aimed at. */
  rate: number;
  seed?: number;
  holdMs?: number;
}

export interface RunSummary {
  /** Changes committed. */
  changes: number;
  /** Change entries they wrote (lines printed). */
  entries: number;
}

type Action = (pick: Picker) => Promise<PrintedChange[]>;

/** What a run does, and how often relative to the rest. */
const MIX: readonly [
  weight: number,
  make: (w: ActivityWriter, o: RunState) => Action,
  needsCheckIns?: true,
][] = [
  [
    30,
    (w, o) => async (p) =>
      w.newOrder(`ev_${await p.event()}`, {
        ...o.options,
        random: () => o.random.next(),
      }),
  ],
  [
    8,
    (w, o) => async (p) =>
      w.cancelOrder(`or_${await p.order("status = 'completed'")}`, o.options),
  ],
  [
    10,
    (w, o) => async (p) =>
      w.refundOrder(
        `or_${await p.order("status = 'completed' AND refund_amount < total")}`,
        100,
        o.options,
      ),
  ],
  [
    10,
    (w, o) => async (p) =>
      w.voidTicket(`it_${await p.ticket('valid')}`, o.options),
  ],
  [
    15,
    (w, o) => async (p) =>
      w.checkIn(`it_${await p.ticket('out')}`, undefined, o.options),
    true,
  ],
  [
    8,
    (w, o) => async (p) => w.checkOut(`it_${await p.ticket('in')}`, o.options),
    true,
  ],
  [
    7,
    (w, o) => async (p) =>
      w.editEvent(
        `ev_${await p.event()}`,
        `Activity event ${o.random.int(1, 1e9)}`,
        o.options,
      ),
  ],
  [
    12,
    (w, o) => async () => {
      const created = o.created.splice(
        o.random.int(0, Math.max(0, o.created.length - 1)),
        1,
      )[0];
      if (created === undefined)
        throw new ActivityError('no test order of this run to delete yet');
      return w.deleteOrder(`or_${created}`, o.options);
    },
  ],
];

interface RunState {
  random: SeededRandom;
  options: { holdMs?: number };
  /** Orders this run created (test orders): the only ones it deletes. */
  created: number[];
}

/** Picks rows of the box office to change, at random among recent ones. */
class Picker {
  constructor(
    private readonly db: Connection,
    private readonly boxOfficeId: number,
    private readonly random: SeededRandom,
  ) {}

  async event(): Promise<number> {
    return this.one(
      await this.db.query(
        sql`SELECT id FROM events WHERE box_office_id = ${this.boxOfficeId} ORDER BY id`,
      ),
      'event',
    );
  }

  async order(
    condition:
      "status = 'completed'" | "status = 'completed' AND refund_amount < total",
  ) {
    const rows =
      condition === "status = 'completed'"
        ? await this.db
            .query(sql`SELECT id FROM orders WHERE box_office_id = ${this.boxOfficeId}
             AND status = 'completed' ORDER BY id DESC LIMIT 50`)
        : await this.db
            .query(sql`SELECT id FROM orders WHERE box_office_id = ${this.boxOfficeId}
             AND status = 'completed' AND refund_amount + 100 <= total ORDER BY id DESC LIMIT 50`);
    return this.one(rows, 'order');
  }

  /** A valid ticket; `out`/`in`: one that is not / is checked in now. */
  async ticket(state: 'valid' | 'out' | 'in') {
    const rows =
      state === 'valid'
        ? await this.db
            .query(sql`SELECT id FROM issued_tickets WHERE box_office_id = ${this.boxOfficeId}
             AND status = 'valid' ORDER BY id DESC LIMIT 50`)
        : await this.db.query(sql`SELECT t.id FROM issued_tickets t
             WHERE t.box_office_id = ${this.boxOfficeId} AND t.status = 'valid'
               AND (SELECT coalesce(sum(c.quantity), 0) FROM check_ins c WHERE c.issued_ticket_id = t.id)
                   = ${state === 'in' ? 1 : 0}
             ORDER BY t.id DESC LIMIT 50`);
    return this.one(rows, 'ticket');
  }

  private one(rows: Record<string, unknown>[], what: string): number {
    if (rows.length === 0) throw new ActivityError(`no ${what} to change`);
    return Number(rows[this.random.int(0, rows.length - 1)].id);
  }
}

/**
 * A mix of changes to one box office for `durationS` seconds at about `rate` changes a second,
 * each in its own transaction; `onCommitted` gets each change's entries as it commits. A change
 * the data does not allow at that moment (nothing to check out, say) is skipped for another.
 */
export async function runActivity(
  writer: ActivityWriter,
  db: Connection,
  options: RunOptions,
  onCommitted: (entries: PrintedChange[]) => void,
): Promise<RunSummary> {
  const random = new SeededRandom(options.seed ?? Date.now());
  const [office] = await db.query(
    sql`SELECT id FROM box_offices WHERE id = ${options.boxOfficeId}`,
  );
  if (!office)
    throw new ActivityError(`box office ${options.boxOfficeId} does not exist`);
  const state: RunState = {
    random,
    options: { holdMs: options.holdMs },
    created: [],
  };
  const picker = new Picker(db, options.boxOfficeId, random);
  // Check-ins and check-outs only where the database has them.
  const checkIns = await writer.hasCheckIns();
  const actions = MIX.filter(
    ([, , needsCheckIns]) => checkIns || !needsCheckIns,
  ).map(([weight, make]) => [weight, make(writer, state)] as const);
  const totalWeight = actions.reduce((sum, [weight]) => sum + weight, 0);
  const interval = 1000 / options.rate;
  const started = Date.now();
  const summary: RunSummary = { changes: 0, entries: 0 };
  for (let n = 0; Date.now() - started < options.durationS * 1000;) {
    for (let attempt = 0; attempt < 20; attempt++) {
      let roll = random.int(0, totalWeight - 1);
      const [, action] = actions.find(([weight]) => (roll -= weight) < 0)!;
      try {
        const entries = await action(picker);
        for (const entry of entries) {
          if (entry.type === 'ORDER.CREATED')
            state.created.push(Number(entry.resource_id.slice(3)));
        }
        onCommitted(entries);
        summary.changes += 1;
        summary.entries += entries.length;
        break;
      } catch (error) {
        if (!(error instanceof ActivityError)) throw error;
      }
    }
    n += 1;
    const wait = started + n * interval - Date.now();
    if (wait > 0) await sleep(wait);
  }
  return summary;
}

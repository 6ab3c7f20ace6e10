import type { Row } from './seed-writers';
import { SeededRandom } from './seeded-random';

/** What a ticket's check-ins depend on: its event's times and series. */
export interface CheckInEvent {
  startAt: number;
  endAt: number;
  seriesId: number;
}

const MINUTE = 60;

/**
 * The door scans of the demo's tickets (docs/API.md, "Check-ins"): none for an event that has not
 * ended by the demo's day; for one that has, most valid tickets checked in (from half an hour
 * before the start), some checked out and some of those back in, and some scans recorded later
 * than made (an offline door app uploading them). A ticket's scans are drawn from its own id, so
 * the same seed gives the same check-ins whatever else changes. Void tickets have none: every
 * check-in would have to come before its voiding.
 */
export class CheckInGenerator {
  private nextId = 0;

  /** `now`: the demo's present; scans are of events over by then, recorded no later. */
  constructor(
    private readonly events: ReadonlyMap<number, CheckInEvent>,
    private readonly seed: number,
    private readonly now: number,
  ) {}

  rows(ticket: Row): Row[] {
    const event = this.events.get(Number(ticket.event_id));
    if (!event || event.endAt > this.now || ticket.status !== 'valid')
      return [];
    const rng = new SeededRandom(this.seed * 1_000_003 + Number(ticket.id));
    if (rng.chance(0.12)) return []; // a no-show
    const doorsOpen = event.startAt - 30 * MINUTE;
    const last = Math.max(
      doorsOpen,
      Math.min(event.endAt, event.startAt + 2 * 60 * MINUTE),
    );
    let at = Math.max(rng.int(doorsOpen, last), Number(ticket.created_at));
    const rows: Row[] = [];
    const scan = (quantity: 1 | -1) => {
      // An offline scan reaches the server minutes to a couple of hours later.
      const recorded = rng.chance(0.06)
        ? at + rng.int(5 * MINUTE, 120 * MINUTE)
        : at;
      rows.push({
        id: ++this.nextId,
        box_office_id: ticket.box_office_id,
        issued_ticket_id: ticket.id,
        event_id: ticket.event_id,
        event_series_id: event.seriesId,
        quantity,
        check_in_at: at,
        created_at: Math.min(recorded, this.now),
      });
    };
    scan(1);
    if (rng.chance(0.08)) {
      // A scan after the demo's present has not happened yet.
      at += rng.int(15 * MINUTE, 90 * MINUTE);
      if (at <= this.now) scan(-1);
      if (rng.chance(0.5)) {
        at += rng.int(5 * MINUTE, 40 * MINUTE);
        if (at <= this.now) scan(1);
      }
    }
    return rows;
  }
}

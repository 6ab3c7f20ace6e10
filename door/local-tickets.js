// The door's own copy of the tickets of the events it may scan (docs/API.md, "The door app"),
// kept current by the incremental sync of docs/API.md ("Incremental sync"): a walk of
// /v1/issued_tickets?sort=updated_at from the largest updated_at kept, so that a scan made
// without the network is still judged on the phone (unknown, wrong event, void, already in).
// Kept in localStorage: a few fields a ticket, for a door's few thousand tickets.
import { listAll } from './client/index.js';

const STORE = 'box-office-door-tickets';

/** What the door needs of a ticket: who, what, for which event, and its state. */
function compact(ticket) {
  return {
    id: ticket.id,
    barcode: ticket.barcode,
    name: ticket.full_name ?? '',
    type: ticket.description,
    eventId: ticket.event_id,
    status: ticket.status,
    checkedIn: ticket.checked_in === 'true',
  };
}

export class LocalTickets {
  /** `events`: the ids of the events whose tickets are kept (the door's list). */
  constructor(events) {
    this.events = [...events].sort((a, b) => a.localeCompare(b));
    const kept = JSON.parse(localStorage.getItem(STORE) ?? 'null');
    // Another set of events is another copy: started again from the beginning.
    const same = kept && kept.events.join(',') === this.events.join(',');
    this.since = same ? kept.since : 0;
    this.byBarcode = new Map(same ? Object.entries(kept.tickets) : []);
  }

  get size() {
    return this.byBarcode.size;
  }

  save() {
    localStorage.setItem(
      STORE,
      JSON.stringify({
        events: this.events,
        since: this.since,
        tickets: Object.fromEntries(this.byBarcode),
      }),
    );
  }

  /**
   * One sync run: every ticket of the events changed since the last run, upserted by barcode.
   * `updated_at.gte` (not `.gt`): a row may come twice, never not at all.
   */
  async sync(client) {
    if (this.events.length === 0) return;
    const query = {
      event_id: this.events.join(','),
      sort: 'updated_at',
      limit: 100,
      ...(this.since > 0 ? { 'updated_at.gte': this.since } : {}),
    };
    for await (const ticket of listAll(client, '/v1/issued_tickets', {
      query,
    })) {
      this.byBarcode.set(ticket.barcode, compact(ticket));
      this.since = Math.max(this.since, ticket.updated_at);
    }
    this.save();
  }

  /** Records what the service said of a ticket (a scan's answer carries it). */
  update(ticket) {
    if (!ticket) return;
    this.byBarcode.set(ticket.barcode, compact(ticket));
    this.save();
  }

  /** A scan the service recorded: the ticket is in (1) or out (-1) now. */
  moved(barcode, quantity) {
    const ticket = this.find(barcode);
    if (!ticket) return;
    ticket.checkedIn = quantity === 1;
    this.save();
  }

  find(barcode) {
    return this.byBarcode.get(barcode);
  }

  /** Tickets whose holder's name has `text` in it, case and accents ignored. */
  search(text) {
    const fold = (s) =>
      s
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase();
    const wanted = fold(text);
    return [...this.byBarcode.values()]
      .filter(
        (t) => fold(t.name).includes(wanted) || t.barcode.startsWith(text),
      )
      .slice(0, 20);
  }

  /**
   * The phone's verdict on a scan made without the network, as the service would give it
   * (docs/API.md, "The ticket's history decides"): the ticket's kept state, moved by the scans
   * still waiting to be sent (`pending`, oldest first). `{ ok, reason, ticket }`.
   */
  judge(scan, pending) {
    const ticket = this.find(scan.barcode);
    if (!ticket) return { ok: false, reason: 'UNKNOWN', ticket: null };
    if (scan.eventId && ticket.eventId !== scan.eventId) {
      return { ok: false, reason: 'WRONG_EVENT', ticket };
    }
    if (scan.quantity === 1 && ticket.status === 'void') {
      return { ok: false, reason: 'TICKET_VOID', ticket };
    }
    let inside = ticket.checkedIn;
    for (const earlier of pending) {
      if (earlier.barcode === scan.barcode) inside = earlier.quantity === 1;
    }
    if (scan.quantity === 1 && inside) {
      return { ok: false, reason: 'ALREADY_CHECKED_IN', ticket };
    }
    if (scan.quantity === -1 && !inside) {
      return { ok: false, reason: 'NOT_CHECKED_IN', ticket };
    }
    return { ok: true, reason: null, ticket };
  }
}

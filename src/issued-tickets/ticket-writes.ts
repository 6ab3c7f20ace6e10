import { randomBytes } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import { ApiError, errorBodyJson } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';
import type { ResourceReader } from '../common/resources/resource-reader';
import type { WriteAnswer } from '../common/writes/writes';
import { pendingCount } from '../database/pending-counts';
import { type SqlDialect, SqlParams } from '../database/sql-dialect';
import type { Row } from '../database/row-reader';
import type { WriteWork } from '../database/write-transaction';
import {
  RESOURCE,
  idOf,
  itemPathOf,
} from '../common/resources/resource-identities';

/** A ticket to issue, as a validated body asks for it. */
export interface TicketToIssue {
  eventId: number;
  ticketTypeId: number;
  /** The holder's name, its words split as the seed's tickets are: first, then the rest. */
  holder: { full: string; first: string; last: string | null } | null;
  email: string | null;
}

/** The characters of a barcode: the seed's (Crockford's base 32, no I, L, O or U). */
const BARCODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 characters, 80 random bits: longer than the seed's 10, so never one of them. */
const BARCODE_LENGTH = 16;

/** A new random barcode. */
export function randomBarcode(): string {
  const bytes = randomBytes(BARCODE_LENGTH);
  let out = '';
  for (const byte of bytes) out += BARCODE_ALPHABET[byte & 31];
  return out;
}

/** A holder's name as the seed's tickets carry it: `first last`, its first word the first name. */
export function holderOf(
  fullName: string | undefined,
): TicketToIssue['holder'] {
  if (fullName === undefined) return null;
  const words = fullName.trim().split(/\s+/);
  const [first, ...rest] = words;
  return {
    full: words.join(' '),
    first,
    last: rest.length > 0 ? rest.join(' ') : null,
  };
}

/**
 * The units of work of the ticket writes (docs/API.md, "POST /v1/issued_tickets" and
 * "POST /v1/issued_tickets/{id}/void"), run by Writes in one transaction. What they change, the
 * database's triggers follow as for any writer: stamps and `updated_at`, the ticket type's
 * `quantity_issued`, the event's and the day's counts, and the change entry
 * (`ISSUED_TICKET.CREATED`, `ISSUED_TICKET.UPDATED`). The answer is built by the IssuedTicket
 * field table, inside the transaction.
 *
 * Concurrency is the database's to decide: on PostgreSQL an issue locks its ticket type's row
 * (FOR UPDATE) and a void its ticket's (the UPDATE's row lock, which every scan's FOR UPDATE of
 * the ticket waits for, and waits for); on SQLite the write transaction holds the database's
 * write lock. So the capacity a type has left is read by one issue at a time, after every earlier
 * one committed, and a scan is decided before or after a void, never beside it. Rows are taken in
 * the one order of OPERATIONS.md "Deadlocks": a ticket type, then its tickets, then their order;
 * the counts the triggers keep are deltas on PostgreSQL, so no event's row is taken.
 *
 * The statements, each a round trip on PostgreSQL: an issue sends the event and the type, the
 * type locked (404 for an event not the box office's, 400 for a type not the event's), then the
 * ticket, inserted when the type has some left and no ticket has its barcode, with its JSON from
 * what the INSERT returns. A void sends the ticket, voided unless void already, with its JSON
 * from what the UPDATE returns, and only when none was voided the ticket again (404 or 409).
 * SQLite, whose RETURNING does not see the stamps, reads the answer in a statement of its own.
 */
export class TicketWrites {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly tickets: ResourceReader,
  ) {}

  *issue(boxOfficeId: number, ticket: TicketToIssue): WriteWork<WriteAnswer> {
    const type = yield* this.eventAndType(boxOfficeId, ticket);
    for (;;) {
      const barcode = randomBarcode();
      const issued = yield* this.inserted(boxOfficeId, ticket, barcode, type);
      if (issued === 'sold out') {
        return {
          status: HttpStatus.CONFLICT,
          headers: {},
          body: errorBodyJson(
            HttpStatus.CONFLICT,
            ErrorCode.SOLD_OUT,
            `Ticket type ${idOf(RESOURCE.ticketType, ticket.ticketTypeId)} has no tickets left to issue (quantity_total − quantity_issued − quantity_held is 0)`,
          ),
        };
      }
      // A ticket has the barcode already (one chance in 2^80): drawn again.
      if (issued === 'barcode taken') continue;
      return {
        status: HttpStatus.CREATED,
        headers: {
          Location: itemPathOf(RESOURCE.issuedTicket, issued.id),
        },
        body: issued.body,
      };
    }
  }

  /**
   * The event, of this box office (404), and the ticket type, of that event (400), in one
   * statement. PostgreSQL: the type's row is locked (FOR UPDATE), which orders every issue of it,
   * on every instance, and waits for every transaction still writing a ticket of it (each holds
   * the row's key share, from its foreign key); what is left is read by the next statement, whose
   * snapshot, taken after the lock, sees what they committed: the row's issued count and the
   * deltas not folded into it yet (migration CountsWithoutHotRows). SQLite, where the transaction
   * holds the write lock: what is left, read here.
   */
  private *eventAndType(
    boxOfficeId: number,
    ticket: TicketToIssue,
  ): WriteWork<Row> {
    const p = new SqlParams(this.dialect);
    const typeId = p.add(ticket.ticketTypeId);
    const [row] = yield {
      sql:
        this.dialect.name === 'postgres'
          ? `SELECT e.id AS event_id, y.id AS ticket_type_id
            FROM events e LEFT JOIN LATERAL (
              SELECT y.id FROM ticket_types y
              WHERE y.id = ${typeId} AND y.event_id = e.id
              FOR UPDATE) y ON true
            WHERE e.id = ${p.add(ticket.eventId)} AND e.box_office_id = ${p.add(boxOfficeId)}`
          : `SELECT e.id AS event_id, y.id AS ticket_type_id, y.name,
              ${leftOver(this.dialect)} AS left_over
            FROM events e LEFT JOIN ticket_types y ON y.id = ${typeId} AND y.event_id = e.id
            WHERE e.id = ${p.add(ticket.eventId)} AND e.box_office_id = ${p.add(boxOfficeId)}`,
      params: p.values,
    };
    if (row === undefined) {
      throw ApiError.notFound(
        `No event ${idOf(RESOURCE.event, ticket.eventId)} in this box office`,
      );
    }
    if (row.ticket_type_id === null) throw notATypeOf(ticket);
    return row;
  }

  /**
   * The ticket, inserted unless its type has none left or a ticket has its barcode, and its JSON.
   * PostgreSQL: one statement reads what is left (with the type's pending deltas), inserts the
   * ticket when some is, and selects its JSON from what the INSERT returns, with the count it
   * read. SQLite: what is left was read with the type (eventAndType); the INSERT returns the id,
   * and the ticket is read again.
   *
   * The barcode: 80 random bits, looked up by the barcode index in the INSERT itself, and drawn
   * again (issue) in the unlikely case a ticket has it. Two issues drawing the same 80 bits at
   * once is left to chance (one in 2^80).
   */
  private *inserted(
    boxOfficeId: number,
    ticket: TicketToIssue,
    barcode: string,
    type: Row,
  ): WriteWork<'sold out' | 'barcode taken' | { id: number; body: string }> {
    const { json } = this.tickets;
    const postgres = this.dialect.name === 'postgres';
    if (!postgres && Number(type.left_over) <= 0) return 'sold out';
    const p = new SqlParams(this.dialect);
    const v = (value: unknown) => p.add(value);
    // PostgreSQL: the type's name and the clock come from the WITH item, read with the count.
    // (Placed as they are met: SQLite's placeholders are numbered by their place in the text.)
    const typeId = postgres ? v(ticket.ticketTypeId) : '';
    const office = postgres ? v(boxOfficeId) : '';
    const eventId = postgres ? v(ticket.eventId) : '';
    const name = () => (postgres ? 'y.name' : v(String(type.name)));
    // SQLite: the clock read in the INSERT itself, which its triggers read in the same step (SQLite
    // keeps the time of one step), so created_at equals the stamp updated_at gets.
    const now = () => (postgres ? 'y.now' : this.dialect.now);
    // created_at and updated_at are raised to the transaction's stamp by the triggers.
    const insert = `INSERT INTO issued_tickets (box_office_id, order_id, event_id, ticket_type_id,
              status, barcode, barcode_url, qr_code_url, description, first_name, last_name,
              full_name, reservation, custom_questions, created_at, updated_at, voided_at, email)
            SELECT ${v(boxOfficeId)}, NULL, ${v(ticket.eventId)}, ${v(ticket.ticketTypeId)},
              'valid', ${v(barcode)}, ${v(`https://cdn.boxoffice.example/barcodes/${barcode}.png`)},
              ${v(`https://cdn.boxoffice.example/qr/${barcode}.png`)}, ${name()},
              ${v(ticket.holder?.first ?? null)}, ${v(ticket.holder?.last ?? null)},
              ${v(ticket.holder?.full ?? null)}, NULL, '[]', ${now()}, ${now()}, NULL,
              ${v(ticket.email)}${postgres ? '\n            FROM y WHERE y.left_over > 0 AND' : '\n            WHERE'}
              NOT EXISTS (SELECT 1 FROM issued_tickets b WHERE b.barcode = ${v(barcode)})`;
    if (!postgres) {
      const [row] = yield {
        sql: `${insert}\n            RETURNING id`,
        params: p.values,
      };
      if (row === undefined) return 'barcode taken';
      const id = Number(row.id);
      return { id, body: yield* this.ticketJson(boxOfficeId, id) };
    }
    const [row] = yield {
      // The clock is the transaction's stamp for the box office (sync_stamp, taken once), the
      // one the tickets' trigger raises updated_at to: created_at equals it, even when the second
      // turns between this read and the trigger.
      sql: `WITH y AS (
              SELECT y.name, ${leftOver(this.dialect)} AS left_over, sync_stamp(${office}) AS now
              FROM ticket_types y WHERE y.id = ${typeId} AND y.event_id = ${eventId}),
            t AS (${insert}
              RETURNING *)
            SELECT y.left_over, j.* FROM y LEFT JOIN (
            ${this.tickets.returnedSelect({ joinsUnchanged: true })}) j ON true`,
      params: p.values,
    };
    // The type is locked by this transaction: it cannot have gone since eventAndType.
    if (row === undefined) throw notATypeOf(ticket);
    if (row.id === null) {
      return Number(row.left_over) <= 0 ? 'sold out' : 'barcode taken';
    }
    return {
      id: Number(row.id),
      body: json.render(json.resourceRows([row]))[0],
    };
  }

  *void(boxOfficeId: number, ticketId: number): WriteWork<WriteAnswer> {
    const { json } = this.tickets;
    for (;;) {
      const p = new SqlParams(this.dialect);
      const update = `UPDATE issued_tickets SET status = 'void', voided_at = ${this.dialect.now}
            WHERE id = ${p.add(ticketId)} AND box_office_id = ${p.add(boxOfficeId)}
              AND status <> 'void'`;
      let body: string | null = null;
      if (this.dialect.name === 'postgres') {
        const [row] = yield {
          sql: `WITH t AS (${update}\n              RETURNING *)\n${this.tickets.returnedSelect({ joinsUnchanged: true })}`,
          params: p.values,
        };
        if (row !== undefined) body = json.render(json.resourceRows([row]))[0];
      } else {
        const [row] = yield {
          sql: `${update}\n            RETURNING id`,
          params: p.values,
        };
        if (row !== undefined)
          body = yield* this.ticketJson(boxOfficeId, ticketId);
      }
      if (body !== null) return { status: HttpStatus.OK, headers: {}, body };
      // None voided: not the box office's ticket, or void already.
      const q = new SqlParams(this.dialect);
      const [ticket] = yield {
        sql: `SELECT status FROM issued_tickets
            WHERE id = ${q.add(ticketId)} AND box_office_id = ${q.add(boxOfficeId)}`,
        params: q.values,
      };
      if (ticket === undefined) {
        throw ApiError.notFound(
          `No issued ticket ${idOf(RESOURCE.issuedTicket, ticketId)} in this box office`,
        );
      }
      if (ticket.status === 'void') {
        return {
          status: HttpStatus.CONFLICT,
          headers: {},
          body: errorBodyJson(
            HttpStatus.CONFLICT,
            ErrorCode.ALREADY_VOID,
            `Issued ticket ${idOf(RESOURCE.issuedTicket, ticketId)} is void already`,
          ),
        };
      }
      // Valid again since the UPDATE's snapshot (a void undone beside it): voided now.
    }
  }

  private *ticketJson(boxOfficeId: number, id: number): WriteWork<string> {
    const { json } = this.tickets;
    const rows = yield this.tickets.oneStatement(boxOfficeId, id);
    return json.render(json.resourceRows(rows))[0];
  }
}

/** What a ticket type has left to issue, `y` its row, its issued count as the database keeps it. */
function leftOver(dialect: SqlDialect): string {
  const issued = dialect.countsPending
    ? pendingCount('y', 'quantity_issued')
    : 'y.quantity_issued';
  return `y.quantity_total - ${issued} - y.quantity_held`;
}

/** 400: the ticket type is not one of the event's. */
function notATypeOf(ticket: TicketToIssue): ApiError {
  return ApiError.invalidBody([
    {
      field: 'ticket_type_id',
      messages: [
        `ticket_type_id must name a ticket type of ${idOf(RESOURCE.event, ticket.eventId)}; ${idOf(RESOURCE.ticketType, ticket.ticketTypeId)} is not one`,
      ],
    },
  ]);
}

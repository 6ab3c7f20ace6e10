import { randomBytes } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import { ApiError, errorBodyJson } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';
import type { ResourceReader } from '../common/resources/resource-reader';
import type { WriteAnswer } from '../common/writes/writes';
import { pendingCount } from '../database/pending-counts';
import { type SqlDialect, SqlParams } from '../database/sql-dialect';
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
 * (FOR UPDATE) and a void its ticket's, the row every scan of it locks too; on SQLite the write
 * transaction holds the database's write lock. So the capacity a type has left is read by one
 * issue at a time, after every earlier one committed, and a scan is decided before or after a
 * void, never beside it. Rows are taken in the one order of OPERATIONS.md "Deadlocks": a ticket
 * type, then its tickets, then their order; the counts the triggers keep are deltas on
 * PostgreSQL, so no event's row is taken.
 */
export class TicketWrites {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly tickets: ResourceReader,
  ) {}

  *issue(boxOfficeId: number, ticket: TicketToIssue): WriteWork<WriteAnswer> {
    const p = new SqlParams(this.dialect);
    const [event] = yield {
      sql: `SELECT id FROM events
            WHERE id = ${p.add(ticket.eventId)} AND box_office_id = ${p.add(boxOfficeId)}`,
      params: p.values,
    };
    if (event === undefined) {
      throw ApiError.notFound(
        `No event ${idOf(RESOURCE.event, ticket.eventId)} in this box office`,
      );
    }
    // PostgreSQL: the type's row lock (FOR UPDATE) orders every issue of it, on every instance,
    // and waits for every transaction still writing a ticket of it (each holds the row's key
    // share, from its foreign key); what is left is then read in a statement of its own, whose
    // snapshot sees what they committed: the row's issued count and the deltas not folded into
    // it yet (migration CountsWithoutHotRows).
    if (this.dialect.name === 'postgres') {
      const l = new SqlParams(this.dialect);
      yield {
        sql: `SELECT id FROM ticket_types
              WHERE id = ${l.add(ticket.ticketTypeId)} AND event_id = ${l.add(ticket.eventId)}
              FOR UPDATE`,
        params: l.values,
      };
    }
    const issued = this.dialect.countsPending
      ? pendingCount('y', 'quantity_issued')
      : 'y.quantity_issued';
    const q = new SqlParams(this.dialect);
    const [type] = yield {
      sql: `SELECT y.name, y.quantity_total - ${issued} - y.quantity_held AS left_over,
              ${this.dialect.now} AS now
            FROM ticket_types y
            WHERE y.id = ${q.add(ticket.ticketTypeId)} AND y.event_id = ${q.add(ticket.eventId)}`,
      params: q.values,
    };
    if (type === undefined) {
      throw ApiError.invalidBody([
        {
          field: 'ticket_type_id',
          messages: [
            `ticket_type_id must name a ticket type of ${idOf(RESOURCE.event, ticket.eventId)}; ${idOf(RESOURCE.ticketType, ticket.ticketTypeId)} is not one`,
          ],
        },
      ]);
    }
    if (Number(type.left_over) <= 0) {
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
    const barcode = yield* this.newBarcode();
    const now = Number(type.now);
    const values = new SqlParams(this.dialect);
    const v = (value: unknown) => values.add(value);
    // created_at and updated_at are raised to the transaction's stamp by the triggers.
    const [row] = yield {
      sql: `INSERT INTO issued_tickets (box_office_id, order_id, event_id, ticket_type_id, status,
              barcode, barcode_url, qr_code_url, description, first_name, last_name, full_name,
              reservation, custom_questions, created_at, updated_at, voided_at, email)
            VALUES (${v(boxOfficeId)}, NULL, ${v(ticket.eventId)}, ${v(ticket.ticketTypeId)},
              'valid', ${v(barcode)}, ${v(`https://cdn.boxoffice.example/barcodes/${barcode}.png`)},
              ${v(`https://cdn.boxoffice.example/qr/${barcode}.png`)}, ${v(String(type.name))},
              ${v(ticket.holder?.first ?? null)}, ${v(ticket.holder?.last ?? null)},
              ${v(ticket.holder?.full ?? null)}, NULL, '[]', ${v(now)}, ${v(now)}, NULL,
              ${v(ticket.email)})
            RETURNING id`,
      params: values.values,
    };
    const id = Number(row.id);
    return {
      status: HttpStatus.CREATED,
      headers: {
        Location: itemPathOf(RESOURCE.issuedTicket, id),
      },
      body: yield* this.ticketJson(boxOfficeId, id),
    };
  }

  *void(boxOfficeId: number, ticketId: number): WriteWork<WriteAnswer> {
    const lock = this.dialect.name === 'postgres' ? ' FOR UPDATE' : '';
    const p = new SqlParams(this.dialect);
    const [ticket] = yield {
      sql: `SELECT id, status, ${this.dialect.now} AS now FROM issued_tickets
            WHERE id = ${p.add(ticketId)} AND box_office_id = ${p.add(boxOfficeId)}${lock}`,
      params: p.values,
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
    const set = new SqlParams(this.dialect);
    yield {
      sql: `UPDATE issued_tickets SET status = 'void', voided_at = ${set.add(Number(ticket.now))}
            WHERE id = ${set.add(ticketId)}`,
      params: set.values,
    };
    return {
      status: HttpStatus.OK,
      headers: {},
      body: yield* this.ticketJson(boxOfficeId, ticketId),
    };
  }

  /**
   * A barcode no ticket has: 80 random bits, looked up by the barcode index and drawn again in
   * the unlikely case one has it. Two issues drawing the same 80 bits at once is left to chance
   * (one in 2^80).
   */
  private *newBarcode(): WriteWork<string> {
    for (;;) {
      const barcode = randomBarcode();
      const p = new SqlParams(this.dialect);
      const taken = yield {
        sql: `SELECT 1 AS taken FROM issued_tickets WHERE barcode = ${p.add(barcode)} LIMIT 1`,
        params: p.values,
      };
      if (taken.length === 0) return barcode;
    }
  }

  private *ticketJson(boxOfficeId: number, id: number): WriteWork<string> {
    const { json } = this.tickets;
    const rows = yield this.tickets.oneStatement(boxOfficeId, id);
    return json.render(json.resourceRows(rows))[0];
  }
}

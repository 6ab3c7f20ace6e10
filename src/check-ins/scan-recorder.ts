import { HttpStatus } from '@nestjs/common';
import { ApiError, errorBodyJson } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';
import { quoteIfSafe } from '../common/errors/safe-text';
import type { StoredResponse } from '../common/idempotency/idempotency-keys';
import type { ResourceReader } from '../common/resources/resource-reader';
import type { Row } from '../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  type Statement,
} from '../database/sql-dialect';
import type { WriteWork } from '../database/write-transaction';
import {
  type RecordedScan,
  type ScanRefusal,
  decideScan,
  refusalMessage,
} from './scan-decision';
import {
  RESOURCE,
  idOf,
  itemPathOf,
} from '../common/resources/resource-identities';

/** How far ahead of the database's clock a scan's `check_in_at` may be (a fast device clock). */
const MAX_CLOCK_AHEAD_S = 60;

/** A scan as the request asks for it, validated. */
export interface Scan {
  ticket: { id: number } | { barcode: string };
  quantity: 1 | -1;
  /** When it was made; null: now (a live scan). */
  checkInAt: number | null;
  /** The door's events (`event_id`): a ticket of another event is refused. Absent: any event. */
  eventIds?: readonly number[];
  /** `?expand=issued_ticket`: the 201 carries the ticket as well. */
  expand?: 'issued_ticket';
}

/** What became of a scan: recorded, refused and why (docs/API.md, "Recording scans"). */
export type ScanOutcome = 'recorded' | ScanRefusal;

/** The answer to a scan, as sent (and kept for its Idempotency-Key), and what became of it. */
export interface ScanAnswer extends StoredResponse {
  outcome: ScanOutcome;
}

/**
 * The write transaction of one scan (WriteWork): the ticket, locked on PostgreSQL (on SQLite the
 * transaction holds the database's write lock); its scans; the decision (scan-decision.ts); and,
 * when it is allowed, the new row, whose stamp, `updated_at` moves, `checked_in` and change entry
 * the database's triggers write as for any writer. The answer, the CheckIn or the refusal with the
 * deciding check-in, is built by the CheckIn field table, inside the transaction; the ticket a
 * refusal (and an expanded 201) carries, by the IssuedTicket field table, read after the scan's
 * own write, so it shows the ticket as the scan left it: one statement more.
 *
 * A ticket that is not the box office's, or a `check_in_at` out of bounds, throws (404, 400):
 * nothing is written.
 */
export class ScanRecorder {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly checkIns: ResourceReader,
    private readonly issuedTickets: ResourceReader,
  ) {}

  *scan(boxOfficeId: number, scan: Scan): WriteWork<ScanAnswer> {
    const ticket = yield* this.ticket(boxOfficeId, scan.ticket);
    const ticketId = idOf(RESOURCE.issuedTicket, Number(ticket.id));
    const now = Number(ticket.now);
    // A bad check_in_at is a bad request (400), whichever event the ticket is for.
    const at = checkInAt(scan.checkInAt, now, Number(ticket.created_at));
    const eventId = Number(ticket.event_id);
    // The door's events first: a ticket of another event is refused whatever its state.
    if (scan.eventIds !== undefined && !scan.eventIds.includes(eventId)) {
      return yield* this.refused(
        boxOfficeId,
        Number(ticket.id),
        'WRONG_EVENT',
        `${ticketId} is for ${idOf(RESOURCE.event, eventId)}, not for the event_id of this scan`,
        null,
      );
    }
    const p = new SqlParams(this.dialect);
    const history = (yield {
      sql: `SELECT id, quantity, check_in_at, created_at FROM check_ins
            WHERE issued_ticket_id = ${p.add(ticket.id)}`,
      params: p.values,
    }).map(recordedScan);
    const voidedAt =
      ticket.status === 'void' ? Number(ticket.voided_at ?? 0) : null;
    const decision = decideScan(
      history,
      scan.quantity,
      at,
      voidedAt,
      scan.checkInAt !== null,
    );

    if (!decision.accepted) {
      return yield* this.refused(
        boxOfficeId,
        Number(ticket.id),
        decision.reason,
        refusalMessage(ticketId, decision, at, voidedAt),
        decision.deciding,
      );
    }
    const values = new SqlParams(this.dialect);
    // created_at is raised to the transaction's stamp by the triggers: at least `now`, so the
    // scan is never recorded before it was made.
    const insert = {
      sql: `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
              quantity, check_in_at, created_at)
            VALUES (${values.add(boxOfficeId)}, ${values.add(ticket.id)},
              ${values.add(ticket.event_id)}, ${values.add(ticket.event_series_id)},
              ${values.add(scan.quantity)}, ${values.add(at)}, ${values.add(now)})`,
      params: values.values,
    };
    const { id, body } = yield* this.inserted(boxOfficeId, insert);
    return {
      status: HttpStatus.CREATED,
      headers: { Location: itemPathOf(RESOURCE.checkIn, id) },
      body:
        scan.expand === 'issued_ticket'
          ? withIssuedTicket(
              body,
              yield* this.issuedTicketJson(boxOfficeId, Number(ticket.id)),
            )
          : body,
      outcome: 'recorded',
    };
  }

  /**
   * A refusal's 409: nothing written; the body carries the deciding check-in (or null) and the
   * ticket as GET /v1/issued_tickets/{id} serves it (docs/API.md, "Recording scans").
   */
  private *refused(
    boxOfficeId: number,
    ticketId: number,
    reason: ScanRefusal,
    message: string,
    deciding: RecordedScan | null,
  ): WriteWork<ScanAnswer> {
    const checkIn =
      deciding === null
        ? null
        : (JSON.parse(
            yield* this.checkInJson(boxOfficeId, deciding.id),
          ) as unknown);
    const issuedTicket = JSON.parse(
      yield* this.issuedTicketJson(boxOfficeId, ticketId),
    ) as unknown;
    return {
      status: HttpStatus.CONFLICT,
      headers: {},
      body: errorBodyJson(HttpStatus.CONFLICT, ErrorCode[reason], message, {
        check_in: checkIn,
        issued_ticket: issuedTicket,
      }),
      outcome: reason,
    };
  }

  /**
   * Inserts the check-in and answers its id and JSON: from the INSERT itself where RETURNING
   * gives the stamped row (PostgreSQL: a round trip fewer), else by reading the row again.
   */
  private *inserted(
    boxOfficeId: number,
    insert: Statement,
  ): WriteWork<{ id: number; body: string }> {
    const { json } = this.checkIns;
    if (this.dialect.returnsStampedRows) {
      const rows = json.resourceRows(
        yield this.checkIns.insertedStatement(insert),
      );
      return { id: Number(rows[0].id), body: json.render(rows)[0] };
    }
    const [row] = yield {
      sql: `${insert.sql}\n            RETURNING id`,
      params: insert.params,
    };
    const id = Number(row.id);
    return { id, body: yield* this.checkInJson(boxOfficeId, id) };
  }

  /** The scanned ticket of the box office, with its event's series and the database's clock. */
  private *ticket(boxOfficeId: number, named: Scan['ticket']): WriteWork<Row> {
    const p = new SqlParams(this.dialect);
    const office = p.add(boxOfficeId);
    const match =
      'id' in named
        ? `t.id = ${p.add(named.id)}`
        : `t.barcode = ${p.add(named.barcode)}`;
    // PostgreSQL: the ticket's row lock orders every scan of it, on every instance.
    const lock = this.dialect.name === 'postgres' ? ' FOR UPDATE OF t' : '';
    const rows = yield {
      sql: `SELECT t.id, t.status, t.voided_at, t.created_at, t.event_id, e.event_series_id,
              ${this.dialect.now} AS now
            FROM issued_tickets t JOIN events e ON e.id = t.event_id
            WHERE t.box_office_id = ${office} AND ${match}
            ORDER BY t.id LIMIT 2${lock}`,
      params: p.values,
    };
    if (rows.length === 0) {
      throw ApiError.notFound(
        'id' in named
          ? `No issued ticket ${idOf(RESOURCE.issuedTicket, named.id)} in this box office`
          : `No issued ticket with barcode ${quoteIfSafe(named.barcode, '(as sent)')} in this box office`,
      );
    }
    if (rows.length > 1) {
      throw ApiError.invalidBody([
        {
          field: 'barcode',
          messages: [
            'barcode names more than one ticket of this box office: send issued_ticket_id',
          ],
        },
      ]);
    }
    return rows[0];
  }

  /** An issued ticket's JSON, as GET /v1/issued_tickets/{id} serves it. */
  private *issuedTicketJson(
    boxOfficeId: number,
    id: number,
  ): WriteWork<string> {
    const { json } = this.issuedTickets;
    const rows = yield this.issuedTickets.oneStatement(boxOfficeId, id);
    return json.render(json.resourceRows(rows))[0];
  }

  /** A check-in's JSON, as GET /v1/check_ins/{id} serves it. */
  private *checkInJson(boxOfficeId: number, id: number): WriteWork<string> {
    const { json } = this.checkIns;
    const rows = yield this.checkIns.oneStatement(boxOfficeId, id);
    return json.render(json.resourceRows(rows))[0];
  }
}

/**
 * When the scan happened, as recorded: `requested` (null: now) within its bounds, and never
 * later than `now`: a device whose clock runs ahead by up to a minute is believed to have
 * scanned now, since no stored time is in the future (docs/API.md, "Recording scans").
 */
function checkInAt(
  requested: number | null,
  now: number,
  ticketCreatedAt: number,
): number {
  if (requested === null) return now;
  if (requested > now + MAX_CLOCK_AHEAD_S) {
    throw badCheckInAt(
      `check_in_at must not be more than ${MAX_CLOCK_AHEAD_S} seconds after the current time (${now})`,
    );
  }
  if (requested < ticketCreatedAt) {
    throw badCheckInAt(
      `check_in_at must not be before the ticket was issued (${ticketCreatedAt})`,
    );
  }
  return Math.min(requested, now);
}

/**
 * The CheckIn's JSON with `issued_ticket` added as its last field: the two rendered objects
 * joined as text, as sent and kept for the Idempotency-Key.
 */
function withIssuedTicket(checkIn: string, issuedTicket: string): string {
  return `${checkIn.slice(0, -1)},"issued_ticket":${issuedTicket}}`;
}

const badCheckInAt = (message: string) =>
  ApiError.invalidBody([{ field: 'check_in_at', messages: [message] }]);

function recordedScan(row: Row): RecordedScan {
  return {
    id: Number(row.id),
    quantity: Number(row.quantity),
    checkInAt: Number(row.check_in_at),
    createdAt: Number(row.created_at),
  };
}

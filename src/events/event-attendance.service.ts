import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { parsePrefixedId } from '../common/ids';
import { attendanceCountTables } from '../database/pending-counts';
import { type ReadRows, rowReader } from '../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  dialectFor,
} from '../database/sql-dialect';
import {
  RESOURCE,
  idOf,
  idForm,
} from '../common/resources/resource-identities';

/** One ticket type's figures, or the event's. */
interface Figures {
  tickets_valid: number;
  tickets_void: number;
  checked_in: number;
  entered: number;
}

/**
 * An event's attendance (docs/API.md, "GET /v1/events/{event_id}/attendance"): its tickets counted by status and by
 * check-in, in all and per ticket type. One statement, so every figure is of one moment: a row
 * for the event itself (none when the box office has no such event), one per ticket type of the
 * event (those without tickets too), and the event's counts per type as the writers keep them
 * (migration AttendanceCounts: `attendance_counts`, and on PostgreSQL the deltas not folded yet,
 * src/database/pending-counts.ts), a few rows whatever the event's size. A ticket whose type was
 * deleted counts in the event's figures and in no type's (its counts are under type 0, and only
 * the event's types are listed).
 */
@Injectable()
export class EventAttendanceService {
  private readonly dialect: SqlDialect;
  private readonly read: ReadRows;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectFor(dataSource.options.type);
    this.read = rowReader(dataSource);
  }

  /** The attendance's JSON bytes; 404 for a malformed id, a missing event or another box office's. */
  async attendance(boxOfficeId: number, eventId: string): Promise<Buffer> {
    const id = parsePrefixedId(RESOURCE.event.prefix, eventId);
    if (id === null) {
      throw ApiError.notFound(
        `No such event in this box office (event ids are ${idForm(RESOURCE.event)})`,
      );
    }
    const params = new SqlParams(this.dialect);
    const rows = await this.read(
      `SELECT g.kind, g.ticket_type_id, max(g.listed) AS listed,
          sum(g.tickets_valid) AS tickets_valid, sum(g.tickets_void) AS tickets_void,
          sum(g.checked_in) AS checked_in, sum(g.entered) AS entered
        FROM (
          SELECT 0 AS kind, NULL AS ticket_type_id, NULL AS sort_order, 0 AS listed,
              0 AS tickets_valid, 0 AS tickets_void, 0 AS checked_in, 0 AS entered
            FROM events ev WHERE ev.box_office_id = ${params.add(boxOfficeId)} AND ev.id = ${params.add(id)}
          UNION ALL
          SELECT 1, tt.id, tt.sort_order, 1, 0, 0, 0, 0
            FROM ticket_types tt WHERE tt.event_id = ${params.add(id)}
          ${attendanceCountTables(this.dialect)
            .map(
              (table) => `UNION ALL
          SELECT 1, a.ticket_type_id, NULL, 0, a.tickets_valid, a.tickets_void, a.checked_in,
              a.entered
            FROM ${table} a
            WHERE a.event_id = ${params.add(id)} AND a.box_office_id = ${params.add(boxOfficeId)}`,
            )
            .join('\n          ')}
        ) g
        GROUP BY g.kind, g.ticket_type_id
        ORDER BY g.kind, max(g.sort_order), g.ticket_type_id`,
      params.values,
    );
    if (rows.length === 0 || Number(rows[0].kind) !== 0) {
      throw ApiError.notFound(`No event ${eventId} in this box office`);
    }
    const event: Figures = {
      tickets_valid: 0,
      tickets_void: 0,
      checked_in: 0,
      entered: 0,
    };
    const ticketTypes: ({ ticket_type_id: string } & Omit<
      Figures,
      'tickets_void'
    >)[] = [];
    for (const row of rows.slice(1)) {
      const figures: Figures = {
        tickets_valid: Number(row.tickets_valid),
        tickets_void: Number(row.tickets_void),
        checked_in: Number(row.checked_in),
        entered: Number(row.entered),
      };
      for (const key of Object.keys(event) as (keyof Figures)[]) {
        event[key] += figures[key];
      }
      if (Number(row.listed) === 1) {
        ticketTypes.push({
          ticket_type_id: idOf(RESOURCE.ticketType, Number(row.ticket_type_id)),
          tickets_valid: figures.tickets_valid,
          checked_in: figures.checked_in,
          entered: figures.entered,
        });
      }
    }
    return Buffer.from(
      JSON.stringify({
        object: 'attendance',
        event_id: idOf(RESOURCE.event, id),
        ...event,
        ticket_types: ticketTypes,
      }),
    );
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counters' update triggers write a counting row only when its count moves.
 *
 * Migrations EventsAndTicketTypes and EventSeries keep four counters (an event's completed orders,
 * valid tickets and revenue, a ticket type's tickets issued) with triggers that, on update, took
 * the old rows' share away and added the new rows' back: two writes to each counting row even
 * when nothing it counts had changed. On PostgreSQL a statement that touched a ticket or an order
 * without moving a count (a check-in stamps both) left two dead versions of an event or a ticket
 * type, and a transaction of many such writes (a seed, an import) slowed with each one, as every
 * update walked the versions before it: seeding went quadratic (20k orders 77 s, 50k 540 s).
 *
 * - PostgreSQL: each statement's old and new shares are summed into one change per counting row,
 *   and only rows whose change is not zero are written.
 * - SQLite: the row triggers fire only when a watched column's value changes (`UPDATE OF` fires
 *   on any assignment, the same value included).
 */
interface Counter {
  /** Names the triggers: `trg_<name>_update`, and on PostgreSQL `<name>_on_update()`. */
  name: string;
  /** The counted table, its column naming the counting row, and the counting table. */
  rows: 'orders' | 'issued_tickets';
  link: string;
  target: 'events' | 'ticket_types';
  column: string;
  /** Only rows with this status count, each adding `amount` over its alias. */
  status: string;
  amount: (alias: string) => string;
  /** The columns whose change can move the count. */
  watched: string[];
}

const COUNTERS: Counter[] = [
  {
    name: 'orders_completed_orders_count',
    rows: 'orders',
    link: 'event_id',
    target: 'events',
    column: 'completed_orders_count',
    status: 'completed',
    amount: () => '1',
    watched: ['status', 'event_id'],
  },
  {
    name: 'issued_tickets_valid_tickets_count',
    rows: 'issued_tickets',
    link: 'event_id',
    target: 'events',
    column: 'valid_tickets_count',
    status: 'valid',
    amount: () => '1',
    watched: ['status', 'event_id'],
  },
  {
    name: 'orders_completed_revenue',
    rows: 'orders',
    link: 'event_id',
    target: 'events',
    column: 'completed_revenue',
    status: 'completed',
    amount: (alias) => `(${alias}.total - ${alias}.refund_amount)`,
    watched: ['status', 'event_id', 'total', 'refund_amount'],
  },
  {
    name: 'issued_tickets_quantity_issued',
    rows: 'issued_tickets',
    link: 'ticket_type_id',
    target: 'ticket_types',
    column: 'quantity_issued',
    status: 'valid',
    amount: () => '1',
    watched: ['status', 'ticket_type_id'],
  },
];

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** PostgreSQL: one statement, each counting row changed once by its net change, or not at all. */
function netFunction({
  name,
  link,
  target,
  column,
  status,
  amount,
}: Counter): string {
  const share = (table: string, sign: string) =>
    `SELECT r.${link} AS id, ${sign}sum(${amount('r')}) AS n FROM ${table} r
      WHERE r.status = '${status}' AND r.${link} IS NOT NULL GROUP BY r.${link}`;
  return `CREATE OR REPLACE FUNCTION ${name}_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE ${target} c SET ${column} = c.${column} + d.n
       FROM (SELECT s.id, sum(s.n) AS n
               FROM (${share('old_rows', '-')} UNION ALL ${share('new_rows', '')}) s
              GROUP BY s.id HAVING sum(s.n) <> 0) d
      WHERE c.id = d.id;
     RETURN NULL;
   END $$`;
}

/** SQLite: the row trigger, run only when a watched value differs. */
function changedOnlyTrigger({
  name,
  rows,
  link,
  target,
  column,
  status,
  amount,
  watched,
}: Counter): string {
  const change = (alias: string, sign: string) =>
    `UPDATE ${target} SET ${column} = ${column} ${sign} ${amount(alias)}
      WHERE id = ${alias}.${link} AND ${alias}.status = '${status}';`;
  return `CREATE TRIGGER trg_${name}_update AFTER UPDATE OF ${watched.join(', ')} ON ${rows}
    WHEN ${watched.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')}
    BEGIN ${change('OLD', '-')} ${change('NEW', '+')} END`;
}

/**
 * Each update trigger's statement as migration EventsAndTicketTypes or EventSeries sent it, which
 * down() sends again: on PostgreSQL the function (as CREATE OR REPLACE), on SQLite the trigger.
 */
const EARLIER: Record<string, Record<'postgres' | 'sqlite', string>> = {
  orders_completed_orders_count: {
    postgres: `CREATE OR REPLACE FUNCTION orders_completed_orders_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN UPDATE events e SET completed_orders_count = e.completed_orders_count - c.n
         FROM (SELECT event_id, count(*) AS n FROM old_rows
               WHERE status = 'completed' GROUP BY event_id) c
        WHERE e.id = c.event_id; UPDATE events e SET completed_orders_count = e.completed_orders_count + c.n
         FROM (SELECT event_id, count(*) AS n FROM new_rows
               WHERE status = 'completed' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $$`,
    sqlite: `CREATE TRIGGER trg_orders_completed_orders_count_update AFTER UPDATE OF status, event_id ON orders
         BEGIN UPDATE events SET completed_orders_count = completed_orders_count - 1 WHERE id = OLD.event_id AND OLD.status = 'completed'; UPDATE events SET completed_orders_count = completed_orders_count + 1 WHERE id = NEW.event_id AND NEW.status = 'completed'; END`,
  },
  issued_tickets_valid_tickets_count: {
    postgres: `CREATE OR REPLACE FUNCTION issued_tickets_valid_tickets_count_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN UPDATE events e SET valid_tickets_count = e.valid_tickets_count - c.n
         FROM (SELECT event_id, count(*) AS n FROM old_rows
               WHERE status = 'valid' GROUP BY event_id) c
        WHERE e.id = c.event_id; UPDATE events e SET valid_tickets_count = e.valid_tickets_count + c.n
         FROM (SELECT event_id, count(*) AS n FROM new_rows
               WHERE status = 'valid' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $$`,
    sqlite: `CREATE TRIGGER trg_issued_tickets_valid_tickets_count_update AFTER UPDATE OF status, event_id ON issued_tickets
         BEGIN UPDATE events SET valid_tickets_count = valid_tickets_count - 1 WHERE id = OLD.event_id AND OLD.status = 'valid'; UPDATE events SET valid_tickets_count = valid_tickets_count + 1 WHERE id = NEW.event_id AND NEW.status = 'valid'; END`,
  },
  orders_completed_revenue: {
    postgres: `CREATE OR REPLACE FUNCTION orders_completed_revenue_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN UPDATE events c SET completed_revenue = c.completed_revenue - s.n
         FROM (SELECT r.event_id AS id, sum((r.total - r.refund_amount)) AS n FROM old_rows r
               WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
        WHERE c.id = s.id; UPDATE events c SET completed_revenue = c.completed_revenue + s.n
         FROM (SELECT r.event_id AS id, sum((r.total - r.refund_amount)) AS n FROM new_rows r
               WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
        WHERE c.id = s.id; RETURN NULL; END $$`,
    sqlite: `CREATE TRIGGER trg_orders_completed_revenue_update AFTER UPDATE OF status, event_id, total, refund_amount
         ON orders BEGIN UPDATE events SET completed_revenue = completed_revenue - (OLD.total - OLD.refund_amount)
          WHERE id = OLD.event_id AND OLD.status = 'completed'; UPDATE events SET completed_revenue = completed_revenue + (NEW.total - NEW.refund_amount)
          WHERE id = NEW.event_id AND NEW.status = 'completed'; END`,
  },
  issued_tickets_quantity_issued: {
    postgres: `CREATE OR REPLACE FUNCTION issued_tickets_quantity_issued_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN UPDATE ticket_types c SET quantity_issued = c.quantity_issued - s.n
         FROM (SELECT r.ticket_type_id AS id, sum(1) AS n FROM old_rows r
               WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id) s
        WHERE c.id = s.id; UPDATE ticket_types c SET quantity_issued = c.quantity_issued + s.n
         FROM (SELECT r.ticket_type_id AS id, sum(1) AS n FROM new_rows r
               WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id) s
        WHERE c.id = s.id; RETURN NULL; END $$`,
    sqlite: `CREATE TRIGGER trg_issued_tickets_quantity_issued_update AFTER UPDATE OF status, ticket_type_id
         ON issued_tickets BEGIN UPDATE ticket_types SET quantity_issued = quantity_issued - 1
          WHERE id = OLD.ticket_type_id AND OLD.status = 'valid'; UPDATE ticket_types SET quantity_issued = quantity_issued + 1
          WHERE id = NEW.ticket_type_id AND NEW.status = 'valid'; END`,
  },
};

export class NetCounterUpdates1765500000000 implements MigrationInterface {
  name = 'NetCounterUpdates1765500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    for (const counter of COUNTERS) {
      if (postgres) {
        await queryRunner.query(netFunction(counter));
      } else {
        await queryRunner.query(`DROP TRIGGER trg_${counter.name}_update`);
        await queryRunner.query(changedOnlyTrigger(counter));
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    for (const counter of COUNTERS) {
      if (!postgres) {
        await queryRunner.query(`DROP TRIGGER trg_${counter.name}_update`);
      }
      await queryRunner.query(
        EARLIER[counter.name][postgres ? 'postgres' : 'sqlite'],
      );
    }
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ticket types and event series' template ticket types share one `tt_` id space: no template
 * type has the id of an event's ticket type. Each shows as `tt_<id>`, and every ticket type's
 * `quantity_issued` must equal `/v1/issued_tickets?ticket_type_id=…&status=valid` (docs/API.md,
 * TicketType): a template's 0 only holds if no event's type has its id.
 *
 * - Templates made by migration EventSeries took their first date's ids: they move past every
 *   id of both tables, in one UPDATE (no row meets another's new id).
 * - New rows get ids no row of the other table can get: on PostgreSQL the two sequences step by
 *   2, the ticket types' through odd numbers and the templates' through even ones (two writers
 *   inserting at once cannot meet, and each column keeps its own sequence as its default); on
 *   SQLite, whose writers take turns, triggers keep the two AUTOINCREMENT counters at the larger
 *   of the two.
 * - A writer that gives an id the other table holds is refused, by a trigger on each table.
 *   (On PostgreSQL two transactions that give the same explicit id to the two tables at once
 *   do not see each other's row; ids the sequences give cannot meet.)
 */
/** The two tables of the one id space. */
const SHARED_ID_TABLES = ['ticket_types', 'event_series_ticket_types'] as const;
type Table = (typeof SHARED_ID_TABLES)[number];
const other = (table: Table): Table =>
  table === 'ticket_types' ? 'event_series_ticket_types' : 'ticket_types';

const refusal = (table: Table) =>
  `${table === 'ticket_types' ? 'an event series template' : 'an event'}'s ticket type has this id (ticket type ids are shared)`;

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** Where each PostgreSQL sequence starts: the ticket types' odd ids, the templates' even ones. */
const PARITY_START: Record<Table, number> = {
  ticket_types: 1,
  event_series_ticket_types: 2,
};

/** The first id above `largest` that a sequence stepping by 2 from `start` gives. */
const nextOfParity = (largest: number, start: number) =>
  largest + 1 + ((largest + 1 - start) % 2 === 0 ? 0 : 1);

/** The largest id of either table (SQLite's two-argument max is PostgreSQL's greatest). */
const largestId = (queryRunner: QueryRunner) =>
  `${isPostgres(queryRunner) ? 'greatest' : 'max'}(
    (SELECT coalesce(max(id), 0) FROM ticket_types),
    (SELECT coalesce(max(id), 0) FROM event_series_ticket_types))`;

async function sequenceOf(
  queryRunner: QueryRunner,
  table: Table,
): Promise<string> {
  const rows = (await queryRunner.query(
    `SELECT pg_get_serial_sequence('${table}', 'id') AS name`,
  )) as { name: string }[];
  return rows[0].name;
}

function sqliteTriggers(table: Table): [name: string, sql: string][] {
  const counter = (id: string) => `
      UPDATE sqlite_sequence SET seq = ${id} WHERE name = '${other(table)}' AND seq < ${id};
      INSERT INTO sqlite_sequence (name, seq) SELECT '${other(table)}', ${id}
        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${other(table)}');`;
  const guard = `WHEN EXISTS (SELECT 1 FROM ${other(table)} WHERE id = NEW.id)
      BEGIN SELECT RAISE(ABORT, '${refusal(table).replace(/'/g, "''")}'); END`;
  return [
    [
      `trg_${table}_id_apart_insert`,
      `CREATE TRIGGER trg_${table}_id_apart_insert BEFORE INSERT ON ${table} ${guard}`,
    ],
    [
      `trg_${table}_id_apart_update`,
      `CREATE TRIGGER trg_${table}_id_apart_update BEFORE UPDATE OF id ON ${table} ${guard}`,
    ],
    [
      `trg_${table}_id_counter`,
      `CREATE TRIGGER trg_${table}_id_counter AFTER INSERT ON ${table}
      BEGIN ${counter('NEW.id')} END`,
    ],
    [
      `trg_${table}_id_counter_update`,
      `CREATE TRIGGER trg_${table}_id_counter_update AFTER UPDATE OF id ON ${table}
      BEGIN ${counter('NEW.id')} END`,
    ],
  ];
}

export class TicketTypeIdsApart1765900000000 implements MigrationInterface {
  name = 'TicketTypeIdsApart1765900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE event_series_ticket_types SET id = id + ${largestId(queryRunner)}`,
    );
    if (isPostgres(queryRunner)) {
      const [{ largest }] = (await queryRunner.query(
        `SELECT ${largestId(queryRunner)} AS largest`,
      )) as { largest: string }[];
      for (const table of SHARED_ID_TABLES) {
        const start = PARITY_START[table];
        await queryRunner.query(
          `ALTER SEQUENCE ${await sequenceOf(queryRunner, table)} INCREMENT BY 2 START WITH ${start}
           RESTART WITH ${nextOfParity(Number(largest), start)}`,
        );
      }
      for (const table of SHARED_ID_TABLES) {
        await queryRunner.query(
          `CREATE FUNCTION ${table}_id_apart() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF EXISTS (SELECT 1 FROM ${other(table)} WHERE id = NEW.id) THEN
              RAISE EXCEPTION '${refusal(table).replace(/'/g, "''")}: %', NEW.id;
            END IF;
            RETURN NEW;
          END $$`,
        );
        await queryRunner.query(
          `CREATE TRIGGER trg_${table}_id_apart BEFORE INSERT OR UPDATE OF id ON ${table}
           FOR EACH ROW EXECUTE FUNCTION ${table}_id_apart()`,
        );
      }
      return;
    }
    // Both counters, even a table's that has never had a row (SQLite would then number it from
    // its largest id, 0 on an empty table: an event type's `tt_1`).
    for (const table of SHARED_ID_TABLES) {
      await queryRunner.query(
        `INSERT INTO sqlite_sequence (name, seq) SELECT '${table}', 0
         WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${table}')`,
      );
    }
    await queryRunner.query(
      `UPDATE sqlite_sequence SET seq = ${largestId(queryRunner)} WHERE name IN ('ticket_types', 'event_series_ticket_types')`,
    );
    for (const table of SHARED_ID_TABLES) {
      for (const [, sql] of sqliteTriggers(table)) await queryRunner.query(sql);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      for (const table of SHARED_ID_TABLES) {
        await queryRunner.query(
          `DROP TRIGGER IF EXISTS trg_${table}_id_apart ON ${table}`,
        );
        await queryRunner.query(`DROP FUNCTION IF EXISTS ${table}_id_apart()`);
      }
      for (const table of SHARED_ID_TABLES) {
        const [{ largest }] = (await queryRunner.query(
          `SELECT coalesce(max(id), 0) AS largest FROM ${table}`,
        )) as { largest: string }[];
        await queryRunner.query(
          `ALTER SEQUENCE ${await sequenceOf(queryRunner, table)} INCREMENT BY 1 START WITH 1
           RESTART WITH ${Number(largest) + 1}`,
        );
      }
      return;
    }
    for (const table of SHARED_ID_TABLES) {
      for (const [name] of sqliteTriggers(table)) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
      }
    }
  }
}

import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * Check-ins (docs/API.md, "Check-ins"): door scans of issued tickets, `quantity` 1 for a check-in
 * and -1 for a check-out, `check_in_at` when scanned and `created_at` when recorded. Each carries
 * its ticket's event and series, so that the list's filters are served by an index of their own.
 *
 * `issued_tickets.checked_in` is kept by triggers here, whoever writes: true exactly when the
 * ticket's check-ins sum to 1. Existing tickets have no check-ins, so false. Migration
 * SyncAndChanges, which comes after, stamps check-ins and writes their change entries.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const index = (name: string, columnNames: string[]) =>
  new TableIndex({ name, columnNames });

const CHECK_IN_INDEXES = [
  index('IDX_check_ins_list', ['box_office_id', 'created_at', 'id']),
  index('IDX_check_ins_event', [
    'box_office_id',
    'event_id',
    'created_at',
    'id',
  ]),
  index('IDX_check_ins_series', [
    'box_office_id',
    'event_series_id',
    'created_at',
    'id',
  ]),
  index('IDX_check_ins_ticket', [
    'box_office_id',
    'issued_ticket_id',
    'created_at',
    'id',
  ]),
  // The cascade from a deleted ticket, and the triggers' sum per ticket.
  index('IDX_check_ins_issued_ticket', ['issued_ticket_id']),
];

/** The ticket's `checked_in`, from its check-ins. */
const recompute = (ticket: string) =>
  `UPDATE issued_tickets SET checked_in = (
     SELECT coalesce(sum(c.quantity), 0) = 1 FROM check_ins c WHERE c.issued_ticket_id = ${ticket})
   WHERE id = ${ticket}`;

export class CheckIns1765100000000 implements MigrationInterface {
  name = 'CheckIns1765100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'check_ins',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'box_office_id', type: 'integer' },
          { name: 'issued_ticket_id', type: 'integer' },
          { name: 'event_id', type: 'integer' },
          { name: 'event_series_id', type: 'integer' },
          { name: 'quantity', type: 'integer' },
          { name: 'check_in_at', type: 'bigint' },
          { name: 'created_at', type: 'bigint' },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['box_office_id'],
            referencedTableName: 'box_offices',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            columnNames: ['issued_ticket_id'],
            referencedTableName: 'issued_tickets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        checks: [
          { name: 'CHK_check_ins_quantity', expression: 'quantity IN (1, -1)' },
        ],
        indices: CHECK_IN_INDEXES,
      }),
    );
    // A plain ALTER TABLE, not TypeORM's addColumn: on SQLite that rebuilds the table, and a
    // rebuilt table has lost its triggers (the event counters of EventsAndTicketTypes).
    await queryRunner.query(
      `ALTER TABLE issued_tickets ADD COLUMN checked_in boolean NOT NULL DEFAULT ${
        isPostgres(queryRunner) ? 'false' : '0'
      }`,
    );
    for (const statement of checkedInTriggers(queryRunner)) {
      await queryRunner.query(statement);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of dropCheckedInTriggers(queryRunner)) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(
      'ALTER TABLE issued_tickets DROP COLUMN checked_in',
    );
    await queryRunner.dropTable('check_ins');
  }
}

function checkedInTriggers(queryRunner: QueryRunner): string[] {
  if (!isPostgres(queryRunner)) {
    return [
      `CREATE TRIGGER trg_check_ins_checked_in_insert AFTER INSERT ON check_ins
       BEGIN ${recompute('NEW.issued_ticket_id')}; END`,
      `CREATE TRIGGER trg_check_ins_checked_in_delete AFTER DELETE ON check_ins
       BEGIN ${recompute('OLD.issued_ticket_id')}; END`,
    ];
  }
  return [
    `CREATE FUNCTION check_ins_checked_in() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' THEN ${recompute('OLD.issued_ticket_id')};
       ELSE ${recompute('NEW.issued_ticket_id')}; END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER trg_check_ins_checked_in AFTER INSERT OR DELETE ON check_ins
     FOR EACH ROW EXECUTE FUNCTION check_ins_checked_in()`,
  ];
}

function dropCheckedInTriggers(queryRunner: QueryRunner): string[] {
  return isPostgres(queryRunner)
    ? [
        'DROP TRIGGER trg_check_ins_checked_in ON check_ins',
        'DROP FUNCTION check_ins_checked_in()',
      ]
    : [
        'DROP TRIGGER trg_check_ins_checked_in_insert',
        'DROP TRIGGER trg_check_ins_checked_in_delete',
      ];
}

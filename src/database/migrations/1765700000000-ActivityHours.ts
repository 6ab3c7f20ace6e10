import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/**
 * What the overview counts (docs/API.md, "Overview"), kept per box office and hour, so that its
 * four weeks read 672 small rows of each table instead of every order and ticket of the period:
 *
 * - `order_hours`: completed orders, per hour of their creation;
 * - `revenue_hours`: their revenue (total less refunds), per currency and hour (the overview sums
 *   the box office's own currency: keyed currency first, so that is one range);
 * - `ticket_hours`: valid issued tickets, per hour of their creation.
 *
 * Kept where every writer passes, by row triggers on orders and issued_tickets: an insert adds a
 * counted row's share, a delete takes it away, and an update of a column that decides the share
 * (status, creation time, amounts, currency, box office) moves it; any other update fires
 * nothing. Each table's rows are the GROUP BY of the counted rows, exactly: the up migration
 * fills them from the rows already there, in key order (a box office's hours on few pages; later
 * hours arrive in time order). The hours at the period's two ends are counted from
 * the rows themselves (src/overview/overview.service.ts). Migration ActivityDays keeps the same
 * rollups per day.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** A rollup's bucket: its key column, and its length in seconds. */
interface Bucket {
  column: 'hour' | 'day';
  seconds: number;
}

const HOUR: Bucket = { column: 'hour', seconds: 3600 };

interface Rollup {
  /** The counted table and the rollup table, which name the triggers. */
  rows: 'orders' | 'issued_tickets';
  table: string;
  /** Only rows with this status count. */
  status: string;
  /** The rollup's key columns between box office and bucket, read from the counted row. */
  keys: string[];
  /** Each counted column and the amount one row adds to it, over the row's alias. */
  sums: [column: string, amount: (row: string) => string][];
  /** The columns whose change can move a row's share. */
  watched: string[];
}

const HOURLY_ROLLUPS: Rollup[] = [
  {
    rows: 'orders',
    table: 'order_hours',
    status: 'completed',
    keys: [],
    sums: [['completed_orders', () => '1']],
    watched: ['status', 'created_at', 'box_office_id'],
  },
  {
    rows: 'orders',
    table: 'revenue_hours',
    status: 'completed',
    keys: ['currency'],
    sums: [['revenue', (row) => `${row}.total - ${row}.refund_amount`]],
    watched: [
      'status',
      'created_at',
      'total',
      'refund_amount',
      'currency',
      'box_office_id',
    ],
  },
  {
    rows: 'issued_tickets',
    table: 'ticket_hours',
    status: 'valid',
    keys: [],
    sums: [['valid_tickets', () => '1']],
    watched: ['status', 'created_at', 'box_office_id'],
  },
];

/** A bucket's number: Unix seconds divided by its length (integer division on both databases). */
const bucketOf = (bucket: Bucket, row: string) =>
  `${row}.created_at / ${bucket.seconds}`;

function keyColumns(rollup: Rollup, bucket: Bucket): string[] {
  return ['box_office_id', ...rollup.keys, bucket.column];
}

/** Adds `row`'s share (NEW): an upsert. */
function add(rollup: Rollup, bucket: Bucket, row: string): string {
  const values = [
    `${row}.box_office_id`,
    ...rollup.keys.map((key) => `${row}.${key}`),
    bucketOf(bucket, row),
    ...rollup.sums.map(([, amount]) => amount(row)),
  ];
  const columns = [
    ...keyColumns(rollup, bucket),
    ...rollup.sums.map(([c]) => c),
  ];
  return `INSERT INTO ${rollup.table} (${columns.join(', ')})
      VALUES (${values.join(', ')})
      ON CONFLICT (${keyColumns(rollup, bucket).join(', ')}) DO UPDATE SET ${rollup.sums
        .map(([c]) => `${c} = ${rollup.table}.${c} + excluded.${c}`)
        .join(', ')}`;
}

/** Takes `row`'s share (OLD) away. */
function subtract(rollup: Rollup, bucket: Bucket, row: string): string {
  const where = [
    `box_office_id = ${row}.box_office_id`,
    `${bucket.column} = ${bucketOf(bucket, row)}`,
    ...rollup.keys.map((key) => `${key} = ${row}.${key}`),
  ];
  return `UPDATE ${rollup.table} SET ${rollup.sums
    .map(([c, amount]) => `${c} = ${c} - (${amount(row)})`)
    .join(', ')}
      WHERE ${where.join(' AND ')}`;
}

const changed = (rollup: Rollup, distinct: string) =>
  rollup.watched.map((c) => `OLD.${c} ${distinct} NEW.${c}`).join(' OR ');

/** Names the triggers (`<stem>_<suffix>`) and, on PostgreSQL, the function they call. */
const stem = (rollup: Rollup) => `${rollup.rows}_${rollup.table}`;
const counted = (rollup: Rollup, row: string) =>
  `${row}.status = '${rollup.status}'`;

/** Each trigger as its name's suffix and the text that creates it. */
type Triggers = [suffix: string, sql: string][];

function sqliteTriggers(rollup: Rollup, bucket: Bucket): Triggers {
  const update = `UPDATE OF ${rollup.watched.join(', ')}`;
  const moved = changed(rollup, 'IS NOT');
  // Two update triggers, so that each side runs only when its row counts.
  const triggers: [
    suffix: string,
    event: string,
    when: string,
    body: string,
  ][] = [
    ['insert', 'INSERT', counted(rollup, 'NEW'), add(rollup, bucket, 'NEW')],
    [
      'delete',
      'DELETE',
      counted(rollup, 'OLD'),
      subtract(rollup, bucket, 'OLD'),
    ],
    [
      'update_old',
      update,
      `${counted(rollup, 'OLD')} AND (${moved})`,
      subtract(rollup, bucket, 'OLD'),
    ],
    [
      'update_new',
      update,
      `${counted(rollup, 'NEW')} AND (${moved})`,
      add(rollup, bucket, 'NEW'),
    ],
  ];
  return triggers.map(([suffix, event, when, body]) => [
    suffix,
    `CREATE TRIGGER trg_${stem(rollup)}_${suffix} AFTER ${event} ON ${rollup.rows}
      WHEN ${when}
      BEGIN ${body}; END`,
  ]);
}

/** The function the PostgreSQL triggers call: each side applied when its row counts. */
function postgresFunction(rollup: Rollup, bucket: Bucket): string {
  return `CREATE FUNCTION ${stem(rollup)}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND ${counted(rollup, 'OLD')} THEN
        ${subtract(rollup, bucket, 'OLD')};
      END IF;
      IF TG_OP <> 'DELETE' AND ${counted(rollup, 'NEW')} THEN
        ${add(rollup, bucket, 'NEW')};
      END IF;
      RETURN NULL;
    END $$`;
}

function postgresTriggers(rollup: Rollup): Triggers {
  const triggers: [suffix: string, event: string, when: string][] = [
    ['insert', 'INSERT', counted(rollup, 'NEW')],
    ['delete', 'DELETE', counted(rollup, 'OLD')],
    [
      'update',
      `UPDATE OF ${rollup.watched.join(', ')}`,
      `(${counted(rollup, 'OLD')} OR ${counted(rollup, 'NEW')}) AND (${changed(rollup, 'IS DISTINCT FROM')})`,
    ],
  ];
  return triggers.map(([suffix, event, when]) => [
    suffix,
    `CREATE TRIGGER trg_${stem(rollup)}_${suffix} AFTER ${event} ON ${rollup.rows}
      FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${stem(rollup)}()`,
  ]);
}

/** The rollup's triggers on the database at hand. */
const triggersOf = (rollup: Rollup, bucket: Bucket, postgres: boolean) =>
  postgres ? postgresTriggers(rollup) : sqliteTriggers(rollup, bucket);

/**
 * Creates each rollup table, fills it with the GROUP BY of the rows already there (in key order),
 * and adds its triggers.
 */
async function createRollups(
  queryRunner: QueryRunner,
  rollups: readonly Rollup[],
  bucket: Bucket,
): Promise<void> {
  const postgres = isPostgres(queryRunner);
  for (const rollup of rollups) {
    await queryRunner.createTable(
      new Table({
        name: rollup.table,
        columns: [
          { name: 'box_office_id', type: 'integer', isPrimary: true },
          ...rollup.keys.map((key) => ({
            name: key,
            type: 'varchar',
            length: '3',
            isPrimary: true,
          })),
          { name: bucket.column, type: 'integer', isPrimary: true },
          ...rollup.sums.map(([column]) => ({
            name: column,
            type: 'bigint',
            default: 0,
          })),
        ],
      }),
    );
    const keys = [
      'r.box_office_id',
      ...rollup.keys.map((key) => `r.${key}`),
      bucketOf(bucket, 'r'),
    ];
    await queryRunner.query(
      `INSERT INTO ${rollup.table} (${[
        ...keyColumns(rollup, bucket),
        ...rollup.sums.map(([c]) => c),
      ].join(', ')})
         SELECT ${keys.join(', ')}, ${rollup.sums
           .map(([, amount]) => `sum(${amount('r')})`)
           .join(', ')}
         FROM ${rollup.rows} r WHERE r.status = '${rollup.status}'
         GROUP BY ${keys.join(', ')}
         ORDER BY ${keys.join(', ')}`,
    );
    if (postgres) await queryRunner.query(postgresFunction(rollup, bucket));
    for (const [, sql] of triggersOf(rollup, bucket, postgres)) {
      await queryRunner.query(sql);
    }
  }
}

/** Drops what createRollups created. */
async function dropRollups(
  queryRunner: QueryRunner,
  rollups: readonly Rollup[],
  bucket: Bucket,
): Promise<void> {
  const postgres = isPostgres(queryRunner);
  for (const rollup of rollups) {
    for (const [suffix] of triggersOf(rollup, bucket, postgres)) {
      await queryRunner.query(
        `DROP TRIGGER IF EXISTS trg_${stem(rollup)}_${suffix}${postgres ? ` ON ${rollup.rows}` : ''}`,
      );
    }
    if (postgres) {
      await queryRunner.query(`DROP FUNCTION IF EXISTS ${stem(rollup)}()`);
    }
    await queryRunner.dropTable(rollup.table);
  }
}

export class ActivityHours1765700000000 implements MigrationInterface {
  name = 'ActivityHours1765700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await createRollups(queryRunner, HOURLY_ROLLUPS, HOUR);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropRollups(queryRunner, HOURLY_ROLLUPS, HOUR);
  }
}

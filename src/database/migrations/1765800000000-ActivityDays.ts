import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  type TableOptions,
} from 'typeorm';

/**
 * The overview's rollups again, per box office and UTC day (`order_days`, `revenue_days`,
 * `ticket_days`), kept by the same kind of row triggers as the hourly ones (migration
 * ActivityHours), and filled the same way from the rows already there. The overview reads its
 * whole days from them, the hours before and after those days from the hourly rollups, and the
 * parts of an hour at the period's two ends from the rows (src/overview/overview.service.ts): at
 * most 51 rollup rows a table instead of 672. Hourly rows of one box office lie on as many heap
 * pages as there are hours once other box offices write between them, so the count of rows is
 * what the statement's cost follows (bench/notes/2026-11-27-overview-daily-rollups.md).
 *
 * Each rollup's statements are written out byte for byte as this migration has always sent them,
 * indentation included (src/database/migrations/statements pins them). A day is 86,400 seconds:
 * Unix seconds divided by it, integer division on both databases. An insert adds a counted row's
 * share, a delete takes it away, an update of a column that decides the share moves it.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** A trigger or function: its name (for down) and the statement that creates it. */
type Named = [name: string, sql: string];

interface DailyRollup {
  /** The counted table, which the triggers are on. */
  rows: 'orders' | 'issued_tickets';
  table: TableOptions & { name: string };
  /** Fills the table with the GROUP BY of the rows already there, in key order. */
  fill: string;
  /** PostgreSQL: row triggers that each run the rollup's one function. */
  postgres: { function: Named; triggers: Named[] };
  /** SQLite: row triggers, two for an update so that each side runs only when its row counts. */
  sqlite: { triggers: Named[] };
}

const DAILY_ROLLUPS: DailyRollup[] = [
  {
    rows: 'orders',
    table: {
      name: 'order_days',
      columns: [
        { name: 'box_office_id', type: 'integer', isPrimary: true },
        { name: 'day', type: 'integer', isPrimary: true },
        { name: 'completed_orders', type: 'bigint', default: 0 },
      ],
    },
    fill: `INSERT INTO order_days (box_office_id, day, completed_orders)
         SELECT r.box_office_id, r.created_at / 86400, sum(1)
         FROM orders r WHERE r.status = 'completed'
         GROUP BY r.box_office_id, r.created_at / 86400
         ORDER BY r.box_office_id, r.created_at / 86400`,
    postgres: {
      function: [
        'orders_order_days',
        `CREATE FUNCTION orders_order_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE order_days SET completed_orders = completed_orders - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO order_days (box_office_id, day, completed_orders)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET completed_orders = order_days.completed_orders + excluded.completed_orders;
      END IF;
      RETURN NULL;
    END $$`,
      ],
      triggers: [
        [
          'trg_orders_order_days_insert',
          `CREATE TRIGGER trg_orders_order_days_insert AFTER INSERT ON orders
      FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION orders_order_days()`,
        ],
        [
          'trg_orders_order_days_delete',
          `CREATE TRIGGER trg_orders_order_days_delete AFTER DELETE ON orders
      FOR EACH ROW WHEN (OLD.status = 'completed') EXECUTE FUNCTION orders_order_days()`,
        ],
        [
          'trg_orders_order_days_update',
          `CREATE TRIGGER trg_orders_order_days_update AFTER UPDATE OF status, created_at, box_office_id ON orders
      FOR EACH ROW WHEN ((OLD.status = 'completed' OR NEW.status = 'completed') AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.box_office_id IS DISTINCT FROM NEW.box_office_id)) EXECUTE FUNCTION orders_order_days()`,
        ],
      ],
    },
    sqlite: {
      triggers: [
        [
          'trg_orders_order_days_insert',
          `CREATE TRIGGER trg_orders_order_days_insert AFTER INSERT ON orders
      WHEN NEW.status = 'completed'
      BEGIN INSERT INTO order_days (box_office_id, day, completed_orders)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET completed_orders = order_days.completed_orders + excluded.completed_orders; END`,
        ],
        [
          'trg_orders_order_days_delete',
          `CREATE TRIGGER trg_orders_order_days_delete AFTER DELETE ON orders
      WHEN OLD.status = 'completed'
      BEGIN UPDATE order_days SET completed_orders = completed_orders - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400; END`,
        ],
        [
          'trg_orders_order_days_update_old',
          `CREATE TRIGGER trg_orders_order_days_update_old AFTER UPDATE OF status, created_at, box_office_id ON orders
      WHEN OLD.status = 'completed' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN UPDATE order_days SET completed_orders = completed_orders - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400; END`,
        ],
        [
          'trg_orders_order_days_update_new',
          `CREATE TRIGGER trg_orders_order_days_update_new AFTER UPDATE OF status, created_at, box_office_id ON orders
      WHEN NEW.status = 'completed' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN INSERT INTO order_days (box_office_id, day, completed_orders)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET completed_orders = order_days.completed_orders + excluded.completed_orders; END`,
        ],
      ],
    },
  },
  {
    rows: 'orders',
    table: {
      name: 'revenue_days',
      columns: [
        { name: 'box_office_id', type: 'integer', isPrimary: true },
        { name: 'currency', type: 'varchar', length: '3', isPrimary: true },
        { name: 'day', type: 'integer', isPrimary: true },
        { name: 'revenue', type: 'bigint', default: 0 },
      ],
    },
    fill: `INSERT INTO revenue_days (box_office_id, currency, day, revenue)
         SELECT r.box_office_id, r.currency, r.created_at / 86400, sum(r.total - r.refund_amount)
         FROM orders r WHERE r.status = 'completed'
         GROUP BY r.box_office_id, r.currency, r.created_at / 86400
         ORDER BY r.box_office_id, r.currency, r.created_at / 86400`,
    postgres: {
      function: [
        'orders_revenue_days',
        `CREATE FUNCTION orders_revenue_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE revenue_days SET revenue = revenue - (OLD.total - OLD.refund_amount)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400 AND currency = OLD.currency;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO revenue_days (box_office_id, currency, day, revenue)
      VALUES (NEW.box_office_id, NEW.currency, NEW.created_at / 86400, NEW.total - NEW.refund_amount)
      ON CONFLICT (box_office_id, currency, day) DO UPDATE SET revenue = revenue_days.revenue + excluded.revenue;
      END IF;
      RETURN NULL;
    END $$`,
      ],
      triggers: [
        [
          'trg_orders_revenue_days_insert',
          `CREATE TRIGGER trg_orders_revenue_days_insert AFTER INSERT ON orders
      FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION orders_revenue_days()`,
        ],
        [
          'trg_orders_revenue_days_delete',
          `CREATE TRIGGER trg_orders_revenue_days_delete AFTER DELETE ON orders
      FOR EACH ROW WHEN (OLD.status = 'completed') EXECUTE FUNCTION orders_revenue_days()`,
        ],
        [
          'trg_orders_revenue_days_update',
          `CREATE TRIGGER trg_orders_revenue_days_update AFTER UPDATE OF status, created_at, total, refund_amount, currency, box_office_id ON orders
      FOR EACH ROW WHEN ((OLD.status = 'completed' OR NEW.status = 'completed') AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.total IS DISTINCT FROM NEW.total OR OLD.refund_amount IS DISTINCT FROM NEW.refund_amount OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.box_office_id IS DISTINCT FROM NEW.box_office_id)) EXECUTE FUNCTION orders_revenue_days()`,
        ],
      ],
    },
    sqlite: {
      triggers: [
        [
          'trg_orders_revenue_days_insert',
          `CREATE TRIGGER trg_orders_revenue_days_insert AFTER INSERT ON orders
      WHEN NEW.status = 'completed'
      BEGIN INSERT INTO revenue_days (box_office_id, currency, day, revenue)
      VALUES (NEW.box_office_id, NEW.currency, NEW.created_at / 86400, NEW.total - NEW.refund_amount)
      ON CONFLICT (box_office_id, currency, day) DO UPDATE SET revenue = revenue_days.revenue + excluded.revenue; END`,
        ],
        [
          'trg_orders_revenue_days_delete',
          `CREATE TRIGGER trg_orders_revenue_days_delete AFTER DELETE ON orders
      WHEN OLD.status = 'completed'
      BEGIN UPDATE revenue_days SET revenue = revenue - (OLD.total - OLD.refund_amount)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400 AND currency = OLD.currency; END`,
        ],
        [
          'trg_orders_revenue_days_update_old',
          `CREATE TRIGGER trg_orders_revenue_days_update_old AFTER UPDATE OF status, created_at, total, refund_amount, currency, box_office_id ON orders
      WHEN OLD.status = 'completed' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.total IS NOT NEW.total OR OLD.refund_amount IS NOT NEW.refund_amount OR OLD.currency IS NOT NEW.currency OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN UPDATE revenue_days SET revenue = revenue - (OLD.total - OLD.refund_amount)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400 AND currency = OLD.currency; END`,
        ],
        [
          'trg_orders_revenue_days_update_new',
          `CREATE TRIGGER trg_orders_revenue_days_update_new AFTER UPDATE OF status, created_at, total, refund_amount, currency, box_office_id ON orders
      WHEN NEW.status = 'completed' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.total IS NOT NEW.total OR OLD.refund_amount IS NOT NEW.refund_amount OR OLD.currency IS NOT NEW.currency OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN INSERT INTO revenue_days (box_office_id, currency, day, revenue)
      VALUES (NEW.box_office_id, NEW.currency, NEW.created_at / 86400, NEW.total - NEW.refund_amount)
      ON CONFLICT (box_office_id, currency, day) DO UPDATE SET revenue = revenue_days.revenue + excluded.revenue; END`,
        ],
      ],
    },
  },
  {
    rows: 'issued_tickets',
    table: {
      name: 'ticket_days',
      columns: [
        { name: 'box_office_id', type: 'integer', isPrimary: true },
        { name: 'day', type: 'integer', isPrimary: true },
        { name: 'valid_tickets', type: 'bigint', default: 0 },
      ],
    },
    fill: `INSERT INTO ticket_days (box_office_id, day, valid_tickets)
         SELECT r.box_office_id, r.created_at / 86400, sum(1)
         FROM issued_tickets r WHERE r.status = 'valid'
         GROUP BY r.box_office_id, r.created_at / 86400
         ORDER BY r.box_office_id, r.created_at / 86400`,
    postgres: {
      function: [
        'issued_tickets_ticket_days',
        `CREATE FUNCTION issued_tickets_ticket_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'valid' THEN
        UPDATE ticket_days SET valid_tickets = valid_tickets - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'valid' THEN
        INSERT INTO ticket_days (box_office_id, day, valid_tickets)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET valid_tickets = ticket_days.valid_tickets + excluded.valid_tickets;
      END IF;
      RETURN NULL;
    END $$`,
      ],
      triggers: [
        [
          'trg_issued_tickets_ticket_days_insert',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_insert AFTER INSERT ON issued_tickets
      FOR EACH ROW WHEN (NEW.status = 'valid') EXECUTE FUNCTION issued_tickets_ticket_days()`,
        ],
        [
          'trg_issued_tickets_ticket_days_delete',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_delete AFTER DELETE ON issued_tickets
      FOR EACH ROW WHEN (OLD.status = 'valid') EXECUTE FUNCTION issued_tickets_ticket_days()`,
        ],
        [
          'trg_issued_tickets_ticket_days_update',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_update AFTER UPDATE OF status, created_at, box_office_id ON issued_tickets
      FOR EACH ROW WHEN ((OLD.status = 'valid' OR NEW.status = 'valid') AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.box_office_id IS DISTINCT FROM NEW.box_office_id)) EXECUTE FUNCTION issued_tickets_ticket_days()`,
        ],
      ],
    },
    sqlite: {
      triggers: [
        [
          'trg_issued_tickets_ticket_days_insert',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_insert AFTER INSERT ON issued_tickets
      WHEN NEW.status = 'valid'
      BEGIN INSERT INTO ticket_days (box_office_id, day, valid_tickets)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET valid_tickets = ticket_days.valid_tickets + excluded.valid_tickets; END`,
        ],
        [
          'trg_issued_tickets_ticket_days_delete',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_delete AFTER DELETE ON issued_tickets
      WHEN OLD.status = 'valid'
      BEGIN UPDATE ticket_days SET valid_tickets = valid_tickets - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400; END`,
        ],
        [
          'trg_issued_tickets_ticket_days_update_old',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_update_old AFTER UPDATE OF status, created_at, box_office_id ON issued_tickets
      WHEN OLD.status = 'valid' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN UPDATE ticket_days SET valid_tickets = valid_tickets - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400; END`,
        ],
        [
          'trg_issued_tickets_ticket_days_update_new',
          `CREATE TRIGGER trg_issued_tickets_ticket_days_update_new AFTER UPDATE OF status, created_at, box_office_id ON issued_tickets
      WHEN NEW.status = 'valid' AND (OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.box_office_id IS NOT NEW.box_office_id)
      BEGIN INSERT INTO ticket_days (box_office_id, day, valid_tickets)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET valid_tickets = ticket_days.valid_tickets + excluded.valid_tickets; END`,
        ],
      ],
    },
  },
];

export class ActivityDays1765800000000 implements MigrationInterface {
  name = 'ActivityDays1765800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    for (const rollup of DAILY_ROLLUPS) {
      await queryRunner.createTable(new Table(rollup.table));
      await queryRunner.query(rollup.fill);
      if (postgres) await queryRunner.query(rollup.postgres.function[1]);
      const triggers = postgres
        ? rollup.postgres.triggers
        : rollup.sqlite.triggers;
      for (const [, sql] of triggers) await queryRunner.query(sql);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    for (const rollup of DAILY_ROLLUPS) {
      const triggers = postgres
        ? rollup.postgres.triggers
        : rollup.sqlite.triggers;
      for (const [name] of triggers) {
        await queryRunner.query(
          `DROP TRIGGER IF EXISTS ${name}${postgres ? ` ON ${rollup.rows}` : ''}`,
        );
      }
      if (postgres) {
        await queryRunner.query(
          `DROP FUNCTION IF EXISTS ${rollup.postgres.function[0]}()`,
        );
      }
      await queryRunner.dropTable(rollup.table.name);
    }
  }
}

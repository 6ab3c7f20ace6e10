import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/**
 * The stock version: a number per box office that moves whenever one of its ticket types' held
 * or in-basket quantities does. A sales system writes those counters as buyers fill and empty
 * their baskets, without a change entry (they are no change of the event: migration
 * SyncAndChanges, DERIVED), so the data version alone cannot vouch for a body that shows them.
 * An event's (src/sync/data-version.ts) is the data version and this number: the events' 304
 * without reading a row (docs/API.md, "A 304 without reading a row").
 *
 * Kept where every writer passes, by a row trigger on ticket_types that fires only when either
 * value changes: an upsert of the box office's row, found through the type's event, in the
 * writing transaction, so the new number becomes visible with the new counters. (On PostgreSQL
 * concurrent basket writes of one box office queue on that row until each commits, as its other
 * writes do on the change head.)
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const BUMP = `INSERT INTO stock_versions (box_office_id, version)
      SELECT e.box_office_id, 1 FROM events e WHERE e.id = NEW.event_id
      ON CONFLICT (box_office_id) DO UPDATE SET version = stock_versions.version + 1`;

const SQLITE_TRIGGER = `CREATE TRIGGER trg_ticket_types_stock_version
  AFTER UPDATE OF quantity_held, quantity_in_baskets ON ticket_types
  WHEN OLD.quantity_held IS NOT NEW.quantity_held
    OR OLD.quantity_in_baskets IS NOT NEW.quantity_in_baskets
  BEGIN
    ${BUMP};
  END`;

const PG_FUNCTION = `CREATE FUNCTION ticket_types_stock_version() RETURNS trigger
  LANGUAGE plpgsql AS $$
  BEGIN
    ${BUMP};
    RETURN NULL;
  END $$`;

const PG_TRIGGER = `CREATE TRIGGER trg_ticket_types_stock_version
  AFTER UPDATE OF quantity_held, quantity_in_baskets ON ticket_types
  FOR EACH ROW
  WHEN (OLD.quantity_held IS DISTINCT FROM NEW.quantity_held
    OR OLD.quantity_in_baskets IS DISTINCT FROM NEW.quantity_in_baskets)
  EXECUTE FUNCTION ticket_types_stock_version()`;

export class StockVersion1765600000000 implements MigrationInterface {
  name = 'StockVersion1765600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'stock_versions',
        columns: [
          { name: 'box_office_id', type: 'integer', isPrimary: true },
          { name: 'version', type: 'bigint', default: 0 },
        ],
      }),
    );
    if (isPostgres(queryRunner)) {
      await queryRunner.query(PG_FUNCTION);
      await queryRunner.query(PG_TRIGGER);
    } else {
      await queryRunner.query(SQLITE_TRIGGER);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP TRIGGER IF EXISTS trg_ticket_types_stock_version' +
        (isPostgres(queryRunner) ? ' ON ticket_types' : ''),
    );
    if (isPostgres(queryRunner)) {
      await queryRunner.query(
        'DROP FUNCTION IF EXISTS ticket_types_stock_version()',
      );
    }
    await queryRunner.dropTable('stock_versions');
  }
}

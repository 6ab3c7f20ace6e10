import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/**
 * The import generation: a number that moves whenever a transaction writes in import mode
 * (src/sync/import-mode.ts). A box office's data version (src/sync/data-version.ts) is its change
 * head and this number: every write outside import mode makes a change entry, and a write in
 * import mode makes none, so without it a reloaded box office could show different rows under the
 * same head. Kept where every writer passes, once per importing transaction:
 *
 * - SQLite: a trigger on `sync_import`, the row by which a transaction turns import mode on.
 * - PostgreSQL: `sync_importing()`, which every sync trigger asks before deciding anything, counts
 *   the generation the first time it answers yes in a transaction (a transaction-local flag).
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** What migration SyncAndChanges defined, restored by down(). */
const PG_SYNC_IMPORTING_BEFORE = `CREATE OR REPLACE FUNCTION sync_importing() RETURNS boolean LANGUAGE sql STABLE AS $$
       SELECT coalesce(current_setting('boxoffice.sync_import', true), '') = 'on' $$`;

const PG_SYNC_IMPORTING = `CREATE OR REPLACE FUNCTION sync_importing() RETURNS boolean
  LANGUAGE plpgsql VOLATILE AS $$
  BEGIN
    IF coalesce(current_setting('boxoffice.sync_import', true), '') <> 'on' THEN
      RETURN false;
    END IF;
    IF coalesce(current_setting('boxoffice.sync_import_counted', true), '') <> 'on' THEN
      UPDATE import_generation SET generation = generation + 1;
      PERFORM set_config('boxoffice.sync_import_counted', 'on', true);
    END IF;
    RETURN true;
  END $$`;

const SQLITE_TRIGGER = `CREATE TRIGGER trg_sync_import_generation AFTER INSERT ON sync_import
  BEGIN UPDATE import_generation SET generation = generation + 1; END`;

export class ImportGeneration1765400000000 implements MigrationInterface {
  name = 'ImportGeneration1765400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'import_generation',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'generation', type: 'bigint', default: 0 },
        ],
      }),
    );
    await queryRunner.query(
      'INSERT INTO import_generation (id, generation) VALUES (1, 0)',
    );
    await queryRunner.query(
      isPostgres(queryRunner) ? PG_SYNC_IMPORTING : SQLITE_TRIGGER,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      isPostgres(queryRunner)
        ? PG_SYNC_IMPORTING_BEFORE
        : 'DROP TRIGGER IF EXISTS trg_sync_import_generation',
    );
    await queryRunner.dropTable('import_generation');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A box office's main currency and time zone, given when it is created (`npm run boxoffice --
 * create`, docs/API.md, "Box offices"). Existing box offices get the defaults the demo data has
 * always had: pounds, London.
 */
/** Plain ALTER TABLE, not TypeORM's addColumns: on SQLite that rebuilds the table. */
const COLUMNS = [
  ['currency', "varchar(3) NOT NULL DEFAULT 'gbp'"],
  ['timezone', "varchar(64) NOT NULL DEFAULT 'Europe/London'"],
] as const;

export class BoxOfficeCurrencyAndZone1765300000000 implements MigrationInterface {
  name = 'BoxOfficeCurrencyAndZone1765300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of COLUMNS) {
      await queryRunner.query(
        `ALTER TABLE box_offices ADD COLUMN ${name} ${definition}`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE box_offices DROP COLUMN ${name}`);
    }
  }
}

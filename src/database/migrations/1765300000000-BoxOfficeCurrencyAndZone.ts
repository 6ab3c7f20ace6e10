import {
  type MigrationInterface,
  type QueryRunner,
  TableColumn,
} from 'typeorm';

/**
 * A box office's main currency and time zone, given when it is created (`npm run boxoffice --
 * create`, docs/API.md, "Box offices"). Existing box offices get the defaults the demo data has
 * always had: pounds, London.
 */
const COLUMNS = [
  new TableColumn({
    name: 'currency',
    type: 'varchar',
    length: '3',
    default: "'gbp'",
  }),
  new TableColumn({
    name: 'timezone',
    type: 'varchar',
    length: '64',
    default: "'Europe/London'",
  }),
];

export class BoxOfficeCurrencyAndZone1765300000000 implements MigrationInterface {
  name = 'BoxOfficeCurrencyAndZone1765300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('box_offices', COLUMNS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns(
      'box_offices',
      COLUMNS.map((column) => column.name),
    );
  }
}

import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  type TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * What a box office sells and gives beside tickets, as Ticket Tailor's connectors read it
 * (docs/API.md, "Products", "Vouchers", "Discounts" and "Waitlist signups"):
 *
 * - `products` (add-ons sold as `product` line items), linked to event series through
 *   `product_event_series` (none: sold with every series);
 * - `vouchers`, batches of codes of one value (`voucher_codes`), usable on the series of
 *   `voucher_event_series` (none: on any event);
 * - `discounts`, limited to the ticket types of `discount_ticket_types` (none: all) and taking off
 *   the products of `discount_products`;
 * - `waitlist_signups` of an event series, for one of its dates or any;
 * - the view `event_series_vouchers`: the vouchers usable on each series (those naming it, and the
 *   box office's that name none), which a series' `voucher_ids` lists.
 *
 * Kept where every writer passes, by triggers of this migration:
 * - a product's `updated_at` moves to the database clock when anything its JSON shows changes
 *   (its own columns, its series links), never backwards; in import mode (src/sync/import-mode.ts)
 *   times are kept as written;
 * - `catalogue_versions`: a number per box office that every write to these tables moves (and a
 *   change of the box office's time zone, in which product dates are shown). None of them makes a
 *   change entry, so the data version alone cannot vouch for their bodies: with this number it can
 *   (src/sync/data-version.ts, docs/API.md "A 304 without reading a row").
 *
 * Counters derived from orders (units sold, value spent, times used) come with their triggers in
 * migration ConnectorCounters. Tables go through TypeORM's schema API; triggers are written per
 * database (on PostgreSQL one statement-level trigger per operation, so that a bulk load moves a
 * box office's number once per statement rather than once per row).
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const int = (
  name: string,
  extra: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({ name, type: 'integer', ...extra });
const unix = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'bigint',
  isNullable,
});
const text = (
  name: string,
  length: number,
  isNullable = false,
): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const fk = (columnName: string, table: string, onDelete: string) =>
  new TableForeignKey({
    columnNames: [columnName],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete,
  });
const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

/** A link between two rows: its own id, and each side's, unique together. */
function linkTable(
  name: string,
  [owner, ownerTable]: [string, string],
  [other, otherTable]: [string, string],
  indexStem: string,
): Table {
  return new Table({
    name,
    columns: [id, int(owner), int(other)],
    foreignKeys: [
      fk(owner, ownerTable, 'CASCADE'),
      fk(other, otherTable, 'CASCADE'),
    ],
    indices: [
      // The owner's array, read in the other side's id order.
      index(
        `IDX_${indexStem}_${owner.replace(/_id$/, '')}`,
        [owner, other],
        true,
      ),
      // The cascade from the other side, and the reverse lookup.
      index(`IDX_${indexStem}_${other.replace(/_id$/, '')}`, [other, owner]),
    ],
  });
}

function tables(queryRunner: QueryRunner): Table[] {
  const flag = (name: string): TableColumnOptions => ({
    name,
    type: 'boolean',
    default: isPostgres(queryRunner) ? 'false' : '0',
  });
  return [
    new Table({
      name: 'products',
      columns: [
        id,
        int('box_office_id'),
        text('name', 200),
        { name: 'description', type: 'text', isNullable: true },
        int('price'),
        text('currency', 3),
        text('status', 16),
        text('fulfilment_type', 24),
        unix('created_at'),
        unix('updated_at'),
      ],
      foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
      indices: [
        index('IDX_products_list', ['box_office_id', 'created_at', 'id']),
        index('IDX_products_status', [
          'box_office_id',
          'status',
          'created_at',
          'id',
        ]),
      ],
    }),
    linkTable(
      'product_event_series',
      ['product_id', 'products'],
      ['event_series_id', 'event_series'],
      'product_event_series',
    ),
    new Table({
      name: 'vouchers',
      columns: [
        id,
        int('box_office_id'),
        text('name', 200),
        text('type', 16),
        int('value'),
        text('currency', 3),
        unix('expires_at', true),
        flag('partial_redemption'),
        unix('created_at'),
      ],
      foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
      indices: [
        index('IDX_vouchers_list', ['box_office_id', 'created_at', 'id']),
      ],
    }),
    linkTable(
      'voucher_event_series',
      ['voucher_id', 'vouchers'],
      ['event_series_id', 'event_series'],
      'voucher_event_series',
    ),
    new Table({
      name: 'voucher_codes',
      columns: [
        id,
        int('box_office_id'),
        int('voucher_id'),
        text('code', 64),
        unix('created_at'),
      ],
      foreignKeys: [
        fk('box_office_id', 'box_offices', 'CASCADE'),
        fk('voucher_id', 'vouchers', 'CASCADE'),
      ],
      indices: [
        // A voucher's codes, newest first (the nested list).
        index('IDX_voucher_codes_list', [
          'box_office_id',
          'voucher_id',
          'created_at',
          'id',
        ]),
        // What a buyer types names one code of the box office.
        index('IDX_voucher_codes_code', ['box_office_id', 'code'], true),
        // The cascade from a deleted voucher.
        index('IDX_voucher_codes_voucher', ['voucher_id']),
      ],
    }),
    new Table({
      name: 'discounts',
      columns: [
        id,
        int('box_office_id'),
        text('name', 200),
        text('code', 64),
        text('type', 16),
        int('face_value_amount'),
        int('booking_fee_amount'),
        unix('created_at'),
      ],
      foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
      indices: [
        index('IDX_discounts_list', ['box_office_id', 'created_at', 'id']),
        index('IDX_discounts_code', ['box_office_id', 'code'], true),
      ],
    }),
    linkTable(
      'discount_ticket_types',
      ['discount_id', 'discounts'],
      ['ticket_type_id', 'ticket_types'],
      'discount_ticket_types',
    ),
    linkTable(
      'discount_products',
      ['discount_id', 'discounts'],
      ['product_id', 'products'],
      'discount_products',
    ),
    new Table({
      name: 'waitlist_signups',
      columns: [
        id,
        int('box_office_id'),
        int('event_series_id'),
        int('event_id', { isNullable: true }),
        text('email', 320),
        unix('created_at'),
      ],
      foreignKeys: [
        fk('box_office_id', 'box_offices', 'CASCADE'),
        fk('event_series_id', 'event_series', 'CASCADE'),
        // A date that goes leaves a signup for any date of the series.
        fk('event_id', 'events', 'SET NULL'),
      ],
      indices: [
        // A series' signups, newest first (the nested list).
        index('IDX_waitlist_signups_list', [
          'box_office_id',
          'event_series_id',
          'created_at',
          'id',
        ]),
        index('IDX_waitlist_signups_event', ['event_id']),
      ],
    }),
    new Table({
      name: 'catalogue_versions',
      columns: [
        { name: 'box_office_id', type: 'integer', isPrimary: true },
        { name: 'version', type: 'bigint', default: 0 },
      ],
    }),
  ];
}

/**
 * The vouchers usable on each series: those that name it, and those of its box office that name
 * no series (usable on any event).
 */
const EVENT_SERIES_VOUCHERS = `CREATE VIEW event_series_vouchers AS
  SELECT s.id AS event_series_id, v.id AS voucher_id
    FROM event_series s JOIN vouchers v ON v.box_office_id = s.box_office_id
   WHERE NOT EXISTS (SELECT 1 FROM voucher_event_series x WHERE x.voucher_id = v.id)
  UNION ALL
  SELECT l.event_series_id, l.voucher_id FROM voucher_event_series l`;

/**
 * A table whose writes move its box office's catalogue version: where a row names its box office
 * (`office`, over a row alias), and the columns a write must change to count.
 */
interface Catalogued {
  table: string;
  office: (row: string) => string;
  own: string[];
}

const through = (parent: string, column: string) => (row: string) =>
  `(SELECT p.box_office_id FROM ${parent} p WHERE p.id = ${row}.${column})`;
const ownColumn = (row: string) => `${row}.box_office_id`;

const CATALOGUED: Catalogued[] = [
  {
    table: 'products',
    office: ownColumn,
    own: [
      'box_office_id',
      'name',
      'description',
      'price',
      'currency',
      'status',
      'fulfilment_type',
      'created_at',
      'updated_at',
    ],
  },
  {
    table: 'product_event_series',
    office: through('products', 'product_id'),
    own: ['product_id', 'event_series_id'],
  },
  {
    table: 'vouchers',
    office: ownColumn,
    own: [
      'box_office_id',
      'name',
      'type',
      'value',
      'currency',
      'expires_at',
      'partial_redemption',
      'created_at',
    ],
  },
  {
    table: 'voucher_event_series',
    office: through('vouchers', 'voucher_id'),
    own: ['voucher_id', 'event_series_id'],
  },
  {
    table: 'voucher_codes',
    office: ownColumn,
    own: ['box_office_id', 'voucher_id', 'code', 'created_at'],
  },
  {
    table: 'discounts',
    office: ownColumn,
    own: [
      'box_office_id',
      'name',
      'code',
      'type',
      'face_value_amount',
      'booking_fee_amount',
      'created_at',
    ],
  },
  {
    table: 'discount_ticket_types',
    office: through('discounts', 'discount_id'),
    own: ['discount_id', 'ticket_type_id'],
  },
  {
    table: 'discount_products',
    office: through('discounts', 'discount_id'),
    own: ['discount_id', 'product_id'],
  },
  {
    table: 'waitlist_signups',
    office: ownColumn,
    own: [
      'box_office_id',
      'event_series_id',
      'event_id',
      'email',
      'created_at',
    ],
  },
];

/** The product columns its JSON shows, besides its series links and its times. */
const PRODUCT_OWN = [
  'box_office_id',
  'name',
  'description',
  'price',
  'currency',
  'status',
  'fulfilment_type',
  'created_at',
];

const changed = (columns: string[], distinct: string) =>
  `(${columns.map((c) => `NEW.${c} ${distinct} OLD.${c}`).join(' OR ')})`;

// ---------------------------------------------------------------------------------------------
// SQLite: row triggers. A statement that applies only sometimes says so in its WHERE.
// ---------------------------------------------------------------------------------------------

const SQLITE_WRITING = 'NOT EXISTS (SELECT 1 FROM sync_import)';

const sqliteBump = (office: string, guard = 'true') =>
  `INSERT INTO catalogue_versions (box_office_id, version)
     SELECT ${office}, 1 WHERE ${office} IS NOT NULL AND ${guard}
     ON CONFLICT (box_office_id) DO UPDATE SET version = version + 1;`;

/** A product moved to the clock (never backwards), unless in import mode. */
const sqliteTouchProduct = (product: string) =>
  `UPDATE products SET updated_at = unixepoch()
    WHERE id = ${product} AND updated_at < unixepoch() AND ${SQLITE_WRITING};`;

function sqliteTriggers(): [name: string, sql: string][] {
  const triggers: [string, string][] = [];
  for (const { table, office, own } of CATALOGUED) {
    triggers.push(
      [
        `trg_${table}_catalogue_insert`,
        `CREATE TRIGGER trg_${table}_catalogue_insert AFTER INSERT ON ${table}
         BEGIN ${sqliteBump(office('NEW'))} END`,
      ],
      [
        `trg_${table}_catalogue_update`,
        `CREATE TRIGGER trg_${table}_catalogue_update AFTER UPDATE ON ${table}
         WHEN ${changed(own, 'IS NOT')} BEGIN
           ${sqliteBump(office('NEW'))}
           ${sqliteBump(office('OLD'), `${office('OLD')} IS NOT ${office('NEW')}`)}
         END`,
      ],
      [
        `trg_${table}_catalogue_delete`,
        `CREATE TRIGGER trg_${table}_catalogue_delete AFTER DELETE ON ${table}
         BEGIN ${sqliteBump(office('OLD'))} END`,
      ],
    );
  }
  triggers.push(
    [
      'trg_box_offices_catalogue_update',
      `CREATE TRIGGER trg_box_offices_catalogue_update AFTER UPDATE OF timezone ON box_offices
       WHEN NEW.timezone IS NOT OLD.timezone BEGIN ${sqliteBump('NEW.id')} END`,
    ],
    // Written by someone, or left alone: never backwards, never below the clock (the inner UPDATE
    // writes updated_at alone, which this trigger does not watch).
    [
      'trg_products_updated_at',
      `CREATE TRIGGER trg_products_updated_at AFTER UPDATE ON products
       WHEN ${changed(PRODUCT_OWN, 'IS NOT')} AND ${SQLITE_WRITING}
        AND NEW.updated_at < max(OLD.updated_at, NEW.created_at, unixepoch()) BEGIN
         UPDATE products SET updated_at = max(OLD.updated_at, NEW.created_at, unixepoch())
          WHERE id = NEW.id;
       END`,
    ],
    [
      'trg_product_event_series_updated_at_insert',
      `CREATE TRIGGER trg_product_event_series_updated_at_insert
       AFTER INSERT ON product_event_series
       BEGIN ${sqliteTouchProduct('NEW.product_id')} END`,
    ],
    [
      'trg_product_event_series_updated_at_update',
      `CREATE TRIGGER trg_product_event_series_updated_at_update
       AFTER UPDATE ON product_event_series
       WHEN NEW.product_id IS NOT OLD.product_id OR NEW.event_series_id IS NOT OLD.event_series_id
       BEGIN ${sqliteTouchProduct('OLD.product_id')} ${sqliteTouchProduct('NEW.product_id')} END`,
    ],
    [
      'trg_product_event_series_updated_at_delete',
      `CREATE TRIGGER trg_product_event_series_updated_at_delete
       AFTER DELETE ON product_event_series
       BEGIN ${sqliteTouchProduct('OLD.product_id')} END`,
    ],
  );
  return triggers;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: statement-level triggers over the transition tables.
// ---------------------------------------------------------------------------------------------

/** Whether the transaction writes in import mode (src/sync/import-mode.ts), read as it is set. */
const PG_IMPORTING = `coalesce(current_setting('boxoffice.sync_import', true), '') = 'on'`;
/** The transaction's time, in Unix seconds: no later than any row it writes. */
const PG_NOW = 'floor(extract(epoch FROM now()))::bigint';

/** Moves the catalogue version of each box office `offices` (a SELECT of `office`) yields. */
const pgBump = (offices: string) =>
  `INSERT INTO catalogue_versions AS v (box_office_id, version)
     SELECT DISTINCT office, 1 FROM (${offices}) o WHERE office IS NOT NULL
     ON CONFLICT (box_office_id) DO UPDATE SET version = v.version + 1;`;

function pgCatalogueFunction({ table, office, own }: Catalogued): string {
  const differs = `(${own.map((c) => `n.${c}`).join(', ')}) IS DISTINCT FROM (${own.map((c) => `o.${c}`).join(', ')})`;
  return `CREATE FUNCTION ${table}_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${pgBump(`SELECT ${office('n')} AS office FROM new_rows n`)}
      ELSIF TG_OP = 'DELETE' THEN
        ${pgBump(`SELECT ${office('o')} AS office FROM old_rows o`)}
      ELSE
        ${pgBump(
          `SELECT ${office('n')} AS office FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE ${differs}
           UNION SELECT ${office('o')} FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE ${differs}`,
        )}
      END IF;
      RETURN NULL;
    END $$`;
}

const pgStatementTriggers = (table: string, stem: string, fn: string) => [
  `CREATE TRIGGER trg_${table}_${stem}_insert AFTER INSERT ON ${table}
   REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  `CREATE TRIGGER trg_${table}_${stem}_update AFTER UPDATE ON ${table}
   REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
   FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  `CREATE TRIGGER trg_${table}_${stem}_delete AFTER DELETE ON ${table}
   REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
];

/** The products a statement on product_event_series touched, moved to the clock. */
const pgTouchProducts = (rows: string) =>
  `UPDATE products p SET updated_at = ${PG_NOW}
     FROM (${rows}) r WHERE p.id = r.product_id AND p.updated_at < ${PG_NOW};`;

function postgresStatements(): string[] {
  const statements: string[] = [];
  for (const catalogued of CATALOGUED) {
    statements.push(
      pgCatalogueFunction(catalogued),
      ...pgStatementTriggers(
        catalogued.table,
        'catalogue',
        `${catalogued.table}_catalogue_version`,
      ),
    );
  }
  statements.push(
    `CREATE FUNCTION box_offices_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       ${pgBump('SELECT NEW.id AS office')}
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER trg_box_offices_catalogue_update AFTER UPDATE OF timezone ON box_offices
     FOR EACH ROW WHEN (NEW.timezone IS DISTINCT FROM OLD.timezone)
     EXECUTE FUNCTION box_offices_catalogue_version()`,
    // Written by someone, or left alone: never backwards, never below the clock.
    `CREATE FUNCTION products_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NOT ${PG_IMPORTING} THEN
         NEW.updated_at := greatest(NEW.updated_at, OLD.updated_at, NEW.created_at, ${PG_NOW});
       END IF;
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER trg_products_updated_at BEFORE UPDATE ON products
     FOR EACH ROW WHEN ${changed(PRODUCT_OWN, 'IS DISTINCT FROM')}
     EXECUTE FUNCTION products_updated_at()`,
    `CREATE FUNCTION product_event_series_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF ${PG_IMPORTING} THEN RETURN NULL; END IF;
       IF TG_OP = 'INSERT' THEN
         ${pgTouchProducts('SELECT DISTINCT product_id FROM new_rows')}
       ELSIF TG_OP = 'DELETE' THEN
         ${pgTouchProducts('SELECT DISTINCT product_id FROM old_rows')}
       ELSE
         ${pgTouchProducts(
           `SELECT n.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.product_id, n.event_series_id) IS DISTINCT FROM (o.product_id, o.event_series_id)
            UNION SELECT o.product_id FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.product_id, n.event_series_id) IS DISTINCT FROM (o.product_id, o.event_series_id)`,
         )}
       END IF;
       RETURN NULL;
     END $$`,
    ...pgStatementTriggers(
      'product_event_series',
      'updated_at',
      'product_event_series_updated_at',
    ),
  );
  return statements;
}

function postgresDrops(): string[] {
  const functions = [
    ...CATALOGUED.map(({ table }) => `${table}_catalogue_version`),
    'product_event_series_updated_at',
    'products_updated_at',
    'box_offices_catalogue_version',
  ];
  return [
    'DROP TRIGGER IF EXISTS trg_box_offices_catalogue_update ON box_offices',
    ...functions.map((fn) => `DROP FUNCTION IF EXISTS ${fn}() CASCADE`),
  ];
}

export class ConnectorCatalogue1766100000000 implements MigrationInterface {
  name = 'ConnectorCatalogue1766100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of tables(queryRunner)) {
      await queryRunner.createTable(table);
    }
    await queryRunner.query(EVENT_SERIES_VOUCHERS);
    const statements = isPostgres(queryRunner)
      ? postgresStatements()
      : sqliteTriggers().map(([, sql]) => sql);
    for (const statement of statements) await queryRunner.query(statement);
    for (const table of tables(queryRunner)) {
      await queryRunner.query(`ANALYZE ${table.name}`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      for (const statement of postgresDrops()) {
        await queryRunner.query(statement);
      }
    } else {
      for (const [name] of sqliteTriggers()) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
      }
    }
    await queryRunner.query('DROP VIEW event_series_vouchers');
    for (const table of tables(queryRunner).reverse()) {
      await queryRunner.dropTable(table.name);
    }
  }
}

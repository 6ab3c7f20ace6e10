import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The numbers products, vouchers and discounts show that are derived from orders (docs/DESIGN.md,
 * "Derived numbers are kept, not counted"), kept equal to what the rows say by triggers, whoever
 * writes, as the events' counters are (migrations EventsAndTicketTypes and NetCounterUpdates):
 *
 * - `products.quantity_sold`: Σ `quantity` of the `product` lines naming it in `completed` orders;
 * - `voucher_codes.spent`: Σ −`total` of the `gift_card` lines naming it in `completed` orders
 *   (its value left is the voucher's value less this, never below 0);
 * - `vouchers.total_codes` and `vouchers.codes_with_value`: its codes, and those with value left
 *   (`spent` < the voucher's `value`); expiry is applied when it is read, against the clock;
 * - `discounts.times_used`: the `gift_card` lines naming it (and no code) in `completed` orders,
 *   which is the number of such orders (a discount applies to an order once: migration
 *   LineItemSubjects).
 *
 * A line counts while its order is `completed`: lines added, changed or removed move the counters
 * by their share, an order whose status enters or leaves `completed` moves them by all its lines',
 * and an order deleted takes its lines' shares away before its lines go (its lines' own delete
 * triggers then find no order). On PostgreSQL the line items' triggers run once per statement and
 * write each counter once by its net change (a seed or an import inserts lines by the thousand in
 * one transaction: see NetCounterUpdates); an order's run per row, only when its status changes.
 * Existing rows are counted when the migration runs.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const COLUMNS = [
  ['products', 'quantity_sold'],
  ['vouchers', 'total_codes'],
  ['vouchers', 'codes_with_value'],
  ['voucher_codes', 'spent'],
  ['discounts', 'times_used'],
] as const;

/** What a line of a `completed` order adds to each counter, over the line's alias. */
const isProductLine = (row: string) =>
  `${row}.type = 'product' AND ${row}.product_id IS NOT NULL`;
const isCodeLine = (row: string) =>
  `${row}.type = 'gift_card' AND ${row}.voucher_code_id IS NOT NULL`;
const isDiscountLine = (row: string) =>
  `${row}.type = 'gift_card' AND ${row}.voucher_code_id IS NULL AND ${row}.discount_id IS NOT NULL`;

/** Counted from the rows: what the triggers then keep. */
const FILL = [
  `UPDATE products SET quantity_sold = coalesce((SELECT sum(li.quantity)
     FROM line_items li JOIN orders o ON o.id = li.order_id
    WHERE li.product_id = products.id AND ${isProductLine('li')} AND o.status = 'completed'), 0)`,
  `UPDATE voucher_codes SET spent = coalesce((SELECT sum(-li.total)
     FROM line_items li JOIN orders o ON o.id = li.order_id
    WHERE li.voucher_code_id = voucher_codes.id AND ${isCodeLine('li')} AND o.status = 'completed'), 0)`,
  `UPDATE discounts SET times_used = (SELECT count(*)
     FROM line_items li JOIN orders o ON o.id = li.order_id
    WHERE li.discount_id = discounts.id AND ${isDiscountLine('li')} AND o.status = 'completed')`,
  `UPDATE vouchers SET
     total_codes = (SELECT count(*) FROM voucher_codes c WHERE c.voucher_id = vouchers.id),
     codes_with_value = (SELECT count(*) FROM voucher_codes c
                          WHERE c.voucher_id = vouchers.id AND c.spent < vouchers.value)`,
];

/** The line's order counts: it is `completed` (none when it is being deleted). */
const orderCompleted = (row: string) =>
  `(SELECT o.status FROM orders o WHERE o.id = ${row}.order_id) = 'completed'`;

// ---------------------------------------------------------------------------------------------
// SQLite: row triggers, each run only when a watched value changes.
// ---------------------------------------------------------------------------------------------

/** A line's shares, added (`+`) or taken away (`-`). */
const sqliteLineShares = (row: string, sign: '+' | '-') => `
  UPDATE products SET quantity_sold = quantity_sold ${sign} ${row}.quantity
   WHERE id = ${row}.product_id AND ${isProductLine(row)} AND ${orderCompleted(row)};
  UPDATE voucher_codes SET spent = spent ${sign} (-${row}.total)
   WHERE id = ${row}.voucher_code_id AND ${isCodeLine(row)} AND ${orderCompleted(row)};
  UPDATE discounts SET times_used = times_used ${sign} 1
   WHERE id = ${row}.discount_id AND ${isDiscountLine(row)} AND ${orderCompleted(row)};`;

/** All the lines' shares of an order, times `sign` (1 or -1). */
const sqliteOrderShares = (order: string, sign: string) => `
  UPDATE products SET quantity_sold = quantity_sold + ${sign} * (SELECT sum(li.quantity)
      FROM line_items li WHERE li.order_id = ${order} AND ${isProductLine('li')} AND li.product_id = products.id)
   WHERE id IN (SELECT li.product_id FROM line_items li WHERE li.order_id = ${order} AND ${isProductLine('li')});
  UPDATE voucher_codes SET spent = spent + ${sign} * (SELECT sum(-li.total)
      FROM line_items li WHERE li.order_id = ${order} AND ${isCodeLine('li')} AND li.voucher_code_id = voucher_codes.id)
   WHERE id IN (SELECT li.voucher_code_id FROM line_items li WHERE li.order_id = ${order} AND ${isCodeLine('li')});
  UPDATE discounts SET times_used = times_used + ${sign} * (SELECT count(*)
      FROM line_items li WHERE li.order_id = ${order} AND ${isDiscountLine('li')} AND li.discount_id = discounts.id)
   WHERE id IN (SELECT li.discount_id FROM line_items li WHERE li.order_id = ${order} AND ${isDiscountLine('li')});`;

const LINE_WATCHED = [
  'type',
  'quantity',
  'total',
  'order_id',
  'product_id',
  'voucher_code_id',
  'discount_id',
];
const namesSubject = (row: string) =>
  `(${row}.product_id IS NOT NULL OR ${row}.voucher_code_id IS NOT NULL OR ${row}.discount_id IS NOT NULL)`;

/** A code's share of its voucher's counts: 1 code, and 1 with value left while spent < value. */
const sqliteCodeShare = (row: string, sign: '+' | '-') =>
  `UPDATE vouchers SET total_codes = total_codes ${sign} 1,
     codes_with_value = codes_with_value ${sign} (${row}.spent < value)
   WHERE id = ${row}.voucher_id;`;

const SQLITE_TRIGGERS: [name: string, sql: string][] = [
  [
    'trg_line_items_counters_insert',
    `CREATE TRIGGER trg_line_items_counters_insert AFTER INSERT ON line_items
     WHEN ${namesSubject('NEW')} BEGIN ${sqliteLineShares('NEW', '+')} END`,
  ],
  [
    'trg_line_items_counters_update',
    `CREATE TRIGGER trg_line_items_counters_update
     AFTER UPDATE OF ${LINE_WATCHED.join(', ')} ON line_items
     WHEN (${LINE_WATCHED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')})
      AND (${namesSubject('OLD')} OR ${namesSubject('NEW')})
     BEGIN ${sqliteLineShares('OLD', '-')} ${sqliteLineShares('NEW', '+')} END`,
  ],
  [
    'trg_line_items_counters_delete',
    `CREATE TRIGGER trg_line_items_counters_delete AFTER DELETE ON line_items
     WHEN ${namesSubject('OLD')} BEGIN ${sqliteLineShares('OLD', '-')} END`,
  ],
  [
    'trg_orders_line_counters_update',
    `CREATE TRIGGER trg_orders_line_counters_update AFTER UPDATE OF status ON orders
     WHEN (OLD.status = 'completed') <> (NEW.status = 'completed')
     BEGIN ${sqliteOrderShares('NEW.id', "CASE WHEN NEW.status = 'completed' THEN 1 ELSE -1 END")} END`,
  ],
  // Before the row goes: its lines are still there (the cascade removes them after it).
  [
    'trg_orders_line_counters_delete',
    `CREATE TRIGGER trg_orders_line_counters_delete BEFORE DELETE ON orders
     WHEN OLD.status = 'completed' BEGIN ${sqliteOrderShares('OLD.id', '-1')} END`,
  ],
  [
    'trg_voucher_codes_counters_insert',
    `CREATE TRIGGER trg_voucher_codes_counters_insert AFTER INSERT ON voucher_codes
     BEGIN ${sqliteCodeShare('NEW', '+')} END`,
  ],
  [
    'trg_voucher_codes_counters_update',
    `CREATE TRIGGER trg_voucher_codes_counters_update
     AFTER UPDATE OF spent, voucher_id ON voucher_codes
     WHEN OLD.spent IS NOT NEW.spent OR OLD.voucher_id IS NOT NEW.voucher_id
     BEGIN ${sqliteCodeShare('OLD', '-')} ${sqliteCodeShare('NEW', '+')} END`,
  ],
  [
    'trg_voucher_codes_counters_delete',
    `CREATE TRIGGER trg_voucher_codes_counters_delete AFTER DELETE ON voucher_codes
     BEGIN ${sqliteCodeShare('OLD', '-')} END`,
  ],
  [
    'trg_vouchers_counters_value',
    `CREATE TRIGGER trg_vouchers_counters_value AFTER UPDATE OF value ON vouchers
     WHEN OLD.value IS NOT NEW.value BEGIN
       UPDATE vouchers SET codes_with_value = (SELECT count(*) FROM voucher_codes c
         WHERE c.voucher_id = NEW.id AND c.spent < NEW.value) WHERE id = NEW.id;
     END`,
  ],
];

// ---------------------------------------------------------------------------------------------
// PostgreSQL: the line items' and codes' triggers once per statement, each counting row written
// once by its net change or not at all; an order's per row.
// ---------------------------------------------------------------------------------------------

/** Each line's share of one counter, from a transition table, as (id, n) rows summed by id. */
function pgLineShares(rows: string, sign: '' | '-') {
  return {
    products: `SELECT r.product_id AS id, ${sign}sum(r.quantity) AS n FROM ${rows} r
      WHERE ${isProductLine('r')} AND ${orderCompleted('r')} GROUP BY r.product_id`,
    codes: `SELECT r.voucher_code_id AS id, ${sign}sum(-r.total) AS n FROM ${rows} r
      WHERE ${isCodeLine('r')} AND ${orderCompleted('r')} GROUP BY r.voucher_code_id`,
    discounts: `SELECT r.discount_id AS id, ${sign}count(*) AS n FROM ${rows} r
      WHERE ${isDiscountLine('r')} AND ${orderCompleted('r')} GROUP BY r.discount_id`,
  };
}

/** The counters moved by the net of the shares (each list one of pgLineShares' results). */
function pgApplyLineShares(
  ...shares: ReturnType<typeof pgLineShares>[]
): string {
  const target = {
    products: ['products', 'quantity_sold'],
    codes: ['voucher_codes', 'spent'],
    discounts: ['discounts', 'times_used'],
  } as const;
  return (['products', 'codes', 'discounts'] as const)
    .map((key) => {
      const [table, column] = target[key];
      return `UPDATE ${table} c SET ${column} = c.${column} + d.n
        FROM (SELECT s.id, sum(s.n) AS n
                FROM (${shares.map((share) => share[key]).join(' UNION ALL ')}) s
               GROUP BY s.id HAVING sum(s.n) <> 0) d
       WHERE c.id = d.id;`;
    })
    .join('\n');
}

const pgFunction = (name: string, body: string, declare = '') =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
   ${declare ? `DECLARE ${declare}` : ''}
   BEGIN ${body} END $$`;

/** A code's share of its voucher's counts, from a transition table. */
const pgCodeShares = (rows: string, sign: '' | '-') =>
  `SELECT r.voucher_id AS id, ${sign}count(*) AS n,
          ${sign}count(*) FILTER (WHERE r.spent < (SELECT v.value FROM vouchers v WHERE v.id = r.voucher_id)) AS w
     FROM ${rows} r GROUP BY r.voucher_id`;
const pgApplyCodeShares = (...shares: string[]) =>
  `UPDATE vouchers c SET total_codes = c.total_codes + d.n,
          codes_with_value = c.codes_with_value + d.w
     FROM (SELECT s.id, sum(s.n) AS n, sum(s.w) AS w FROM (${shares.join(' UNION ALL ')}) s
            GROUP BY s.id HAVING sum(s.n) <> 0 OR sum(s.w) <> 0) d
    WHERE c.id = d.id;`;

/** All the lines' shares of an order (`item`), times `sign`. */
const PG_ORDER_SHARES = `
  UPDATE products c SET quantity_sold = c.quantity_sold + sign * d.n
    FROM (SELECT li.product_id AS id, sum(li.quantity) AS n FROM line_items li
           WHERE li.order_id = item AND ${isProductLine('li')} GROUP BY li.product_id) d
   WHERE c.id = d.id;
  UPDATE voucher_codes c SET spent = c.spent + sign * d.n
    FROM (SELECT li.voucher_code_id AS id, sum(-li.total) AS n FROM line_items li
           WHERE li.order_id = item AND ${isCodeLine('li')} GROUP BY li.voucher_code_id) d
   WHERE c.id = d.id;
  UPDATE discounts c SET times_used = c.times_used + sign * d.n
    FROM (SELECT li.discount_id AS id, count(*) AS n FROM line_items li
           WHERE li.order_id = item AND ${isDiscountLine('li')} GROUP BY li.discount_id) d
   WHERE c.id = d.id;`;

const pgStatementTrigger = (
  table: string,
  op: 'insert' | 'update' | 'delete',
  fn: string,
) => {
  const referencing = {
    insert: 'REFERENCING NEW TABLE AS new_rows',
    update: 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows',
    delete: 'REFERENCING OLD TABLE AS old_rows',
  }[op];
  return `CREATE TRIGGER trg_${table}_counters_${op} AFTER ${op.toUpperCase()} ON ${table}
   ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;
};

const POSTGRES_STATEMENTS = [
  pgFunction(
    'line_items_counters_on_insert',
    `${pgApplyLineShares(pgLineShares('new_rows', ''))} RETURN NULL;`,
  ),
  pgFunction(
    'line_items_counters_on_update',
    `${pgApplyLineShares(pgLineShares('old_rows', '-'), pgLineShares('new_rows', ''))} RETURN NULL;`,
  ),
  pgFunction(
    'line_items_counters_on_delete',
    `${pgApplyLineShares(pgLineShares('old_rows', '-'))} RETURN NULL;`,
  ),
  pgStatementTrigger('line_items', 'insert', 'line_items_counters_on_insert'),
  pgStatementTrigger('line_items', 'update', 'line_items_counters_on_update'),
  pgStatementTrigger('line_items', 'delete', 'line_items_counters_on_delete'),
  // Before an order goes its lines are still there (the cascade removes them after it); a
  // BEFORE DELETE trigger returns the row, or the delete would not happen.
  pgFunction(
    'orders_line_counters',
    `IF TG_OP = 'DELETE' THEN item := OLD.id; sign := -1;
     ELSE item := NEW.id; sign := CASE WHEN NEW.status = 'completed' THEN 1 ELSE -1 END;
     END IF;
     ${PG_ORDER_SHARES}
     IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
     RETURN NULL;`,
    'item integer; sign integer;',
  ),
  `CREATE TRIGGER trg_orders_line_counters_update AFTER UPDATE OF status ON orders
   FOR EACH ROW WHEN ((OLD.status = 'completed') IS DISTINCT FROM (NEW.status = 'completed'))
   EXECUTE FUNCTION orders_line_counters()`,
  `CREATE TRIGGER trg_orders_line_counters_delete BEFORE DELETE ON orders
   FOR EACH ROW WHEN (OLD.status = 'completed') EXECUTE FUNCTION orders_line_counters()`,
  pgFunction(
    'voucher_codes_counters_on_insert',
    `${pgApplyCodeShares(pgCodeShares('new_rows', ''))} RETURN NULL;`,
  ),
  pgFunction(
    'voucher_codes_counters_on_update',
    `${pgApplyCodeShares(pgCodeShares('old_rows', '-'), pgCodeShares('new_rows', ''))} RETURN NULL;`,
  ),
  pgFunction(
    'voucher_codes_counters_on_delete',
    `${pgApplyCodeShares(pgCodeShares('old_rows', '-'))} RETURN NULL;`,
  ),
  pgStatementTrigger(
    'voucher_codes',
    'insert',
    'voucher_codes_counters_on_insert',
  ),
  pgStatementTrigger(
    'voucher_codes',
    'update',
    'voucher_codes_counters_on_update',
  ),
  pgStatementTrigger(
    'voucher_codes',
    'delete',
    'voucher_codes_counters_on_delete',
  ),
  pgFunction(
    'vouchers_counters_value',
    `NEW.codes_with_value := (SELECT count(*) FROM voucher_codes c
       WHERE c.voucher_id = NEW.id AND c.spent < NEW.value);
     RETURN NEW;`,
  ),
  `CREATE TRIGGER trg_vouchers_counters_value BEFORE UPDATE OF value ON vouchers
   FOR EACH ROW WHEN (OLD.value IS DISTINCT FROM NEW.value)
   EXECUTE FUNCTION vouchers_counters_value()`,
];

const POSTGRES_DROPS = [
  'DROP TRIGGER trg_orders_line_counters_update ON orders',
  'DROP TRIGGER trg_orders_line_counters_delete ON orders',
  'DROP FUNCTION orders_line_counters()',
  ...['insert', 'update', 'delete'].flatMap((op) => [
    `DROP TRIGGER trg_line_items_counters_${op} ON line_items`,
    `DROP FUNCTION line_items_counters_on_${op}()`,
    `DROP TRIGGER trg_voucher_codes_counters_${op} ON voucher_codes`,
    `DROP FUNCTION voucher_codes_counters_on_${op}()`,
  ]),
  'DROP TRIGGER trg_vouchers_counters_value ON vouchers',
  'DROP FUNCTION vouchers_counters_value()',
];

export class ConnectorCounters1766120000000 implements MigrationInterface {
  name = 'ConnectorCounters1766120000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of COLUMNS) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN ${column} integer NOT NULL DEFAULT 0`,
      );
    }
    // Counted before the triggers exist, which would count the fill again.
    for (const statement of FILL) await queryRunner.query(statement);
    const statements = isPostgres(queryRunner)
      ? POSTGRES_STATEMENTS
      : SQLITE_TRIGGERS.map(([, sql]) => sql);
    for (const statement of statements) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const drops = isPostgres(queryRunner)
      ? POSTGRES_DROPS
      : SQLITE_TRIGGERS.map(([name]) => `DROP TRIGGER ${name}`);
    for (const statement of drops) await queryRunner.query(statement);
    for (const [table, column] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    }
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { searchFillOf } from './seed-writers';

// The seeder drops SQLite's search insert triggers for a bulk load and fills each table in one
// pass instead (seeds/seed-writers.ts): the fill must write what the trigger would have.
const schema = readFileSync(
  join(__dirname, '..', 'src', 'database', 'schema', 'sqlite.sql'),
  'utf8',
);
const triggerSql = (name: string) => {
  const match = new RegExp(`^CREATE TRIGGER ${name} [\\s\\S]*?END;$`, 'm').exec(
    schema,
  );
  if (match === null) throw new Error(`no trigger ${name} in the schema`);
  return match[0].slice(0, -1);
};

describe('searchFillOf', () => {
  it.each([
    ['trg_issued_tickets_search_insert', 'issued_ticket_search', 't.id'],
    [
      'trg_issued_tickets_search_by_event_insert',
      'issued_ticket_search_by_event',
      't.event_id * 2147483648 + t.id',
    ],
  ])(
    'fills %s’s table with its own row of every ticket, in key order',
    (name, table, key) => {
      const fill = searchFillOf(triggerSql(name));
      expect(fill.table).toBe(table);
      expect(fill.fill).toBe(
        `INSERT INTO ${table} (rowid, name, email, barcode) SELECT ${key}, search_fold(coalesce(t.full_name, '')), search_fold(coalesce((SELECT o.buyer_email FROM orders o WHERE o.id = t.order_id), '')), search_fold(t.barcode) FROM issued_tickets t ORDER BY 1`,
      );
    },
  );

  it('writes the rows the trigger writes', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE orders (id integer PRIMARY KEY, buyer_email text);
      CREATE TABLE issued_tickets (id integer PRIMARY KEY, event_id integer, order_id integer,
        full_name text, barcode text);
      CREATE TABLE by_trigger (rowid_ integer, name text, email text, barcode text);
      CREATE TABLE by_fill (rowid_ integer, name text, email text, barcode text);`);
    db.function('search_fold', (text: string) => text.toLowerCase());
    const trigger = (table: string) =>
      `CREATE TRIGGER copy AFTER INSERT ON issued_tickets
        BEGIN INSERT INTO ${table} (rowid_, name, email, barcode) VALUES (NEW.event_id * 10 + NEW.id, search_fold(coalesce(NEW.full_name, '')), search_fold(coalesce((SELECT o.buyer_email FROM orders o WHERE o.id = NEW.order_id), '')), search_fold(NEW.barcode)); END`;
    db.exec(trigger('by_trigger'));
    db.exec(`INSERT INTO orders VALUES (1, 'Ana@Example.com');
      INSERT INTO issued_tickets VALUES (1, 2, 1, 'Ana Lee', 'AB12'), (2, 1, NULL, NULL, 'CD34'),
        (3, 1, 1, 'Bo', 'EF56');`);
    db.exec(searchFillOf(trigger('by_fill')).fill);
    const rows = (table: string) =>
      db.prepare(`SELECT * FROM ${table} ORDER BY rowid_`).all();
    expect(rows('by_fill')).toEqual(rows('by_trigger'));
    expect(rows('by_fill')).toHaveLength(3);
  });

  it('refuses a trigger of another shape rather than guess its fill', () => {
    expect(() =>
      searchFillOf(
        'CREATE TRIGGER t AFTER INSERT ON issued_tickets BEGIN DELETE FROM x; END',
      ),
    ).toThrow(/not a search insert trigger/);
  });
});

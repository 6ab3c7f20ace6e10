import { AsyncLocalStorage } from 'node:async_hooks';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A statement a migration sent, as the database received it. */
export interface SentStatement {
  sql: string;
  parameters?: readonly unknown[];
}

/** What one migration sent: up when applied, down when reverted. */
export interface MigrationStatements {
  up: SentStatement[];
  down: SentStatement[];
}

type MigrationClass = new () => MigrationInterface;

/** Set while TypeORM reads the catalog for a migration (getTable, hasColumn, loadTables, …). */
const readingCatalog = new AsyncLocalStorage<true>();

/**
 * TypeORM's query runner methods that only read the catalog. What they send is TypeORM's way of
 * describing a table, not the migration's work (a TypeORM upgrade may change it), so it is left
 * out; everything else is kept: the migration's own queries, and the DDL TypeORM's schema API
 * (createTable, addColumns, dropIndex, …) sends for it.
 */
const readsCatalog = (method: string) => /^(get|has|load)[A-Z]/.test(method);

/**
 * `runner` as a migration sees it, appending each statement sent through it to `into`. Methods
 * are called with the proxy as `this`, so the statements TypeORM's schema API sends from inside
 * (`this.query`) pass through it too.
 */
export function recordingRunner(
  runner: QueryRunner,
  into: SentStatement[],
): QueryRunner {
  return new Proxy(runner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'query') {
        return function (this: QueryRunner, ...args: unknown[]) {
          if (!readingCatalog.getStore()) {
            const [sql, parameters] = args as [string, unknown[] | undefined];
            into.push(parameters?.length ? { sql, parameters } : { sql });
          }
          return method.apply(this, args);
        };
      }
      if (typeof property === 'string' && readsCatalog(property)) {
        return function (this: QueryRunner, ...args: unknown[]) {
          return readingCatalog.run(true, () => method.apply(this, args));
        };
      }
      return method;
    },
  });
}

/**
 * The migrations as DataSource options take them, each recording what it sends into `record`
 * (keyed by the migration's name) whenever it is applied or reverted, by whatever runs it: the
 * service's runMigrations, TypeORM's undoLastMigration.
 */
export function recordingMigrations(
  migrations: readonly MigrationClass[],
  record: Map<string, MigrationStatements>,
): MigrationClass[] {
  const entry = (name: string) => {
    let statements = record.get(name);
    if (!statements) {
      statements = { up: [], down: [] };
      record.set(name, statements);
    }
    return statements;
  };
  return migrations.map(
    (Migration) =>
      class extends Migration {
        override async up(queryRunner: QueryRunner): Promise<void> {
          await super.up(recordingRunner(queryRunner, entry(this.name!).up));
        }

        override async down(queryRunner: QueryRunner): Promise<void> {
          await super.down(
            recordingRunner(queryRunner, entry(this.name!).down),
          );
        }
      },
  );
}

/** `1765000000000-EventSeries` for `EventSeries1765000000000`: the migration's file name. */
export function migrationFileStem(name: string): string {
  const match = /^(.*?)(\d{13})$/.exec(name);
  if (!match) throw new Error(`${name} does not end in a 13-digit timestamp`);
  return `${match[2]}-${match[1]}`;
}

const DATABASE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** `ALTER TABLE "t" DROP CONSTRAINT "FK_…"`: one of the foreign keys TypeORM's dropTable drops. */
const DROP_FOREIGN_KEY =
  /^ALTER TABLE ("[^"]+") DROP CONSTRAINT "FK_[0-9a-f]+"$/;

/**
 * `list` with each run of foreign-key drops of one table in the order of their text. TypeORM's
 * dropTable drops a table's foreign keys in the order its catalog read returns them, which
 * PostgreSQL does not fix (it differs between two servers with the same schema); the drops are
 * the same statements whatever their order, and the table's DROP follows them.
 */
function foreignKeyDropsSorted(list: SentStatement[]): SentStatement[] {
  const out: SentStatement[] = [];
  for (const statement of list) {
    const table = DROP_FOREIGN_KEY.exec(statement.sql)?.[1];
    let at = out.length;
    while (
      table !== undefined &&
      at > 0 &&
      DROP_FOREIGN_KEY.exec(out[at - 1].sql)?.[1] === table &&
      out[at - 1].sql > statement.sql
    ) {
      at -= 1;
    }
    out.splice(at, 0, statement);
  }
  return out;
}

/**
 * The text of a migration's statements file: its up statements in the order sent, then its down
 * statements, each as sent (a table's foreign-key drops in the order of their text), ended by `;`
 * and a blank line (parameters, when there are any, in a comment after it).
 */
export function renderMigrationStatements(
  name: string,
  database: keyof typeof DATABASE_NAMES,
  statements: MigrationStatements,
): string {
  const block = (title: string, list: SentStatement[]) =>
    `-- ${title}: ${list.length} statement${list.length === 1 ? '' : 's'}\n\n` +
    list
      .map(
        ({ sql, parameters }) =>
          `${sql};\n${parameters ? `-- parameters: ${JSON.stringify(parameters)}\n` : ''}\n`,
      )
      .join('');
  return (
    `-- Generated by test/database-schema.e2e-spec.ts (npm run schema:update). Do not edit.\n` +
    `-- What migration ${name} sends on ${DATABASE_NAMES[database]}, byte for byte:\n` +
    `-- up as the chain is applied to an empty database, down as it is reverted from the latest.\n` +
    `-- A shipped migration never changes, and neither does this file.\n\n` +
    block('up', foreignKeyDropsSorted(statements.up)) +
    block('down', foreignKeyDropsSorted(statements.down))
  );
}

import Database from 'better-sqlite3';
import { Client } from 'pg';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { SEARCH_FOLD_FUNCTION } from '../../src/database/search-fold';

/**
 * A plain connection to the database DATABASE_URL names, as a sales system would hold one: the
 * driver itself, no ORM, no service code. Statements are written with `sql` below, so that one
 * text runs on both databases.
 */
export interface Connection {
  readonly type: 'sqlite' | 'postgres';
  query<T = Record<string, unknown>>(statement: Sql): Promise<T[]>;
  /** Starts a write transaction (on SQLite: takes the write lock at once). */
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

/** SQL text and its values; placeholders are made per database by `text`. */
export interface Sql {
  readonly parts: readonly string[];
  readonly values: readonly unknown[];
}

/** A statement from a template: each `${value}` becomes a parameter. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return { parts: [...strings], values };
}

function text(statement: Sql, type: Connection['type']): string {
  return statement.parts.reduce(
    (all, part, i) => all + (type === 'sqlite' ? '?' : `$${i}`) + part,
  );
}

export async function connect(url: string | undefined): Promise<Connection> {
  const target = parseDatabaseUrl(url);
  if (target.type === 'sqlite') {
    const db = new Database(target.database, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // The ticket search's triggers fold with search_fold, which SQLite leaves to each connection
    // to define: every writer of a SQLite database defines it, as the service's connections do
    // (docs/DEVELOPMENT.md, "A new writer").
    db.function(
      SEARCH_FOLD_FUNCTION.name,
      { deterministic: true },
      SEARCH_FOLD_FUNCTION.fold,
    );
    // Prepared once per text, as a writer of many changes would: preparing a statement compiles
    // its table's triggers too.
    const cache = new Map<string, Database.Statement>();
    return {
      type: 'sqlite',
      query: <T>(statement: Sql) => {
        const sqlText = text(statement, 'sqlite');
        let prepared = cache.get(sqlText);
        if (!prepared) {
          prepared = db.prepare(sqlText);
          cache.set(sqlText, prepared);
        }
        const values = statement.values.map((v) =>
          typeof v === 'boolean' ? Number(v) : v,
        );
        return Promise.resolve(
          (prepared.reader
            ? prepared.all(...values)
            : (prepared.run(...values), [])) as T[],
        );
      },
      begin: () => Promise.resolve(void db.exec('BEGIN IMMEDIATE')),
      commit: () => Promise.resolve(void db.exec('COMMIT')),
      rollback: () =>
        Promise.resolve(void (db.inTransaction && db.exec('ROLLBACK'))),
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new Client({ connectionString: target.url });
  // A connection the server ends (a restart) is reported here as well as to the query in flight,
  // if any; the next query fails with it. Without a listener it would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  return {
    type: 'postgres',
    query: async <T>(statement: Sql) =>
      (await client.query(text(statement, 'postgres'), [...statement.values]))
        .rows as T[],
    begin: async () => void (await client.query('BEGIN')),
    commit: async () => void (await client.query('COMMIT')),
    rollback: async () => void (await client.query('ROLLBACK')),
    close: () => client.end(),
  };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMPORT_MODE } from '../../sync/import-mode';
import { SYNC_LOCK_CLASS } from '../../sync/sync-horizon';
import { COUNT_DELTA_TABLES } from '../pending-counts';
import { ROLLUP_TABLES, SHARED_ID_TABLES } from '../trigger-kept-tables';

/**
 * Names and keys the code shares with the database's triggers and functions, which the
 * migrations write out for themselves (a shipped migration imports nothing): each is checked
 * against the schema files, which test/database-schema.e2e-spec.ts keeps equal to what the
 * migrations make.
 */
const schema = {
  sqlite: readFileSync(join(__dirname, 'sqlite.sql'), 'utf8'),
  postgres: readFileSync(join(__dirname, 'postgres.sql'), 'utf8'),
};
const DATABASES = ['sqlite', 'postgres'] as const;

const tablesOf = (sql: string) =>
  [...sql.matchAll(/^CREATE TABLE "?(\w+)"? \(/gm)].map((match) => match[1]);
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('constants the code shares with the schema', () => {
  // Written by a trigger on SQLite, by fold_counts on PostgreSQL (migration CountsWithoutHotRows).
  it.each(DATABASES)(
    'ROLLUP_TABLES are the rollup tables on %s, each written by a trigger or the fold',
    (database) => {
      const sql = schema[database];
      expect(
        sorted(tablesOf(sql).filter((table) => /_(hours|days)$/.test(table))),
      ).toEqual(sorted(ROLLUP_TABLES));
      for (const table of ROLLUP_TABLES) {
        expect(sql).toMatch(new RegExp(`INSERT INTO ${table} (AS r )?\\(`));
      }
    },
  );

  it('COUNT_DELTA_TABLES are the tables of deltas on postgres, each folded', () => {
    expect(
      sorted(tablesOf(schema.postgres).filter((t) => t.endsWith('_deltas'))),
    ).toEqual(sorted(COUNT_DELTA_TABLES));
    for (const table of COUNT_DELTA_TABLES) {
      expect(schema.postgres).toMatch(
        new RegExp(
          `DELETE FROM ${table} d WHERE|DELETE FROM ${table} d\\s+WHERE`,
        ),
      );
    }
    expect(
      tablesOf(schema.sqlite).filter((t) => t.endsWith('_deltas')),
    ).toEqual([]);
  });

  // The sweep finds the box offices with work by a skip scan of each queue (boxOfficesIn).
  it('each queue the sweep reads on postgres has an index that starts with box_office_id', () => {
    for (const table of [...COUNT_DELTA_TABLES, 'change_inbox']) {
      expect(schema.postgres).toMatch(
        new RegExp(
          `^CREATE (UNIQUE )?INDEX "\\w+" ON public\\.${table} USING btree \\(box_office_id[,)]`,
          'm',
        ),
      );
    }
  });

  it.each(DATABASES)(
    'SHARED_ID_TABLES are the tables whose ids are kept apart on %s',
    (database) => {
      const kept = [
        ...schema[database].matchAll(
          /^CREATE TRIGGER trg_(\w+?)_id_apart(?:_insert|_update)?\b/gm,
        ),
      ].map((match) => match[1]);
      expect(sorted(kept)).toEqual(sorted(SHARED_ID_TABLES));
    },
  );

  it("SYNC_LOCK_CLASS is the base of the stamp's advisory lock class (PostgreSQL)", () => {
    expect(schema.postgres).toContain(
      `class bigint := ${SYNC_LOCK_CLASS} + office;`,
    );
  });

  it('import mode is what the sync triggers ask for', () => {
    const [, setting] = /set_config\('([\w.]+)', 'on', true\)/.exec(
      IMPORT_MODE.postgres.on,
    )!;
    expect(schema.postgres).toContain(
      `IF coalesce(current_setting('${setting}', true), '') <> 'on' THEN`,
    );
    const [, table] = /INTO (\w+) /.exec(IMPORT_MODE.sqlite.on)!;
    expect(schema.sqlite).toContain(`CREATE TABLE "${table}" (`);
    expect(schema.sqlite).toContain(`WHEN NOT EXISTS (SELECT 1 FROM ${table})`);
  });
});

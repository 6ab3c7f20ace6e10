import type { EntityManager } from 'typeorm';

/**
 * Import mode, for loading history into a database that nobody syncs from yet (the seeder, test
 * fixtures): inside the transaction that turns it on, the sync triggers keep the times rows are
 * written with and write no change entries (docs/API.md, "Incremental sync"). Every other rule
 * still holds (an order is never older than its tickets). It must be turned off in the same
 * transaction: on PostgreSQL it is a transaction-local setting (which ends with the transaction
 * anyway); on SQLite a row of `sync_import`, which no other connection ever sees (SQLite writers
 * are serialised, and the row is deleted before the commit).
 */
export const IMPORT_MODE = {
  postgres: {
    on: `SELECT set_config('boxoffice.sync_import', 'on', true)`,
    off: `SELECT set_config('boxoffice.sync_import', 'off', true)`,
  },
  sqlite: {
    on: 'INSERT OR IGNORE INTO sync_import (id) VALUES (1)',
    off: 'DELETE FROM sync_import',
  },
} as const;

const statements = (manager: EntityManager) =>
  IMPORT_MODE[
    manager.connection.options.type === 'postgres' ? 'postgres' : 'sqlite'
  ];

/** Runs `work` in one transaction in import mode. */
export function inImportMode<T>(
  manager: EntityManager,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return manager.transaction(async (inner) => {
    await inner.query(statements(inner).on);
    try {
      return await work(inner);
    } finally {
      await inner.query(statements(inner).off);
    }
  });
}

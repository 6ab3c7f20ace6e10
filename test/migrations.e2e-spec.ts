import { MIGRATIONS } from '../src/database/data-source-options';
import {
  durableTestDatabase,
  openWithMigrations,
  schemaSnapshot,
} from './utils/migrated-database';
import { TestDatabase } from './utils/test-database';

/**
 * Migrations that change nothing on SQLite: SearchFold creates PostgreSQL's fold functions, and
 * every SQLite connection registers its own (src/database/search-fold.ts); ScanEntriesAtCommit
 * defers a PostgreSQL trigger, and SQLite's writers take turns whole anyway; WritesWithoutHotRows
 * numbers PostgreSQL's change entries after their commit and CountsWithoutHotRows writes its counts as
 * deltas and OneLockOrder reorders an event edit's locks, which SQLite's writers (taking turns) need
 * not; TicketWithoutOrderStampsNone spares PostgreSQL's ticket trigger an UPDATE of no order, and
 * RecordChangePlannedOnce makes PostgreSQL's record_change PL/pgSQL (SQLite has none).
 */
const POSTGRES_ONLY = new Set([
  'SearchFold1766010000000',
  'ScanEntriesAtCommit1766400000000',
  'WritesWithoutHotRows1766800000000',
  'CountsWithoutHotRows1766900000000',
  'OneLockOrder1766910000000',
  'TicketWithoutOrderStampsNone1766930000000',
  'RecordChangePlannedOnce1766940000000',
]);

// `npm run migration:revert` (TypeORM's undoLastMigration) must bring the schema back exactly:
// docs/DESIGN.md, Upgrading. On SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.
describe('migrations are reversible', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await durableTestDatabase();
  });
  afterAll(() => database.drop());

  it('reverting the latest restores exactly the schema before it, and applying it again gives the latest', async () => {
    const previous = MIGRATIONS.slice(0, -1);
    const before = await openWithMigrations(database.url, previous);
    const previousSchema = await schemaSnapshot(before);
    await before.destroy();

    const current = await openWithMigrations(database.url, MIGRATIONS);
    try {
      const latestSchema = await schemaSnapshot(current);
      const changesNothingHere =
        current.options.type !== 'postgres' &&
        POSTGRES_ONLY.has(MIGRATIONS[MIGRATIONS.length - 1].name);
      if (!changesNothingHere) {
        expect(latestSchema).not.toEqual(previousSchema);
      }

      await current.undoLastMigration({ transaction: 'each' });
      expect(await schemaSnapshot(current)).toEqual(previousSchema);
      expect(await current.showMigrations()).toBe(true);

      await current.runMigrations({ transaction: 'each' });
      expect(await schemaSnapshot(current)).toEqual(latestSchema);
    } finally {
      await current.destroy();
    }
  });
});

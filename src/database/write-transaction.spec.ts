import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataSource, QueryFailedError } from 'typeorm';
import { sqliteConnection } from './row-reader';
import {
  SQLITE_GROUP_LIMIT,
  type WriteWork,
  writeTransactions,
} from './write-transaction';

/**
 * SQLite's writes commit in groups (write-transaction.ts, sqliteWrites): what each write of a
 * group sees and leaves, watched from a second connection to the same file, as another process
 * would watch it.
 */
describe('writeTransactions on SQLite: group commit', () => {
  let dir: string;
  let dataSource: DataSource;
  let other: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'write-groups-'));
    const file = join(dir, 'db.sqlite');
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: file,
      enableWAL: true,
      timeout: 100,
    });
    await dataSource.initialize();
    sqliteConnection(dataSource).exec(
      'CREATE TABLE t (id integer PRIMARY KEY, v text NOT NULL)',
    );
    other = new Database(file, { timeout: 0 });
  });

  afterEach(async () => {
    other.close();
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What another connection sees committed. */
  const committed = () =>
    (
      other.prepare('SELECT id FROM t ORDER BY id').all() as { id: number }[]
    ).map((row) => row.id);

  /** A write of row `id`; `during` runs inside it, before its INSERT. */
  function* insert(id: number, during?: () => void): WriteWork<number> {
    during?.();
    yield {
      sql: 'INSERT INTO t (id, v) VALUES (?, ?)',
      params: [id, `v${id}`],
    };
    return id;
  }

  it('commits the writes asked for in one turn together, each seeing those before it', async () => {
    const write = writeTransactions(dataSource);
    let seenByOther: number[] | undefined;
    let seenInside: unknown[] | undefined;
    const first = write(() => insert(1));
    const second = write(function* () {
      seenByOther = committed();
      seenInside = yield { sql: 'SELECT id FROM t', params: [] };
      return yield* insert(2);
    });
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
    // The first write was not committed on its own: the group commits once, after both.
    expect(seenByOther).toEqual([]);
    expect(seenInside).toEqual([{ id: 1 }]);
    expect(committed()).toEqual([1, 2]);
  });

  it('rolls a write that throws back to its savepoint; the others of its group commit', async () => {
    const write = writeTransactions(dataSource);
    const refused = new Error('refused');
    const results = await Promise.allSettled([
      write(() => insert(1)),
      write(function* () {
        yield* insert(2);
        throw refused;
      }),
      // A statement the database refuses (the same id again) fails that write alone too.
      write(() => insert(1)),
      write(() => insert(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toBe(refused);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(
      QueryFailedError,
    );
    expect(committed()).toEqual([1, 3]);
  });

  it('rejects every write of a group whose transaction SQLite ended, those that had succeeded too', async () => {
    const write = writeTransactions(dataSource);
    const results = await Promise.allSettled([
      write(() => insert(1)),
      write(function* () {
        // As SQLite does by itself on a full disk or an I/O error: the whole transaction is gone.
        yield { sql: 'ROLLBACK', params: [] };
        return 0;
      }),
      write(() => insert(2)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect(committed()).toEqual([]);
    // The next group starts afresh.
    await expect(write(() => insert(4))).resolves.toBe(4);
    expect(committed()).toEqual([4]);
  });

  it('rejects every write of a group whose BEGIN IMMEDIATE finds the file locked past the busy timeout', async () => {
    const write = writeTransactions(dataSource);
    other.exec('BEGIN IMMEDIATE');
    const results = await Promise.allSettled([
      write(() => insert(1)),
      write(() => insert(2)),
    ]);
    other.exec('ROLLBACK');
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult)
        .reason as QueryFailedError;
      expect(reason).toBeInstanceOf(QueryFailedError);
      expect((reason.driverError as unknown as { code: string }).code).toBe(
        'SQLITE_BUSY',
      );
    }
    expect(committed()).toEqual([]);
  });

  it(`commits at most ${SQLITE_GROUP_LIMIT} writes together; the rest in the next group`, async () => {
    const write = writeTransactions(dataSource);
    const count = SQLITE_GROUP_LIMIT + 6;
    const seen: number[][] = [];
    const ids = Array.from({ length: count }, (_, i) => i + 1);
    await expect(
      Promise.all(
        ids.map((id) => write(() => insert(id, () => seen.push(committed())))),
      ),
    ).resolves.toEqual(ids);
    expect(seen[0]).toEqual([]);
    expect(seen[SQLITE_GROUP_LIMIT - 1]).toEqual([]);
    expect(seen[SQLITE_GROUP_LIMIT]).toEqual(ids.slice(0, SQLITE_GROUP_LIMIT));
    expect(committed()).toEqual(ids);
  });

  it('writes asked for after a turn ends are a group of their own', async () => {
    const write = writeTransactions(dataSource);
    await write(() => insert(1));
    let seenByOther: number[] | undefined;
    await write(() => insert(2, () => (seenByOther = committed())));
    expect(seenByOther).toEqual([1]);
  });
});

import { SqlParams, sqliteDialect } from '../database/sql-dialect';
import { syncPage } from './sync-mode';

const TICKETS = { created_at: 't.created_at', updated_at: 't.updated_at' };
const CHECK_INS = { created_at: 'ci.created_at' };

const heldBackSql = (page: ReturnType<typeof syncPage>) =>
  page.heldBack?.condition(new SqlParams(sqliteDialect)) ?? null;

describe('sync mode', () => {
  it('always carries the watermark', () => {
    expect(syncPage({}, TICKETS, 1786645300).headers).toEqual({
      'X-Sync-Watermark': '1786645300',
    });
  });

  it.each([
    [{ sort: 'updated_at' }, 't.updated_at <= +?'],
    [{ sort: '-updated_at' }, 't.updated_at <= +?'],
    [{ 'updated_at.gte': 1 }, 't.updated_at <= +?'],
    [{ updated_at: 1, sort: 'created_at' }, 't.updated_at <= +?'],
    [{ sort: 'created_at' }, 't.created_at <= +?'],
    [{ sort: '-created_at' }, null],
    [{}, null],
    [{ 'updated_at.gte': undefined }, null],
  ] as [object, string | null][])('%p holds back %p', (query, sql) => {
    expect(heldBackSql(syncPage(query, TICKETS, 5))).toBe(sql);
  });

  it('holds check-ins back by created_at only', () => {
    expect(heldBackSql(syncPage({ sort: 'created_at' }, CHECK_INS, 5))).toBe(
      'ci.created_at <= +?',
    );
    expect(
      heldBackSql(syncPage({ sort: '-created_at' }, CHECK_INS, 5)),
    ).toBeNull();
  });
});

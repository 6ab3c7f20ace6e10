import type { DataSource } from 'typeorm';
import type { Row } from '../../database/row-reader';
import { ApiError } from '../errors/api-error';
import { filters } from '../pagination/list-filters';
import * as sort from '../pagination/sort';
import { json } from './field-table';
import {
  type PageRequest,
  ResourceReader,
  type ResourceSource,
  planList,
} from './resource-reader';

/**
 * The reader's list machinery on a small source (tickets of orders): which SQL each kind of
 * request sends, and how cursors, scopes and held-back rows shape it. The golden SQL files show
 * the real resources' statements; the e2e suites walk them on both databases.
 */
const SOURCE: ResourceSource = {
  noun: 'ticket',
  prefix: 'it_',
  table: 'issued_tickets t',
  joins: '',
  tenant: 't.box_office_id',
  id: 't.id',
  sorts: sort.sortsBy(
    [
      { key: 'created_at', column: 't.created_at', keyed: false },
      { key: 'updated_at', column: 't.updated_at', keyed: true },
    ],
    '-created_at',
  ),
  fields: [
    ['object', json.literal('issued_ticket')],
    ['id', json.id('it_', 't.id')],
  ],
};

const dataSource = {
  options: { type: 'better-sqlite3' },
} as unknown as DataSource;

/** A reader whose database answers from `answer` and records what it was sent. */
function readerWith(answer: (sql: string, params: unknown[]) => Row[]) {
  const reader = new ResourceReader(dataSource, SOURCE);
  const sent: { sql: string; params: unknown[] }[] = [];
  Object.defineProperty(reader, 'read', {
    value: (sql: string, params: unknown[]) => {
      sent.push({ sql, params });
      return Promise.resolve(answer(sql, params));
    },
  });
  return { reader, sent };
}

const row = (id: number, key: number): Row => ({
  id,
  sort_key: key,
  j0: `{"object":"issued_ticket","id":"it_${id}"}`,
});

const scopedToOrder: PageRequest['scope'] = filters.equals('t.order_id', 7);

describe('ResourceReader lists', () => {
  it('reads ascending created_at from the index backwards: the key, then the id, ascending', () => {
    const reader = new ResourceReader(dataSource, SOURCE);
    const { sql, params } = reader.pageStatement(
      1,
      planList(SOURCE, { limit: 10, filters: [], sort: 'created_at' }),
      { key: 100, id: 5 },
    );
    expect(sql).toContain(
      'WHERE t.box_office_id = +? AND (t.created_at, t.id) > (+?, +?)',
    );
    expect(sql).toContain('ORDER BY t.created_at ASC, t.id ASC');
    expect(params).toEqual([1, 100, 5, 11]);
  });

  it('places a keyed cursor where it says, without looking its row up', async () => {
    const { reader, sent } = readerWith(() => [row(4, 90), row(3, 80)]);
    const page = await reader.page(1, {
      limit: 2,
      filters: [],
      sort: '-updated_at',
      starting_after: 'it_5@100',
    });
    expect(sent[0].sql).toContain('(t.updated_at, t.id) < (+?, +?)');
    expect(sent[0].params).toEqual([1, 100, 5, 3]);
    expect(page.firstCursor).toBe('it_4@90');
    expect(page.lastCursor).toBe('it_3@80');
  });

  it('places a plain id in a keyed order at its row current key', async () => {
    const { reader, sent } = readerWith((sql) =>
      sql.includes('AS sort_key FROM') ? [{ id: 5, sort_key: 120 }] : [],
    );
    await reader.page(1, {
      limit: 2,
      filters: [],
      sort: 'updated_at',
      starting_after: 'it_5',
    });
    expect(sent[0].sql).toBe(
      'SELECT t.id AS id, t.updated_at AS sort_key FROM issued_tickets t WHERE t.box_office_id = +? AND t.id = +?',
    );
    expect(sent[1].params).toEqual([1, 120, 5, 3]);
  });

  it('resolves the sort once for a page that sends every statement a list can', async () => {
    const resolve = jest.spyOn(sort, 'sortOf');
    try {
      // A plain-id cursor in a keyed order: the cursor lookup, the page and the probe.
      const { reader, sent } = readerWith((sql) =>
        sql.includes('AS sort_key FROM')
          ? [{ id: 5, sort_key: 120 }]
          : [row(4, 110)],
      );
      await reader.page(1, {
        limit: 2,
        filters: [],
        sort: '-updated_at',
        ending_before: 'it_5',
      });
      expect(sent).toHaveLength(3);
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve).toHaveBeenCalledWith(SOURCE.sorts, '-updated_at');
    } finally {
      resolve.mockRestore();
    }
  });

  it('reads backwards from ending_before, in the reverse of the list order', () => {
    const reader = new ResourceReader(dataSource, SOURCE);
    const plan = planList(SOURCE, {
      limit: 2,
      filters: [],
      starting_after: 'it_9',
      ending_before: 'it_5',
    });
    expect(plan.cursor).toEqual({
      parameter: 'ending_before',
      id: 5,
      key: null,
    });
    const { sql } = reader.pageStatement(1, plan, { key: 100, id: 5 });
    expect(sql).toContain('(t.created_at, t.id) > (+?, +?)');
    expect(sql).toContain('ORDER BY t.created_at ASC, t.id ASC');
  });

  it('refuses a keyed cursor in an order whose key cannot change', async () => {
    const { reader, sent } = readerWith(() => []);
    await expect(
      reader.page(1, { limit: 2, filters: [], starting_after: 'it_5@100' }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(sent).toEqual([]);
  });

  it('applies a scope to the page, the probe and the cursor lookup', async () => {
    const { reader, sent } = readerWith((sql) =>
      sql.includes('AS sort_key FROM')
        ? [{ id: 5, sort_key: 100 }]
        : [row(4, 90)],
    );
    await reader.page(1, {
      limit: 2,
      filters: [],
      scope: scopedToOrder,
      starting_after: 'it_5',
    });
    expect(sent.map(({ sql }) => sql.includes('t.order_id = +?'))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('answers a cursor outside the scope as an unknown cursor', async () => {
    const { reader } = readerWith(() => []);
    await expect(
      reader.page(1, {
        limit: 2,
        filters: [],
        scope: scopedToOrder,
        starting_after: 'it_5',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('holds rows back on the page and its probe, never on the cursor lookup', async () => {
    const heldBack = {
      condition: () => 't.updated_at <= 150',
    };
    const { reader, sent } = readerWith((sql) =>
      sql.includes('AS sort_key FROM')
        ? [{ id: 5, sort_key: 100 }]
        : [row(6, 110)],
    );
    await reader.page(1, {
      limit: 2,
      filters: [],
      sort: 'updated_at',
      heldBack,
      starting_after: 'it_5',
    });
    expect(sent.map(({ sql }) => sql.includes('t.updated_at <= 150'))).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('leaves out a bound on the sort key that the cursor already implies', () => {
    const reader = new ResourceReader(dataSource, SOURCE);
    const bounded = filters.range(
      { 'updated_at.gte': 50 },
      'updated_at',
      't.updated_at',
    );
    const sorted = (sort: string) =>
      reader.pageStatement(
        1,
        planList(SOURCE, { limit: 2, filters: bounded, sort }),
        { key: 100, id: 5 },
      ).sql;
    // Ascending from 100, `updated_at >= 50` holds already; descending it does not.
    expect(sorted('updated_at')).not.toContain('t.updated_at >= +?');
    expect(sorted('-updated_at')).toContain('t.updated_at >= +?');
    // A bound on another column than the sort key is always kept.
    expect(sorted('created_at')).toContain('t.updated_at >= +?');
  });

  it('serves the page headers it is asked to, with or without rows', async () => {
    const headers = { 'X-Sync-Watermark': '150' };
    const empty = readerWith(() => []);
    expect(
      (await empty.reader.page(1, { limit: 2, filters: [], headers })).headers,
    ).toBe(headers);
    const full = readerWith(() => [row(4, 90)]);
    expect(
      (await full.reader.page(1, { limit: 2, filters: [], headers })).headers,
    ).toBe(headers);
  });

  it('finds one item only inside its scope', () => {
    const reader = new ResourceReader(dataSource, SOURCE);
    expect(reader.oneStatement(1, 5, scopedToOrder).sql).toContain(
      'WHERE t.box_office_id = +? AND t.id = +? AND t.order_id = +?',
    );
  });

  it('selects an inserted row from what the INSERT returns only where RETURNING sees its stamps', () => {
    const insert = {
      sql: 'INSERT INTO issued_tickets (box_office_id) VALUES ($1)',
      params: [1],
    };
    const postgres = { options: { type: 'postgres' } } as unknown as DataSource;
    const returned = new ResourceReader(postgres, SOURCE).insertedStatement(
      insert,
    );
    expect(returned.sql).toMatch(
      /^WITH t AS \(INSERT INTO issued_tickets \(box_office_id\) VALUES \(\$1\)\s+RETURNING \*\)\nSELECT t\.id AS id,[^]*\nFROM t$/,
    );
    expect(returned.params).toEqual([1]);
    // SQLite's stamps are AFTER triggers: the row must be read again there.
    expect(() =>
      new ResourceReader(dataSource, SOURCE).insertedStatement(insert),
    ).toThrow(/RETURNING/);
    // A resource whose fields read other tables has no JSON in what the INSERT returns.
    const joined = { ...SOURCE, joins: 'JOIN orders o ON o.id = t.order_id' };
    expect(() =>
      new ResourceReader(postgres, joined).insertedStatement(insert),
    ).toThrow(/RETURNING/);
  });

  it("selects a written row's JSON with its joins only when the caller says the write leaves them", () => {
    const postgres = { options: { type: 'postgres' } } as unknown as DataSource;
    const joined = { ...SOURCE, joins: 'JOIN orders o ON o.id = t.order_id' };
    const reader = new ResourceReader(postgres, joined);
    expect(() => reader.returnedSelect()).toThrow(/RETURNING/);
    expect(reader.returnedSelect({ joinsUnchanged: true })).toMatch(
      /^SELECT t\.id AS id,[^]*\nFROM t JOIN orders o ON o\.id = t\.order_id$/,
    );
    // SQLite's RETURNING does not see the stamps, joins or not.
    expect(() =>
      new ResourceReader(dataSource, joined).returnedSelect({
        joinsUnchanged: true,
      }),
    ).toThrow(/RETURNING/);
  });
});

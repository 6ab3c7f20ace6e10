import request from 'supertest';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { OrdersService } from '../src/orders/orders.service';
import { Factory } from './utils/factories';
import { onPostgres } from './utils/test-database';

const KEY = 'sk_query_plan';

interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The list's cost is structural: a fixed number of statements whatever the limit, each read in
 * index order. Checked on the statements the service really sends, on either database.
 */
describe('list queries: statement count and plans', () => {
  let t: TestApp;
  let statements: Statement[];
  let orderIds: string[];

  beforeAll(async () => {
    t = await createTestApp({ AUTH_CACHE_TTL_MS: '60000' });
    const factory = new Factory(t.dataSource);
    const { office, event } = await factory.tenant(KEY);
    for (let i = 0; i < 12; i++) {
      await factory.order(office.id, event.id, {
        createdAt: 1_750_000_000 + Math.floor(i / 3),
      });
    }
    const all = await get('/v1/orders');
    orderIds = all.body.data.map((order: { id: string }) => order.id);

    // Every statement of the reader goes through its `read` (on PostgreSQL straight to the
    // driver's pool, as named statements, not through TypeORM's `query`).
    const reader = t.app.get(OrdersService).reader;
    const original = reader.read;
    jest.spyOn(reader, 'read').mockImplementation((sql, params, options) => {
      statements.push({ sql, params });
      return original(sql, params, options);
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    statements = [];
  });

  const get = (path: string) =>
    request(t.server).get(path).set('Authorization', basicAuth(KEY));

  async function statementsFor(path: string): Promise<Statement[]> {
    statements = [];
    const res = await get(path);
    expect(res.status).toBe(200);
    return statements;
  }

  it.each([
    ['first page', ''],
    ['starting_after', `starting_after=${'or_6'}`],
    ['ending_before', `ending_before=${'or_6'}`],
    [
      'filters and a cursor',
      `starting_after=or_6&created_at.gte=1750000001&status=completed`,
    ],
  ])(
    'sends as many statements for limit=1 as for limit=100 (%s)',
    async (_name, query) => {
      const one = await statementsFor(`/v1/orders?limit=1&${query}`);
      const hundred = await statementsFor(`/v1/orders?limit=100&${query}`);
      expect(one.length).toBe(hundred.length);
      // The cursor lookup, the page and the probe; plus, where the service builds the JSON, one
      // statement per child array (issued tickets, line items) for the whole page.
      const children = t.app.get(OrdersService).reader.json.childStatements;
      expect(one.length).toBeLessThanOrEqual(3 + children.length);
    },
  );

  const variants = [
    '',
    'starting_after=or_6',
    'ending_before=or_6',
    'created_at=1750000001',
    'created_at.gt=1750000000&created_at.lte=1750000003',
    'created_at.gte=1750000001&starting_after=or_9',
    'event_id=ev_1',
    'event_id=ev_1&starting_after=or_6',
    'status=completed',
    'status=pending&ending_before=or_6',
    'email=jane.doe@example.com',
    'txn_id=ch_5',
    'barcode=BC123',
  ];

  /** SQLite: `EXPLAIN QUERY PLAN` rows. */
  async function checkSqlitePlan(query: string, statement: Statement) {
    const plan: { detail: string }[] = await t.dataSource.query(
      `EXPLAIN QUERY PLAN ${statement.sql}`,
      statement.params,
    );
    const details = plan.map((row) => row.detail);
    const ordersAccess = details.filter((d) => /\b(SCAN|SEARCH) o\b/.test(d));
    expect({ query, ordersAccess }).toEqual({
      query,
      ordersAccess: [
        expect.stringMatching(
          /^SEARCH o USING (COVERING )?INDEX IDX_orders_|^SEARCH o USING INTEGER PRIMARY KEY/,
        ),
      ],
    });
    expect(details.filter((d) => /TEMP B-TREE/.test(d))).toEqual([]);
    expect(details.filter((d) => /^SCAN (o|t|li|e)\b/.test(d))).toEqual([]);
    // Children are read through their (order_id, id) index, which is what orders them by id.
    if (/FROM issued_tickets t WHERE t.order_id/.test(statement.sql)) {
      expect(details).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^SEARCH t USING (COVERING )?INDEX IDX_issued_tickets_order \(order_id=\?\)/,
          ),
          expect.stringMatching(
            /^SEARCH li USING (COVERING )?INDEX IDX_line_items_order \(order_id=\?\)/,
          ),
        ]),
      );
    }
  }

  /**
   * PostgreSQL: a dozen rows make sequential scans cheapest, so they are ruled out for the check;
   * what matters is that an index serves the ORDER BY, i.e. the plan has no Sort step.
   */
  async function checkPostgresPlan(query: string, statement: Statement) {
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      const plan: { 'QUERY PLAN': string }[] = await runner.query(
        `EXPLAIN ${statement.sql}`,
        statement.params,
      );
      const lines = plan.map((row) => row['QUERY PLAN']);
      expect({
        query,
        sorts: lines.filter((l) =>
          /(^|->)\s*(Incremental )?Sort\b/.test(l.trim()),
        ),
      }).toEqual({
        query,
        sorts: [],
      });
      expect(lines.filter((l) => /Seq Scan/.test(l))).toEqual([]);
      expect(
        lines.some((l) => /Index (Only )?Scan.* on orders o\b/.test(l)),
      ).toBe(true);
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  }

  it.each(variants)(
    'reads in index order, no sort and no full scan: %s',
    async (query) => {
      const sent = await statementsFor(`/v1/orders?limit=5&${query}`);
      const listStatements = sent.filter((s) =>
        /\bFROM orders o\b/.test(s.sql),
      );
      expect(listStatements.length).toBeGreaterThan(0);
      for (const statement of listStatements) {
        if (t.dataSource.options.type === 'postgres') {
          await checkPostgresPlan(query, statement);
        } else {
          await checkSqlitePlan(query, statement);
        }
      }
    },
  );

  it('leaves out a created_at bound the cursor implies, so the scan starts at the cursor', async () => {
    // Orders span created_at 1750000000–1750000003; the cursor (the 6th newest) sits inside the range.
    const cursor = orderIds[5];
    const sent = await statementsFor(
      `/v1/orders?limit=2&created_at.gte=1750000000&created_at.lt=1750000009&starting_after=${cursor}`,
    );
    const orderStatements = sent.filter((s) => /\bFROM orders o\b/.test(s.sql));
    // The page and the probe for the other direction: two statements, or on PostgreSQL one, the
    // probe an EXISTS column of the page (SqlDialect.valueFreePages), its WHERE the page's last.
    const [page, probe] = onPostgres
      ? splitProbeColumn(orderStatements[orderStatements.length - 1].sql)
      : orderStatements.slice(-2).map((s) => s.sql);
    // Walking older: `< 1750000009` is implied by the cursor; `>= 1750000000` still bounds the walk.
    expect(page).toContain('o.created_at >=');
    expect(page).not.toContain('o.created_at <');
    // Probing newer: the other way round.
    expect(probe).toContain('o.created_at <');
    expect(probe).not.toContain('o.created_at >=');
  });

  it('keeps a created_at bound that is tighter than the cursor', async () => {
    const sent = await statementsFor(
      `/v1/orders?limit=2&created_at.lt=1750000001&starting_after=${orderIds[0]}`,
    );
    // Statements: the cursor lookup, then the page (and the probe, or on PostgreSQL its column).
    const [, page] = sent.filter((s) => /\bFROM orders o\b/.test(s.sql));
    const outer = onPostgres ? splitProbeColumn(page.sql)[0] : page.sql;
    expect(outer).toContain('o.created_at <');
  });

  // bench/notes/2026-11-25-postgresql-session-settings.md: no JIT and no parallel workers for the
  // service's short reads, set by the service's sessions themselves (`source` is `client`: not a
  // server or role default that would hide a missing setting).
  (onPostgres ? it : it.skip)(
    'runs its PostgreSQL sessions without JIT or parallel workers',
    async () => {
      const reader = t.app.get(OrdersService).reader;
      const settings = await reader.read(
        `SELECT name, setting, source FROM pg_settings
          WHERE name IN ('jit', 'max_parallel_workers_per_gather') ORDER BY name`,
        [],
      );
      expect(settings).toEqual([
        { name: 'jit', setting: 'off', source: 'client' },
        {
          name: 'max_parallel_workers_per_gather',
          setting: '0',
          source: 'client',
        },
      ]);
    },
  );
});

/** A value-free page's statement split into what follows its probe column, and that probe's query. */
function splitProbeColumn(sql: string): [string, string] {
  const probe =
    /EXISTS \((SELECT 1 FROM orders o WHERE .*?)\) AS other_side/s.exec(sql);
  if (probe === null) throw new Error(`no probe column in ${sql}`);
  return [sql.slice(probe.index + probe[0].length), probe[1]];
}

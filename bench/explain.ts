import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  ResourceReader,
  type ResourceSource,
  planList,
} from '../src/common/resources/resource-reader';
import { PG_SESSION_OPTIONS } from '../src/database/data-source-options';
import type { ReadRows, Row } from '../src/database/row-reader';
import type { Statement } from '../src/database/sql-dialect';
import { EVENT_SOURCE } from '../src/events/event.fields';
import { ISSUED_TICKET_SOURCE } from '../src/issued-tickets/issued-ticket.fields';
import { ORDER_SOURCE } from '../src/orders/order.fields';
import { DEFAULT_PG_URL } from './lib/database';
import { DEMO_KEY } from './lib/scenarios';

/**
 * `npm run bench:explain`: the plans PostgreSQL runs for the statements the service sends, on the
 * benchmark database (BENCH_DATABASE_URL, else the bench's default; seeded by `npm run bench --
 * --db postgres`). For the orders, events and issued-ticket lists, the first page and a page
 * whose cursor sits at 99% of the list: the cursor lookup, the page, the probe for the other
 * direction and each child array's statement for the page's items, plus retrieving one item.
 * Each statement is prepared as the service's named statements are, and explained with
 * `EXPLAIN (ANALYZE, BUFFERS)` twice: as planned for its first executions (a custom plan for the
 * values) and as PostgreSQL keeps it afterwards (the generic plan). The output goes to
 * bench/explain/<resource>.txt, and a summary of the page statements to bench/explain/README.md.
 */

interface Resource {
  name: string;
  source: ResourceSource;
  /** The index the list's keyset order is read through. */
  listIndex: string;
}

const RESOURCES: Resource[] = [
  { name: 'orders', source: ORDER_SOURCE, listIndex: 'IDX_orders_list' },
  { name: 'events', source: EVENT_SOURCE, listIndex: 'IDX_events_list' },
  {
    name: 'issued-tickets',
    source: ISSUED_TICKET_SOURCE,
    listIndex: 'IDX_issued_tickets_list',
  },
];

interface Explained {
  title: string;
  statement: Statement;
  custom: string[];
  generic: string[];
}

interface PageSummary {
  resource: string;
  page: string;
  position: number;
  listIndex: boolean;
  sorts: number;
  ms: number;
  buffers: number;
}

/** A parameter as an SQL literal: the statements here take integers and integer lists only. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `'{${value.map(literal).join(',')}}'`;
  if (typeof value === 'number' && Number.isInteger(value))
    return String(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return value;
  throw new Error(`unexpected parameter ${JSON.stringify(value)}`);
}

async function explain(
  client: Client,
  title: string,
  statement: Statement,
): Promise<Explained> {
  const plan = async (mode: string) => {
    await client.query(`SET plan_cache_mode = ${mode}`);
    await client.query(`PREPARE explained AS ${statement.sql}`);
    try {
      const args = statement.params.map(literal).join(', ');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) EXECUTE explained${args ? `(${args})` : ''}`,
      );
      return rows.map((row) => row['QUERY PLAN']);
    } finally {
      await client.query('DEALLOCATE explained');
    }
  };
  const custom = await plan('force_custom_plan');
  const generic = await plan('force_generic_plan');
  await client.query('RESET plan_cache_mode');
  return { title, statement, custom, generic };
}

const sorts = (lines: string[]) =>
  lines.filter((line) => /(^|->)\s*(Incremental )?Sort\b/.test(line.trim()))
    .length;
const executionMs = (lines: string[]) =>
  Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1] ?? NaN);
/** Shared buffers the statement touched (hit + read), from the plan's top node. */
const buffers = (lines: string[]) => {
  const line = lines.find((l) => /Buffers: shared/.test(l)) ?? '';
  const hit = Number(/hit=(\d+)/.exec(line)?.[1] ?? 0);
  const read = Number(/read=(\d+)/.exec(line)?.[1] ?? 0);
  return hit + read;
};

async function main() {
  const { values } = parseArgs({
    options: { 'db-url': { type: 'string' } },
  });
  const url =
    values['db-url'] ?? (process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL);
  // The service's session settings, so that the plans shown are the ones it runs.
  const client = new Client({
    connectionString: url,
    options: PG_SESSION_OPTIONS,
  });
  await client.connect();
  const outDir = join(process.cwd(), 'bench', 'explain');
  mkdirSync(outDir, { recursive: true });
  const summaries: PageSummary[] = [];
  try {
    const { rows: keys } = await client.query<{ box_office_id: number }>(
      "SELECT box_office_id FROM api_keys WHERE key_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')",
      [DEMO_KEY],
    );
    if (keys.length === 0)
      throw new Error(`${url} has no demo key: seed it with the bench first`);
    const tenant = keys[0].box_office_id;
    const { rows: counts } = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM orders',
    );
    const read: ReadRows = async (sql, params, options) =>
      options?.arrays
        ? ((await client.query({ text: sql, values: params, rowMode: 'array' }))
            .rows as unknown as Row[])
        : (await client.query<Row>(sql, params)).rows;

    for (const resource of RESOURCES) {
      const reader = new ResourceReader(
        { options: { type: 'postgres' } } as unknown as DataSource,
        resource.source,
      );
      const { table, tenant: tenantColumn, id } = resource.source;
      // A page of 100 in the default order (the list as clients read it first).
      const plan = planList(resource.source, { limit: 100, filters: [] });
      const { column: sortKey, direction: order } = plan.order;
      const [from] = table.split(' ');
      const { rows: total } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${from} WHERE box_office_id = $1`,
        [tenant],
      );
      const size = Number(total[0].n);
      const explained: Explained[] = [];
      for (const [page, fraction] of [
        ['first page', 0],
        ['cursor at 99%', 0.99],
      ] as const) {
        const position = Math.max(
          0,
          Math.min(Math.floor(size * fraction), size - 101),
        );
        let cursor: { key: number; id: number } | null = null;
        if (fraction > 0) {
          const { rows } = await client.query<{ id: number; key: string }>(
            `SELECT ${id} AS id, ${sortKey} AS key FROM ${table} WHERE ${tenantColumn} = $1 ORDER BY ${sortKey} ${order}, ${id} ${order} LIMIT 1 OFFSET $2`,
            [tenant, position],
          );
          cursor = { key: Number(rows[0].key), id: rows[0].id };
          explained.push(
            await explain(
              client,
              `${page}: cursor lookup`,
              reader.cursorStatement(tenant, cursor.id, plan),
            ),
          );
        }
        const statement = reader.pageStatement(tenant, plan, cursor);
        const pageExplained = await explain(
          client,
          `${page}: the page`,
          statement,
        );
        explained.push(pageExplained);
        summaries.push({
          resource: resource.name,
          page,
          position,
          listIndex: pageExplained.generic.some((line) =>
            line.includes(resource.listIndex),
          ),
          sorts: sorts(pageExplained.generic),
          ms: executionMs(pageExplained.generic),
          buffers: buffers(pageExplained.generic),
        });
        const rows = (await read(statement.sql, statement.params)).slice(
          0,
          100,
        );
        if (cursor && rows.length > 0) {
          const first = {
            key: Number(rows[0].sort_key),
            id: Number(rows[0].id),
          };
          explained.push(
            await explain(
              client,
              `${page}: probe for a page before`,
              reader.probeStatement(tenant, plan, first, 'before'),
            ),
          );
        }
        // The page's children, with the keys the page holds: what readChildren sends.
        const sent: Statement[] = [];
        await reader.json.readChildren(rows, (sql, params, options) => {
          sent.push({ sql, params });
          return read(sql, params, options);
        });
        for (const [i, child] of sent.entries()) {
          explained.push(
            await explain(client, `${page}: children ${i + 1}`, child),
          );
        }
        if (fraction > 0 && rows.length > 0) {
          explained.push(
            await explain(
              client,
              'retrieve one item',
              reader.oneStatement(tenant, Number(rows[0].id)),
            ),
          );
        }
      }
      writeFileSync(
        join(outDir, `${resource.name}.txt`),
        render(resource, size, Number(counts[0].n), explained),
      );
    }
  } finally {
    await client.end();
  }
  const summary = summaryMarkdown(summaries);
  writeFileSync(join(outDir, 'README.md'), summary);
  console.log(summary);
}

function render(
  resource: Resource,
  size: number,
  orders: number,
  explained: Explained[],
): string {
  const header = [
    `-- Written by \`npm run bench:explain\` (bench/explain.ts) on ${new Date().toISOString().slice(0, 10)}.`,
    `-- ${resource.name}: ${size.toLocaleString('en-US')} in the benchmarked box office; the database holds ${orders.toLocaleString('en-US')} orders.`,
    '-- Each statement: EXPLAIN (ANALYZE, BUFFERS) of the prepared statement, with a custom plan',
    '-- (its first executions) and the generic plan PostgreSQL keeps for a named statement.',
  ];
  const sections = explained.map((e) =>
    [
      `\n-- ${e.title}`,
      `${e.statement.sql};`,
      `-- parameters: ${JSON.stringify(e.statement.params).slice(0, 300)}`,
      '-- custom plan:',
      ...e.custom.map((line) => `   ${line}`),
      '-- generic plan:',
      ...e.generic.map((line) => `   ${line}`),
    ].join('\n'),
  );
  return `${header.join('\n')}\n${sections.join('\n')}\n`;
}

function summaryMarkdown(summaries: PageSummary[]): string {
  const lines = [
    '# Query plans of the list pages (PostgreSQL)',
    '',
    'Written by `npm run bench:explain` (bench/explain.ts); the statements and their plans, custom and',
    'generic, are in the `.txt` files beside this one. The page statement of each list, first page',
    'and a cursor at 99% of the list: whether the generic plan (the one a named statement keeps)',
    "reads the list's (box_office_id, sort key, id) index, its Sort nodes, execution time and the",
    'shared buffers it touched. A keyset page touches about as many buffers at any depth. A list',
    'shorter than two pages has its "99%" page at its start (position 0).',
    '',
    '| list | page | position | list index | sorts | ms | buffers |',
    '| --- | --- | ---: | :---: | ---: | ---: | ---: |',
  ];
  for (const s of summaries) {
    lines.push(
      `| ${s.resource} | ${s.page} | ${s.position.toLocaleString('en-US')} | ${s.listIndex ? '✅' : '❌'} | ${s.sorts} | ${s.ms.toFixed(2)} | ${s.buffers} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createApp } from '../src/create-app';
import { revalidationHeaders } from './lib/load';
import { httpGet } from './lib/proc';
import { createTypicalApp } from './typical/main';

/**
 * SQL statements per request, counted in-process: `node dist/bench/sql-count.js <input.json> <output.json>`
 * (run by run.ts with DATABASE_URL set) boots `ours` (createApp, as main.ts builds it) and then
 * `typical`, records the statements each sends (see `recordStatements`), sends a few requests of
 * each scenario and writes the counts as JSON. The auth cache of `ours` is warm, as it is under
 * load.
 */
interface Input {
  headers: Record<string, string>;
  scenarios: Record<string, string[]>;
  /** Scenarios whose requests revalidate: counted as a poller's 304 (its tag fetched first). */
  revalidate: string[];
}

export interface SqlCounts {
  perRequest: Record<string, Record<string, number>>;
  /** The statements of one request of each scenario, for the report. */
  examples: Record<string, Record<string, string[]>>;
}

function ours(): Promise<INestApplication> {
  return createApp();
}

function typical(): Promise<INestApplication> {
  return createTypicalApp();
}

/**
 * Calls `record` with every statement the app sends until the returned function is called. On
 * PostgreSQL at the driver (`pg`'s Client.query), which every statement goes through, TypeORM's and
 * the ones the service sends to the pool itself; on SQLite at the DataSource logger's logQuery,
 * which TypeORM calls for every statement whether logging is on or not.
 */
function recordStatements(
  dataSource: DataSource,
  record: (sql: string) => void,
): () => void {
  if (dataSource.options.type === 'postgres') {
    const proto = Client.prototype as unknown as {
      query: (...args: unknown[]) => unknown;
    };
    const original = proto.query;
    proto.query = function (this: Client, ...args: unknown[]) {
      const [query] = args;
      record(
        typeof query === 'string' ? query : (query as { text: string }).text,
      );
      return original.apply(this, args);
    };
    return () => (proto.query = original);
  }
  const logger = dataSource.logger;
  const original = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, queryRunner) => {
    record(query);
    return original(query, parameters, queryRunner);
  };
  return () => (logger.logQuery = original);
}

async function count(
  app: INestApplication,
  input: Input,
  revalidates: boolean,
): Promise<{
  perRequest: Record<string, number>;
  examples: Record<string, string[]>;
}> {
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  let statements: string[] = [];
  const stop = recordStatements(app.get(DataSource), (sql) =>
    statements.push(sql.replace(/\s+/g, ' ').slice(0, 240)),
  );
  const perRequest: Record<string, number> = {};
  const examples: Record<string, string[]> = {};
  const first = Object.values(input.scenarios)[0]?.[0] ?? '/v1/orders';
  await httpGet(port, first, input.headers); // warms the auth cache and the statement cache
  for (const [name, paths] of Object.entries(input.scenarios)) {
    let total = 0;
    const revalidated =
      revalidates && input.revalidate.includes(name)
        ? await revalidationHeaders(port, paths, input.headers)
        : null;
    for (const [i, path] of paths.entries()) {
      const headers = { ...input.headers, ...revalidated?.get(path) };
      statements = [];
      await httpGet(port, path, headers);
      total += statements.length;
      if (i === 0) examples[name] = statements;
    }
    perRequest[name] = total / paths.length;
  }
  stop();
  await app.close();
  return { perRequest, examples };
}

async function main() {
  const input = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Input;
  const result: SqlCounts = { perRequest: {}, examples: {} };
  for (const [name, make] of [
    ['ours', ours],
    ['typical', typical],
  ] as const) {
    // Only ours answers a revalidation from the data version; the peer's are its plain GETs.
    const counted = await count(await make(), input, name === 'ours');
    result.perRequest[name] = counted.perRequest;
    result.examples[name] = counted.examples;
  }
  writeFileSync(process.argv[3], JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

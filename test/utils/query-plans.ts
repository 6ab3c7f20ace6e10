import type { DataSource } from 'typeorm';
import type { ResourceReader } from '../../src/common/resources/resource-reader';

/** A statement as the service sent it. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Records every statement the readers send from now on, into the array returned (cleared by the
 * caller between requests). Readers send through their `read` (on PostgreSQL straight to the
 * driver's pool as named statements, not through TypeORM's `query`).
 */
export function recordStatements(
  readers: readonly ResourceReader[],
): Statement[] {
  const statements: Statement[] = [];
  for (const reader of readers) {
    const original = reader.read;
    jest.spyOn(reader, 'read').mockImplementation((sql, params, options) => {
      statements.push({ sql, params });
      return original(sql, params, options);
    });
  }
  return statements;
}

/** The lines of a statement's plan: SQLite's `EXPLAIN QUERY PLAN` details or PostgreSQL's `EXPLAIN`. */
export async function planOf(
  dataSource: DataSource,
  statement: Statement,
): Promise<string[]> {
  if (dataSource.options.type !== 'postgres') {
    const plan: { detail: string }[] = await dataSource.query(
      `EXPLAIN QUERY PLAN ${statement.sql}`,
      statement.params,
    );
    return plan.map((row) => row.detail);
  }
  // A few rows make sequential scans cheapest, so they are ruled out: what matters is that an
  // index can serve the statement, its ORDER BY included.
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SET enable_seqscan = off');
    const plan: { 'QUERY PLAN': string }[] = await runner.query(
      `EXPLAIN ${statement.sql}`,
      statement.params,
    );
    return plan.map((row) => row['QUERY PLAN']);
  } finally {
    await runner.query('RESET enable_seqscan');
    await runner.release();
  }
}

/** The parts of a plan that would make a list's cost grow with the data rather than the page. */
export function planProblems(
  dataSource: DataSource,
  lines: string[],
): { sorts: string[]; fullScans: string[] } {
  if (dataSource.options.type !== 'postgres') {
    return {
      sorts: lines.filter((l) => /TEMP B-TREE/.test(l)),
      fullScans: lines.filter((l) => /^SCAN \w+\b/.test(l)),
    };
  }
  return {
    sorts: lines.filter((l) => /(^|->)\s*(Incremental )?Sort\b/.test(l.trim())),
    fullScans: lines.filter((l) => /Seq Scan/.test(l)),
  };
}

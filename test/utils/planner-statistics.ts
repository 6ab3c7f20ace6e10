import type { DataSource } from 'typeorm';

/**
 * The tables that hold rows but have no planner statistics (docs/DESIGN.md, "Upgrading"): none in
 * SQLite's `sqlite_stat1`, or no column of theirs in PostgreSQL's `pg_stats`.
 */
export async function tablesWithoutStatistics(
  dataSource: DataSource,
): Promise<string[]> {
  const postgres = dataSource.options.type === 'postgres';
  const tables = await dataSource.query<{ name: string }[]>(
    postgres
      ? `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`
      : // A virtual table (the FTS5 search table) plans itself: ANALYZE gives it no statistics.
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
          AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY 1`,
  );
  const withRows: string[] = [];
  for (const { name } of tables) {
    const rows = await dataSource.query<unknown[]>(
      `SELECT 1 FROM "${name}" LIMIT 1`,
    );
    if (rows.length > 0) withRows.push(name);
  }
  let described: { name: string }[] = [];
  if (postgres) {
    described = await dataSource.query(
      `SELECT DISTINCT tablename AS name FROM pg_stats WHERE schemaname = current_schema()`,
    );
  } else {
    const [statTable] = await dataSource.query<unknown[]>(
      `SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'`,
    );
    if (statTable) {
      described = await dataSource.query(
        'SELECT DISTINCT tbl AS name FROM sqlite_stat1',
      );
    }
  }
  const known = new Set(described.map((row) => row.name));
  return withRows.filter((name) => !known.has(name));
}

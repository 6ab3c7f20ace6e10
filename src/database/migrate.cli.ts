// `npm run migration:run`: applies pending migrations and exits (a deploy step:
// docs/OPERATIONS.md, Rolling deploys with migrations).
import { openCliDataSource } from './cli-data-source';

const USAGE = `Usage: npm run migration:run
  Applies the pending migrations to the database DATABASE_URL names, then exits.
  (In a production install: node dist/src/database/migrate.cli.js.)`;

async function main() {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const dataSource = await openCliDataSource();
  const pending = await dataSource.showMigrations();
  console.log(
    pending ? 'Migrations still pending' : 'Database schema is up to date',
  );
  await dataSource.destroy();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

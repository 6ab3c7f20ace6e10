// `npm run migration:run`: applies pending migrations and exits (a deploy step; see README).
import { openCliDataSource } from './cli-data-source';

async function main() {
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

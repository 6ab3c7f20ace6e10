// Run by demo-seed.multi-spec.ts as a process of its own: what the demo server does at start
// (migrate, then seed when empty) on DATABASE_URL, printing the result as JSON.
import { seedDemoDataIfEmpty } from '../../seeds/demo-data';
import { openDatabase } from './databases';

async function main() {
  const dataSource = await openDatabase(process.env.DATABASE_URL!);
  try {
    const result = await seedDemoDataIfEmpty(dataSource, {
      orders: 40,
      seed: 1,
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

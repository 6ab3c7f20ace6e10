import { bootFailureLine } from './boot-failure';
import { createApp, listen } from './create-app';

/**
 * The production entry point: `node dist/src/main.js` serves the API on PORT, applying pending
 * migrations first unless MIGRATIONS_RUN=false. It never seeds: `npm start` runs the demo server
 * (dev/demo-server.ts) instead. SIGTERM drains and stops it (exit 0).
 */
async function bootstrap() {
  await listen(await createApp());
}

// A start that fails on its settings, database or port prints one line and exits 1 (in the
// seconds a database still starting is waited for: database.module.ts); anything else, a bug,
// prints the whole error.
bootstrap().catch((error: unknown) => {
  console.error(bootFailureLine(error, process.env.DATABASE_URL) ?? error);
  process.exit(1);
});

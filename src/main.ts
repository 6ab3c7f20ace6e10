import { createApp, listen } from './create-app';

/**
 * The production entry point: `node dist/src/main.js` serves the API on PORT, applying pending
 * migrations first unless MIGRATIONS_RUN=false. It never seeds: `npm start` runs the demo server
 * (seeds/demo-server.ts) instead.
 */
async function bootstrap() {
  await listen(await createApp());
}

// Failures inside Nest's own calls end the process there, logged; this catches the rest.
bootstrap().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

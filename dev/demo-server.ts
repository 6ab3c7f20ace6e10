// `npm start`: the service for a first look. The app is built by createApp, as in production;
// then migrations run (unless MIGRATIONS_RUN=false), an empty database gets the demo data, and
// once listening it prints the demo keys and requests to paste. Production runs
// dist/src/main.js, which never seeds.
import { networkInterfaces } from 'node:os';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { bootFailureLine } from '../src/boot-failure';
import { createApp, listen } from '../src/create-app';
import { DemoCalendar } from '../seeds/demo-calendar';
import {
  DEMO_BOX_OFFICES,
  DEMO_ORDER_COUNT,
  demoDataDay,
  seedDemoDataIfEmpty,
  staleDemoNotice,
} from '../seeds/demo-data';

/** Requests printed as ready-to-paste curl lines, made with the first demo key. */
// Published events: the first are the next to start (those over are sales_closed).
const TRY_PATHS = ['/v1/orders?limit=2', '/v1/events?status=published&limit=2'];

function instructions(base: string, notice: string[]): string {
  const key = DEMO_BOX_OFFICES[0].apiKey;
  return [
    '',
    'Demo API keys (demo data only; create real keys with `npm run apikey -- create --box-office <id>`):',
    ...DEMO_BOX_OFFICES.map(
      (office) =>
        `  box office ${office.id} (${office.name}): ${office.apiKey}`,
    ),
    '',
    `Door app, to scan tickets with ${key}: ${base}/door?key=${key}`,
    ...lanDoor(base, key),
    '',
    'Webhooks (this demo allows http:// and local addresses: WEBHOOK_ALLOW_PRIVATE_URLS=true):',
    `  curl -u ${key}: ${base}/v1/webhook_endpoints -d url=http://127.0.0.1:4000/webhooks -d "enabled_events=*"`,
    '  WEBHOOK_SECRET=<the secret it answered> node examples/webhook-receiver.mjs',
    '  npm run activity -- run --box-office 1 --duration 30 --rate 1',
    '',
    'Try it:',
    ...TRY_PATHS.map((path) => `  curl -u ${key}: "${base}${path}"`),
    '',
    ...notice,
  ].join('\n');
}

/**
 * The address a phone on the same network opens (docs/API.md, "The door app"): this machine's
 * first non-internal IPv4 address. Only printed: plain HTTP, so the camera and the offline page
 * need localhost or HTTPS, and typed or handheld scanning works.
 */
function lanDoor(base: string, key: string): string[] {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
  if (address === undefined) return [];
  const { port } = new URL(base);
  return [
    `  from a phone on this network: http://${address.address}:${port}/door?key=${key}`,
    '  (plain HTTP there: typed and handheld scanning; the camera needs HTTPS or localhost)',
  ];
}

async function main() {
  // The banner below goes through process.stdout, as the JSON log lines do (log-output.ts): it
  // comes after them, piped or not.
  // Webhooks to a receiver on this machine (docs/API.md, "Webhooks"): the demo's, never production's.
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS ??= 'true';
  const app = await createApp();
  await app.init(); // applies pending migrations (unless MIGRATIONS_RUN=false)
  const dataSource = app.get(DataSource);
  // Dated around the day it runs, so that the demo has events on sale whenever it is started.
  const { today } = DemoCalendar.of();
  const seeded = await seedDemoDataIfEmpty(dataSource, {
    orders: DEMO_ORDER_COUNT,
    seed: 1,
    today,
  });
  if (seeded) {
    app
      .get(Logger)
      .log(`Seeded ${seeded.orders} demo orders dated around ${today}`, 'Seed');
  }
  const notice = staleDemoNotice(await demoDataDay(dataSource), today);
  process.stdout.write(instructions(await listen(app), notice));
}

// As in main.ts: one line for a failure of settings, database or port; a bug in full.
main().catch((error: unknown) => {
  console.error(bootFailureLine(error, process.env.DATABASE_URL) ?? error);
  process.exit(1);
});

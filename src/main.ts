import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import {
  DEMO_BOX_OFFICES,
  isDatabaseEmpty,
  seedDemoData,
} from '../seeds/demo-data';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './configure-app';
import { AppConfig } from './config/app-config';

/**
 * `node dist/src/main.js` serves (migrating first unless MIGRATIONS_RUN=false).
 * With `--seed-demo` (what `npm start` passes) it also seeds the demo data into an empty database
 * and prints the demo keys with a ready-to-paste curl line. Production (`npm run start:prod`)
 * never seeds.
 */
async function bootstrap() {
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(
      AppModule,
      createHttpAdapter(),
      APP_OPTIONS,
    ),
  );
  const config = app.get(AppConfig);
  const logger = app.get(Logger);
  const demo = process.argv.includes('--seed-demo');

  if (demo) {
    await app.init(); // applies migrations
    const dataSource = app.get(DataSource);
    if (await isDatabaseEmpty(dataSource)) {
      const seeded = await seedDemoData(dataSource, {
        orders: 250,
        seed: 1,
        reset: false,
      });
      logger.log(`Seeded ${seeded.orders} demo orders`, 'Seed');
    }
  }

  await app.listen(config.port);
  const base = `http://localhost:${config.port}`;
  logger.log(
    `Box Office API listening on ${base} (docs: ${base}/docs)`,
    'Bootstrap',
  );
  if (demo) {
    const lines = DEMO_BOX_OFFICES.map(
      (office) =>
        `  box office ${office.id} (${office.name}): ${office.apiKey}`,
    );
    process.stdout.write(
      [
        '',
        'Demo API keys (demo data only; create real keys with `npm run apikey -- create --box-office <id>`):',
        ...lines,
        '',
        'Try it:',
        `  curl -u ${DEMO_BOX_OFFICES[0].apiKey}: "${base}/v1/orders?limit=2"`,
        '',
      ].join('\n'),
    );
  }
}

void bootstrap();

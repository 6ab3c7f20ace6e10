import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { configureHttpServer } from './common/http/http-server';
import { gracefulShutdown } from './common/http/graceful-shutdown';
import { JsonBufferExpressAdapter } from './common/http/json-buffer-express.adapter';
import { requestPipeline } from './request-pipeline';
import { buildOpenApiDocument } from './common/openapi/openapi-document';
import { AppConfig } from './config/app-config';
import { AppLogger } from './logger-options';

export interface CreateAppOptions {
  /** Settings to use instead of the environment's (tests build their own). */
  config?: AppConfig;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

/**
 * The service, assembled: the one bootstrap that main.ts, the demo server, the e2e tests and the
 * bench's SQL counter all call, so each runs the production pipeline. The app is neither
 * initialised nor listening: `init()` (which applies migrations unless MIGRATIONS_RUN=false) or
 * `listen()` is the caller's.
 */
export async function createApp(
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(options),
    new JsonBufferExpressAdapter(caseSensitiveExpress()),
    // Bodies are read by the pipeline's own step, only where a route takes one (request-body.ts),
    // not by Nest's parsers for every request. Logs wait for pino, attached below. A failure inside Nest
    // (configuration, database) is thrown to the caller, not logged: main.ts reports it in one
    // line (boot-failure.ts) rather than as Nest's buffered start-up log and stack.
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
      autoFlushLogs: false,
    },
  );
  return configure(app);
}

/**
 * Listens on PORT and logs where: the last step of main.ts and of the demo server. From then on
 * SIGTERM and SIGINT drain and close the app (graceful-shutdown.ts). Returns the base URL.
 */
export async function listen(app: NestExpressApplication): Promise<string> {
  await app.listen(app.get(AppConfig).port);
  gracefulShutdown(app).stopOnSignals(app);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://localhost:${port}`;
  app
    .get(Logger)
    .log(
      `Box Office API listening on ${base} (docs: ${base}/docs)`,
      'Bootstrap',
    );
  return base;
}

/** App-level settings that are not injectable. */
function configure(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(new AppLogger(app.get(Logger)));
  app.flushLogs();

  // Query keys such as `created_at.gt` stay literal; repeated keys become arrays (rejected later).
  app.set('query parser', 'simple');
  app.set('trust proxy', config.trustProxyHops);
  app.disable('x-powered-by');
  guardServer(app, config);

  // The request pipeline, in order: request-pipeline.ts lists and explains each step.
  for (const step of requestPipeline(app, config)) step.mount(app);

  app.enableVersioning({ type: VersioningType.URI });

  const document = buildOpenApiDocument(app);
  // JSON only: no undocumented /docs-yaml (docs/API.md, GET /docs and /docs-json).
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    raw: ['json'],
  });
  return app;
}

/**
 * Express with case-sensitive routing: `/V1/ORDERS` is no route (docs/API.md, Paths and
 * versions). Set before the adapter is built: the router takes the setting when it is made.
 */
function caseSensitiveExpress(): express.Express {
  return express().set('case sensitive routing', true);
}

/**
 * Hostile and slow clients (docs/OPERATIONS.md, Reliability): the HTTP server's timeouts and JSON
 * answers to what Node's parser refuses (common/http/http-server.ts).
 */
function guardServer(app: NestExpressApplication, config: AppConfig) {
  configureHttpServer(
    app.getHttpServer() as Server,
    config.httpTimeouts,
    PinoLogger.root,
  );
}

import { VersioningType } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { version } from '../package.json';
import { etagOf } from './common/http/etag';
import { requestIdMiddleware } from './common/http/request-id';
import { AppConfig } from './config/app-config';

/** NestFactory options shared by main.ts and the tests: a read-only API parses no bodies. */
export const APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/**
 * App-level settings that are not injectable, in the one place that main.ts and the e2e helper
 * both call, so that tests run the production pipeline.
 */
export function configureApp(
  app: NestExpressApplication,
): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.flushLogs();

  // Query keys such as `created_at.gt` stay literal; repeated keys become arrays (rejected later).
  app.set('query parser', 'simple');
  app.set('etag', (body: string | Buffer) => etagOf(body));
  app.set('trust proxy', config.trustProxyHops);
  app.disable('x-powered-by');

  app.use(requestIdMiddleware);
  // A JSON API serves no HTML of its own; Swagger UI at /docs needs inline scripts and styles.
  app.use(helmet({ contentSecurityPolicy: false }));
  app.enableCors({
    origin: config.corsOrigins,
    methods: ['GET', 'HEAD', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'If-None-Match',
      'X-Request-Id',
    ],
    exposedHeaders: [
      'ETag',
      'Retry-After',
      'X-Request-Id',
      'X-Rate-Limit-Limit',
      'X-Rate-Limit-Remaining',
      'X-Rate-Limit-Reset',
    ],
    maxAge: 600,
  });
  app.use(compression());

  app.enableVersioning({ type: VersioningType.URI });
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Box Office API')
      .setDescription(
        "Read-only access to a box office's ticket orders, in the style of the Ticket Tailor API. Authenticate with HTTP Basic auth: the API key as user name, an empty password.",
      )
      .setVersion(version)
      .addBasicAuth({ type: 'http', scheme: 'basic' }, 'apiKey')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  return app;
}

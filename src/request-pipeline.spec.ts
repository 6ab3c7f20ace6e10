import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pino from 'pino';
import { AuthMiddleware } from './auth/auth.middleware';
import { AppConfig } from './config/app-config';
import { validateEnvironment } from './config/environment';
import { DrainState } from './common/http/drain-state';
import { Metrics } from './common/metrics/metrics';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';
import { NEST_STEPS, requestPipeline } from './request-pipeline';

/**
 * An app that records what each step mounts, in order, and which requests reach the API key and
 * rate limit steps (`reached`); metrics are on when `metricsOn`.
 */
function recordingApp(metricsOn = false) {
  const mounted: string[] = [];
  const handlers: RequestHandler[] = [];
  const reached: string[] = [];
  const request = {};
  const step = (name: string) => ({
    use: (req: Request, _res: Response, next: NextFunction) => {
      reached.push(`${name} ${req.path}`);
      next();
      return Promise.resolve();
    },
  });
  const providers = new Map<unknown, unknown>([
    [AuthMiddleware, step('API key')],
    [RateLimitMiddleware, step('rate limit')],
    [Metrics, { enabled: metricsOn, histogram: () => ({}) }],
    [AppConfig, new AppConfig(validateEnvironment({}))],
    [DrainState, new DrainState()],
  ]);
  const app = {
    get: (type: unknown) => providers.get(type),
    use: (handler: RequestHandler) => {
      mounted.push('use');
      handlers.push(handler);
    },
    enableCors: () => mounted.push('cors'),
    set: (name: string) => mounted.push(`set ${name}`),
    getHttpAdapter: () => ({ getInstance: () => ({ request }) }),
  } as unknown as NestExpressApplication;
  return { app, mounted, handlers, reached };
}

const config = { corsOrigins: true } as unknown as AppConfig;

describe('requestPipeline', () => {
  const logged = (enabled: boolean) =>
    pino({ level: enabled ? 'info' : 'warn' }, { write: () => undefined });

  it('lists the steps in the order a request passes them, the key looked up before it is counted', () => {
    const { app } = recordingApp();
    expect(
      requestPipeline(app, config, logged(true)).map((step) => step.name),
    ).toEqual([
      'access log',
      'request id',
      'security headers',
      'compression',
      'CORS',
      'shutdown gate',
      'API key',
      'rate limit',
      'CORS preflight',
      'request body',
      'cache control',
      'door app',
      'conditional GET',
    ]);
  });

  it('times requests right after the access log while metrics are on', () => {
    const { app } = recordingApp(true);
    expect(
      requestPipeline(app, config, logged(true))
        .map((step) => step.name)
        .slice(0, 3),
    ).toEqual(['access log', 'metrics', 'request id']);
  });

  it.each([
    [false, ['/health/live', '/health/ready/']],
    [true, ['/health/live', '/health/ready/', '/metrics']],
  ])(
    'passes the operator endpoints by the API key and rate limit steps (metrics on: %s)',
    (metricsOn, operations) => {
      const { app, handlers, reached } = recordingApp(metricsOn);
      const steps = requestPipeline(app, config, logged(false));
      for (const name of ['API key', 'rate limit']) {
        steps.find((s) => s.name === name)!.mount(app);
      }
      const paths = [...operations, '/v1/orders', '/health', '/metrics/x'];
      if (!metricsOn) paths.push('/metrics');
      for (const path of paths) {
        for (const handler of handlers) {
          void handler(
            { path } as Request,
            {} as Response,
            (() => undefined) as NextFunction,
          );
        }
      }
      const keyed = paths.filter((path) => !operations.includes(path));
      expect(reached).toEqual(
        keyed.flatMap((path) => [`API key ${path}`, `rate limit ${path}`]),
      );
    },
  );

  it('leaves the access log out when info is not logged', () => {
    const { app } = recordingApp();
    expect(
      requestPipeline(app, config, logged(false)).map((step) => step.name)[0],
    ).toBe('request id');
  });

  it('mounts each step once, CORS through Nest (its preflights continue down the pipeline)', () => {
    const { app, mounted } = recordingApp();
    for (const step of requestPipeline(app, config, logged(false))) {
      step.mount(app);
    }
    expect(mounted).toEqual([
      'use',
      'use',
      'use',
      'cors',
      'use',
      'use',
      'use',
      'use',
      'use',
      'use',
      'use',
      'set etag',
    ]);
  });

  it("redefines the app's req.fresh in the conditional GET step", () => {
    const { app } = recordingApp();
    const step = requestPipeline(app, config, logged(false)).find(
      (s) => s.name === 'conditional GET',
    )!;
    const express = app.getHttpAdapter().getInstance() as {
      request: object;
    };
    expect(Object.getOwnPropertyDescriptor(express.request, 'fresh')).toBe(
      undefined,
    );
    step.mount(app);
    expect(
      typeof Object.getOwnPropertyDescriptor(express.request, 'fresh')?.get,
    ).toBe('function');
  });
});

describe('NEST_STEPS', () => {
  it('registers the guard, the pipe, revalidation before the links, and the filter', () => {
    expect(
      NEST_STEPS.map((step) => {
        const { provide, useClass } = step as {
          provide: string;
          useClass: { name: string };
        };
        return `${provide} ${useClass.name}`;
      }),
    ).toEqual([
      `${APP_GUARD} ApiKeyGuard`,
      `${APP_PIPE} StrictValidationPipe`,
      `${APP_INTERCEPTOR} RevalidationInterceptor`,
      `${APP_INTERCEPTOR} PaginationLinksInterceptor`,
      `${APP_FILTER} AllExceptionsFilter`,
    ]);
  });
});

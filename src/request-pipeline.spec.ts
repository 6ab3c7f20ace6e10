import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import { AuthMiddleware } from './auth/auth.middleware';
import type { AppConfig } from './config/app-config';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';
import { NEST_STEPS, requestPipeline } from './request-pipeline';

/** An app that records what each step mounts, in order. */
function recordingApp() {
  const mounted: string[] = [];
  const request = {};
  const app = {
    get: (type: unknown) =>
      type === AuthMiddleware || type === RateLimitMiddleware
        ? { use: () => Promise.resolve() }
        : undefined,
    use: () => mounted.push('use'),
    enableCors: () => mounted.push('cors'),
    set: (name: string) => mounted.push(`set ${name}`),
    getHttpAdapter: () => ({ getInstance: () => ({ request }) }),
  } as unknown as NestExpressApplication;
  return { app, mounted };
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
      'conditional GET',
    ]);
  });

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

import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import { AuthMiddleware } from './auth/auth.middleware';
import type { AppConfig } from './config/app-config';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';
import { requestPipeline } from './request-pipeline';

/** An app that records what each step mounts, in order. */
function recordingApp() {
  const mounted: string[] = [];
  const app = {
    get: (type: unknown) =>
      type === AuthMiddleware || type === RateLimitMiddleware
        ? { use: () => Promise.resolve() }
        : undefined,
    use: () => mounted.push('use'),
    enableCors: () => mounted.push('cors'),
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
      'cache control',
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
    ]);
  });
});

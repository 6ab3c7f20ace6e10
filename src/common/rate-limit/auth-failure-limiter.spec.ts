import type { AppConfig } from '../../config/app-config';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { MemoryRateLimitStore } from './rate-limit.store';

describe('AuthFailureLimiter', () => {
  let now: number;
  let store: MemoryRateLimitStore;
  let limiter: AuthFailureLimiter;

  beforeEach(() => {
    now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    store = new MemoryRateLimitStore(1_000, () => now);
    limiter = new AuthFailureLimiter(store, {
      authFailureLimit: { max: 3, windowSeconds: 60 },
    } as AppConfig);
  });

  afterEach(() => jest.restoreAllMocks());

  it('allows AUTH_FAILURE_MAX failures, then refuses the address for the rest of the window', async () => {
    const waits = [];
    for (let i = 0; i < 4; i++)
      waits.push(await limiter.recordFailure('1.2.3.4'));
    expect(waits).toEqual([0, 0, 0, 60]);
    expect(limiter.refusedFor('1.2.3.4')).toBe(60);
    now += 45_000;
    expect(limiter.refusedFor('1.2.3.4')).toBe(15);
    now += 15_000;
    expect(limiter.refusedFor('1.2.3.4')).toBe(0);
    // A new window: the count starts again.
    expect(await limiter.recordFailure('1.2.3.4')).toBe(0);
  });

  it('counts each address on its own', async () => {
    for (let i = 0; i < 4; i++) await limiter.recordFailure('1.2.3.4');
    expect(limiter.refusedFor('5.6.7.8')).toBe(0);
    expect(await limiter.recordFailure('5.6.7.8')).toBe(0);
  });

  it('learns a refusal from the shared count (another instance counted the failures)', async () => {
    for (let i = 0; i < 3; i++)
      await store.hit('auth-failures:1.2.3.4', 60_000);
    expect(limiter.refusedFor('1.2.3.4')).toBe(0);
    expect(await limiter.recordFailure('1.2.3.4')).toBe(60);
    expect(limiter.refusedFor('1.2.3.4')).toBe(60);
  });
});

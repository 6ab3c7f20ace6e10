import { MemoryRateLimitStore } from './rate-limit.store';

describe('MemoryRateLimitStore', () => {
  it('opens a new window once the old one has passed', async () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore(100, () => now);
    expect(await store.hit('a', 1_000)).toEqual({ count: 1, resetMs: 1_000 });
    now += 400;
    expect(await store.hit('a', 1_000)).toEqual({ count: 2, resetMs: 600 });
    now += 600;
    expect(await store.hit('a', 1_000)).toEqual({ count: 1, resetMs: 1_000 });
  });

  it('stays bounded however many callers come (expired windows swept, then oldest dropped)', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(1_000, () => now);
    for (let i = 0; i < 50_000; i++) {
      now += 1;
      await store.hit(`ip:${i}`, 10_000_000);
    }
    expect(store.size).toBeLessThanOrEqual(1_000);
    now += 20_000_000;
    await store.hit('late', 1_000);
    expect(store.size).toBe(1);
  });
});

/** One request counted against a caller's current window. */
export interface RateLimitHit {
  /** Requests in the window so far, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/**
 * Fixed-window counters: a caller's window opens with its first request and lasts `windowMs`.
 * Implementations must count atomically (concurrent hits never lose a count).
 */
export interface RateLimitStore {
  hit(identity: string, windowMs: number): Promise<RateLimitHit>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/**
 * Counters in this process's memory: right for one instance. Expired windows are swept as the
 * map grows, so memory is bounded by the callers of one window (and hard-capped).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<
    string,
    { count: number; resetAt: number }
  >();
  private nextSweep = 0;

  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(identity: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.now();
    let window = this.windows.get(identity);
    if (!window || window.resetAt <= now) {
      this.makeRoom(now, windowMs);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(identity, window);
    }
    window.count += 1;
    return Promise.resolve({
      count: window.count,
      resetMs: window.resetAt - now,
    });
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number, windowMs: number) {
    if (now >= this.nextSweep || this.windows.size >= this.maxEntries) {
      for (const [identity, window] of this.windows) {
        if (window.resetAt <= now) this.windows.delete(identity);
      }
      this.nextSweep = now + Math.min(windowMs, 60_000);
    }
    // Still full of live windows (a flood of distinct callers): drop the oldest.
    while (this.windows.size >= this.maxEntries) {
      const oldest = this.windows.keys().next().value as string;
      this.windows.delete(oldest);
    }
  }
}

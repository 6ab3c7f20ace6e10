import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

/**
 * Failed authentications per client IP (docs/API.md, Limits: Failed authentications). Each
 * failure is counted in the rate-limit store (shared by instances through Redis); past
 * AUTH_FAILURE_MAX in AUTH_FAILURE_WINDOW_S the address is refused (429) for the rest of the
 * window. An instance remembers the refusal in memory, so a refused address costs no key lookup
 * and no store round trip: a flood of guessed keys costs at most one indexed lookup each until
 * the limit, then nothing.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly max: number;
  private readonly windowMs: number;
  /** Refused addresses and when their refusal ends (epoch ms); bounded like the other caches. */
  private readonly refusedUntil = new LRUCache<string, number>({
    max: 10_000,
  });

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    config: AppConfig,
  ) {
    this.max = config.authFailureLimit.max;
    this.windowMs = config.authFailureLimit.windowSeconds * 1000;
  }

  /** Seconds until `ip` may present credentials again; 0 when it may now. */
  refusedFor(ip: string, now = Date.now()): number {
    const until = this.refusedUntil.get(ip);
    if (until === undefined) return 0;
    if (until <= now) {
      this.refusedUntil.delete(ip);
      return 0;
    }
    return Math.ceil((until - now) / 1000);
  }

  /**
   * Counts a failed authentication from `ip`. Returns the seconds it is now refused for when this
   * failure is over the limit, else 0.
   */
  async recordFailure(ip: string): Promise<number> {
    const hit = await this.store.hit(`auth-failures:${ip}`, this.windowMs);
    if (hit.count <= this.max) return 0;
    const now = Date.now();
    this.refusedUntil.set(ip, now + hit.resetMs);
    return Math.max(1, this.refusedFor(ip, now));
  }
}

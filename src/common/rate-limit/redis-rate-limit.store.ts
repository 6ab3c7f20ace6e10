import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import {
  MemoryRateLimitStore,
  RateLimitHit,
  RateLimitStore,
} from './rate-limit.store';

// INCR and PEXPIRE in one script, so the count and the window start are atomic across instances.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** How long start-up waits for the first connection to Redis (ioredis's connect timeout too). */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;

type RedisWithHit = Redis & {
  rateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * Counters shared by every instance through Redis. When Redis cannot answer (down, unreachable,
 * slower than REDIS_COMMAND_TIMEOUT_MS) the request is not refused: it is counted in this
 * instance's memory instead, with a warning once per outage, until Redis answers again. Limits
 * then hold per instance rather than across them, which is the usual fail-open trade: an outage
 * of the limiter must not become an outage of the API.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger(RedisRateLimitStore.name);
  private readonly redis: RedisWithHit;
  private readonly fallback = new MemoryRateLimitStore();
  private degraded = false;

  constructor(
    url: string,
    private readonly prefix: string,
    commandTimeoutMs: number,
  ) {
    this.redis = new Redis(url, {
      // Fail fast instead of queueing commands while disconnected; reconnect in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', {
      numberOfKeys: 1,
      lua: HIT_SCRIPT,
    });
    // Errors are reported through failed hits; without a listener ioredis would log each retry.
    this.redis.on('error', () => undefined);
  }

  /**
   * Waits until the first connection is ready, for at most REDIS_CONNECT_TIMEOUT_MS: called before
   * the server listens, so that no request reaches a Redis still connecting (commands are not
   * queued while disconnected: such a request would fall back and log an outage that is none).
   * A Redis that does not answer in time is an outage like any other: one warning, and the
   * requests are counted in memory until it answers.
   */
  async connect(): Promise<void> {
    if (this.redis.status === 'ready') return;
    try {
      await once(this.redis, 'ready', {
        signal: AbortSignal.timeout(REDIS_CONNECT_TIMEOUT_MS),
      });
    } catch {
      this.degraded = true;
      this.logger.warn(
        `Redis unavailable (no connection within ${REDIS_CONNECT_TIMEOUT_MS} ms of start-up): counting rate limits per instance until it is back`,
      );
    }
  }

  async hit(identity: string, windowMs: number): Promise<RateLimitHit> {
    try {
      const [count, ttl] = await this.redis.rateLimitHit(
        this.prefix + identity,
        windowMs,
      );
      if (this.degraded) {
        this.degraded = false;
        this.logger.log(
          'Redis is answering again: rate limits are shared again',
        );
      }
      return { count: Number(count), resetMs: Number(ttl) };
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn(
          `Redis unavailable (${error instanceof Error ? error.message : String(error)}): counting rate limits per instance until it is back`,
        );
      }
      return this.fallback.hit(identity, windowMs);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }
}

import {
  Inject,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { RateLimitMiddleware } from './rate-limit.middleware';
import {
  MemoryRateLimitStore,
  RATE_LIMIT_STORE,
  type RateLimitStore,
} from './rate-limit.store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** In memory for one instance; in Redis (REDIS_URL) when several instances share one budget. */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RateLimitStore =>
        config.redisUrl
          ? new RedisRateLimitStore(
              config.redisUrl,
              config.redisKeyPrefix,
              config.redisCommandTimeoutMs,
            )
          : new MemoryRateLimitStore(),
    },
    RateLimitMiddleware,
    AuthFailureLimiter,
  ],
  exports: [RateLimitMiddleware, AuthFailureLimiter],
})
export class RateLimitModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {}

  /** Start-up waits here, bounded, for Redis's first connection: before the server listens. */
  async onModuleInit() {
    if (this.store instanceof RedisRateLimitStore) await this.store.connect();
  }

  async onApplicationShutdown() {
    if (this.store instanceof RedisRateLimitStore) await this.store.close();
  }
}

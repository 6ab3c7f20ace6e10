import { Injectable } from '@nestjs/common';
import { Environment } from './environment';

export type DatabaseTarget =
  { type: 'sqlite'; database: string } | { type: 'postgres'; url: string };

/** Typed, validated settings. Built once from the environment; tests construct their own. */
@Injectable()
export class AppConfig {
  constructor(private readonly env: Environment) {}

  get nodeEnv() {
    return this.env.NODE_ENV;
  }
  get port() {
    return this.env.PORT;
  }
  get database(): DatabaseTarget {
    return parseDatabaseUrl(this.env.DATABASE_URL);
  }
  get migrationsRun() {
    return this.env.MIGRATIONS_RUN;
  }
  get dbPoolSize() {
    return this.env.DB_POOL_SIZE;
  }
  get dbStatementTimeoutMs() {
    return this.env.DB_STATEMENT_TIMEOUT_MS;
  }
  get dbConnectTimeoutMs() {
    return this.env.DB_CONNECT_TIMEOUT_MS;
  }
  get logLevel() {
    return this.env.LOG_LEVEL;
  }
  /** LOG_FORMAT, or by default pretty in development when stdout is a terminal. */
  get logFormat(): 'json' | 'pretty' {
    if (this.env.LOG_FORMAT) return this.env.LOG_FORMAT;
    const terminal = process.stdout.isTTY === true;
    return this.env.NODE_ENV === 'development' && terminal ? 'pretty' : 'json';
  }
  get corsOrigins(): '*' | string[] {
    const list = this.env.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    return list.length === 0 || list.includes('*') ? '*' : list;
  }
  get rateLimit() {
    return {
      max: this.env.RATE_LIMIT_MAX,
      windowSeconds: this.env.RATE_LIMIT_WINDOW_S,
    };
  }
  get redisUrl() {
    return this.env.REDIS_URL;
  }
  get redisKeyPrefix() {
    return this.env.REDIS_KEY_PREFIX;
  }
  get redisCommandTimeoutMs() {
    return this.env.REDIS_COMMAND_TIMEOUT_MS;
  }
  /** The bearer token of GET /metrics; undefined: metrics are off. */
  get metricsToken() {
    return this.env.METRICS_TOKEN;
  }
  get authCacheTtlMs() {
    return this.env.AUTH_CACHE_TTL_MS;
  }
  get trustProxyHops() {
    return this.env.TRUST_PROXY_HOPS;
  }
  get authFailureLimit() {
    return {
      max: this.env.AUTH_FAILURE_MAX,
      windowSeconds: this.env.AUTH_FAILURE_WINDOW_S,
    };
  }
  /** SQLite's sync lag, in seconds (the horizon is the database clock minus it). */
  get syncLagSeconds() {
    return this.env.SYNC_LAG_S;
  }
  /** How long change-feed entries are kept, in seconds. */
  get changesRetentionSeconds() {
    return (
      this.env.CHANGES_RETENTION_S ?? this.env.CHANGES_RETENTION_DAYS * 86_400
    );
  }
  /** The HTTP server's timeouts and bounds (named so for create-app.ts, which passes them on). */
  get httpTimeouts(): HttpServerLimits {
    return {
      headersMs: this.env.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: this.env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: this.env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      socketMs: this.env.HTTP_SOCKET_TIMEOUT_MS,
      maxConnections: this.env.HTTP_MAX_CONNECTIONS,
      maxPipelined: this.env.HTTP_MAX_PIPELINED,
      maxHeaderBytes: this.env.HTTP_MAX_HEADER_BYTES,
    };
  }
  /** Webhook delivery (docs/API.md, "Webhooks"). */
  get webhooks(): WebhookSettings {
    const key = this.env.WEBHOOK_SECRET_KEY;
    return {
      secretKey: key === undefined ? undefined : Buffer.from(key, 'hex'),
      allowPrivateUrls: this.env.WEBHOOK_ALLOW_PRIVATE_URLS,
      retryScheduleSeconds:
        this.env.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number),
      leaseMs: this.env.WEBHOOK_LEASE_S * 1000,
      pollMs: this.env.WEBHOOK_POLL_MS,
      concurrency: this.env.WEBHOOK_CONCURRENCY,
    };
  }
  get shutdown(): ShutdownTimings {
    return {
      graceMs: this.env.SHUTDOWN_GRACE_MS,
      closeMs: this.env.SHUTDOWN_CLOSE_MS,
    };
  }
}

/** Webhook delivery's settings (docs/OPERATIONS.md, "Webhooks"). */
export interface WebhookSettings {
  /** AES-256-GCM key of the signing secrets at rest; undefined: stored as they are. */
  secretKey: Buffer | undefined;
  /** `http://` and private addresses allowed (development, tests). */
  allowPrivateUrls: boolean;
  /** The wait before each retry, in seconds; after the last failure the endpoint is disabled. */
  retryScheduleSeconds: number[];
  leaseMs: number;
  pollMs: number;
  concurrency: number;
}

/** How long a stop may take (docs/DESIGN.md, Shutdown). */
export interface ShutdownTimings {
  /** The requests received before the signal are answered within it. */
  graceMs: number;
  /** Closing (HTTP, database, Redis, log output) after the grace period, at most. */
  closeMs: number;
}

/** The HTTP server's timeouts and bounds (docs/API.md, Limits). */
export interface HttpServerLimits {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  /** A connection making no progress while a request is in flight is closed after it. */
  socketMs: number;
  /** Open connections; new ones past it are closed before any byte is read. */
  maxConnections: number;
  /** Requests in flight on one connection; one more closes it. */
  maxPipelined: number;
  /** Request line and headers together. */
  maxHeaderBytes: number;
}

export const DEFAULT_SQLITE_PATH = 'data/boxoffice.sqlite';

export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { type: 'sqlite', database: DEFAULT_SQLITE_PATH };
  if (url.startsWith('sqlite:')) {
    return { type: 'sqlite', database: url.slice('sqlite:'.length) };
  }
  return { type: 'postgres', url };
}

import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim())
    ? Number(value)
    : value;
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return value;
};

/**
 * One decorator standing for the stack `decorators`, written top to bottom as they would be above
 * a field, and applied as TypeScript applies such a stack: the last first. The validators run in
 * that order, which is the order of their messages in the boot error.
 */
const stack =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorate of [...decorators].reverse()) decorate(target, key);
  };

/** An integer setting from `min` (up to `max`, when given), read from its string. */
const IntSetting = ({ min, max }: { min: number; max?: number }) =>
  stack(
    Transform(toInt),
    IsInt(),
    Min(min),
    ...(max === undefined ? [] : [Max(max)]),
  );

/** A boolean setting, read from 1/0, true/false, yes/no or on/off in any case. */
const BoolSetting = () => stack(Transform(toBool), IsBoolean());

/**
 * Every setting the service reads, with its default. Bad values fail at boot with the offending
 * keys named (see validateEnvironment); nothing else in the code reads process.env.
 */
export class Environment {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IntSetting({ min: 0, max: 65535 })
  PORT = 3000;

  /** Unset: SQLite file data/boxoffice.sqlite. `sqlite:<path>`, `sqlite::memory:`, `postgres://…`. */
  @IsOptional()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, {
    message:
      'DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…',
  })
  DATABASE_URL?: string;

  /** Run pending migrations when the service starts (turn off when a deploy step runs them). */
  @BoolSetting()
  MIGRATIONS_RUN = true;

  @IntSetting({ min: 1, max: 200 })
  DB_POOL_SIZE = 10;

  @IntSetting({ min: 0 })
  DB_STATEMENT_TIMEOUT_MS = 10_000;

  @IntSetting({ min: 0 })
  DB_CONNECT_TIMEOUT_MS = 5_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * `json`: one object per line, for log collectors. `pretty`: a line a person reads (needs the
   * development dependency pino-pretty). Unset: pretty in development on a terminal, else json.
   */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** Comma list of allowed origins, or `*`. */
  @IsString()
  CORS_ORIGINS = '*';

  @IntSetting({ min: 1 })
  RATE_LIMIT_MAX = 5000;

  @IntSetting({ min: 1 })
  RATE_LIMIT_WINDOW_S = 1800;

  /** Set it to share rate-limit counters between instances. */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://…' })
  REDIS_URL?: string;

  /** Prefix of the rate-limit keys in Redis: deployments sharing one Redis need different ones. */
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, {
    message: 'REDIS_KEY_PREFIX must be 1-64 of A-Z a-z 0-9 : _ . -',
  })
  REDIS_KEY_PREFIX = 'boxoffice:rl:';

  /**
   * How long a rate-limit count may wait for Redis before the request is counted in this
   * instance's memory instead (docs/OPERATIONS.md): a slow limiter must not slow the API.
   */
  @IntSetting({ min: 10, max: 10_000 })
  REDIS_COMMAND_TIMEOUT_MS = 250;

  /**
   * The bearer token GET /metrics asks for (docs/OPERATIONS.md, Metrics). Unset: no metrics are
   * collected and /metrics is an unknown path. At least 32 characters of a bearer token's
   * alphabet, so that it cannot be guessed (`openssl rand -hex 32` makes one).
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._~+/-]{32,256}=*$/, {
    message:
      'METRICS_TOKEN must be 32-256 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding), e.g. from openssl rand -hex 32',
  })
  METRICS_TOKEN?: string;

  /** How long a verified API key is remembered; a revoked key stops working within this time. */
  @IntSetting({ min: 0, max: 60_000 })
  AUTH_CACHE_TTL_MS = 1000;

  /** Express `trust proxy`: hops of proxies in front (needed for per-IP limits behind a balancer). */
  @IntSetting({ min: 0 })
  TRUST_PROXY_HOPS = 0;

  // Hostile clients (docs/OPERATIONS.md, Reliability; docs/API.md, Limits).

  /** Failed authentications (a wrong or malformed key) allowed per client IP per window. */
  @IntSetting({ min: 1 })
  AUTH_FAILURE_MAX = 100;

  @IntSetting({ min: 1 })
  AUTH_FAILURE_WINDOW_S = 900;

  /** Time a client has to send its request line and headers (Node's `headersTimeout`). */
  @IntSetting({ min: 1 })
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** Time a client has to send its whole request (Node's `requestTimeout`); ≥ the headers'. */
  @IntSetting({ min: 1 })
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** How long an idle keep-alive connection stays open (Node's `keepAliveTimeout`). */
  @IntSetting({ min: 1 })
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /**
   * How long a connection may make no progress while a request is in flight (Node's `timeout`):
   * a client that stops reading its response is disconnected after it.
   */
  @IntSetting({ min: 1_000 })
  HTTP_SOCKET_TIMEOUT_MS = 30_000;

  /** Open connections per instance (Node's `maxConnections`); new ones past it are closed at once. */
  @IntSetting({ min: 1, max: 1_000_000 })
  HTTP_MAX_CONNECTIONS = 4_000;

  /**
   * Requests one connection may have in flight (pipelined, sent before their answers); a client
   * sending more has its connection closed.
   */
  @IntSetting({ min: 1, max: 100 })
  HTTP_MAX_PIPELINED = 4;

  /** Request line and headers together, in bytes (Node's `maxHeaderSize`). */
  @IntSetting({ min: 4_096, max: 1_048_576 })
  HTTP_MAX_HEADER_BYTES = 16_384;

  // Shutdown (docs/DESIGN.md, "Shutdown").

  /**
   * How long the requests an instance has received when a SIGTERM or SIGINT arrives may take to
   * be answered; connections still busy after it are closed.
   */
  @IntSetting({ min: 0, max: 3_600_000 })
  SHUTDOWN_GRACE_MS = 8_000;

  /**
   * How long closing may take after that (the HTTP server, the database pool, Redis, the last log
   * lines) before the process exits anyway, with code 1 if the service had not closed. A stop
   * ends within SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS, whatever its database or log output does.
   */
  @IntSetting({ min: 100, max: 600_000 })
  SHUTDOWN_CLOSE_MS = 1_500;
  // Incremental sync and the change feed (docs/API.md, "Incremental sync", "Change feed").

  /**
   * SQLite only: how far the sync horizon stays behind the database clock. A writer must commit
   * before the second `stamp + SYNC_LAG_S` begins.
   */
  @IntSetting({ min: 1, max: 3600 })
  SYNC_LAG_S = 2;

  /** How long change-feed entries are kept. */
  @IntSetting({ min: 1 })
  CHANGES_RETENTION_DAYS = 30;

  /** The same in seconds, for tests; when set it wins over CHANGES_RETENTION_DAYS. */
  @IsOptional()
  @IntSetting({ min: 1 })
  CHANGES_RETENTION_S?: number;

  // Webhooks (docs/API.md, "Webhooks"; docs/OPERATIONS.md, "Webhooks").

  /**
   * The key that encrypts endpoints' signing secrets at rest (AES-256-GCM): 64 hex characters
   * (`openssl rand -hex 32`). Unset: secrets are stored as they are, for development.
   */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, {
    message:
      'WEBHOOK_SECRET_KEY must be 64 hex characters (32 bytes), e.g. from openssl rand -hex 32',
  })
  WEBHOOK_SECRET_KEY?: string;

  /** Allows `http://` URLs and private, loopback and link-local addresses (development, tests). */
  @BoolSetting()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /** The waits before each retry of a failed delivery, in seconds; after the last, the endpoint is disabled. */
  @Matches(/^([1-9]\d{0,5})(,[1-9]\d{0,5}){0,19}$/, {
    message:
      'WEBHOOK_RETRY_SCHEDULE must be 1-20 comma-separated whole seconds from 1 to 999999, e.g. 5,300,1800',
  })
  WEBHOOK_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000';

  /** How long an instance holds an endpoint it delivers to: a stopped instance's are taken over after it. */
  @IntSetting({ min: 1, max: 3600 })
  WEBHOOK_LEASE_S = 30;

  /** How often an instance looks for endpoints with events to deliver, in milliseconds. */
  @IntSetting({ min: 10, max: 60_000 })
  WEBHOOK_POLL_MS = 250;

  /** Endpoints one instance delivers to at once (one event in flight to each). */
  @IntSetting({ min: 1, max: 1000 })
  WEBHOOK_CONCURRENCY = 16;
}

/** The names of every setting (class fields are defined even when optional). */
export const SETTING_NAMES: readonly string[] = Object.keys(new Environment());

/** Validates raw settings (process.env in production), naming every offending key. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  // Empty strings mean "unset", as in most .env files.
  const relevant = Object.fromEntries(
    SETTING_NAMES.map((key) => [key, raw[key]]).filter(
      ([, value]) => value !== '' && value !== undefined && value !== null,
    ),
  );
  const env = plainToInstance(Environment, relevant);
  const errors = validateSync(env, { whitelist: true }).map(
    (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`,
  );
  // Node refuses a headers timeout longer than the request's (the request includes its headers).
  if (
    errors.length === 0 &&
    env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS
  ) {
    errors.push(
      'HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  // A statement may run that long without a byte on the connection; its answer must find it open.
  if (
    errors.length === 0 &&
    env.DB_STATEMENT_TIMEOUT_MS > 0 &&
    env.HTTP_SOCKET_TIMEOUT_MS <= env.DB_STATEMENT_TIMEOUT_MS
  ) {
    errors.push('HTTP_SOCKET_TIMEOUT_MS: must exceed DB_STATEMENT_TIMEOUT_MS');
  }
  if (errors.length > 0) {
    throw new Error(`Invalid configuration: ${errors.join('; ')}`);
  }
  return env;
}

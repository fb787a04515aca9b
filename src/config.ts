import ipaddr from 'ipaddr.js';

/**
 * All configuration comes from the environment, read here and nowhere else.
 * Every variable is documented in README.md ("Configuration").
 */
export interface Config {
  host: string;
  port: number;
  /** Directory of the embedded PGlite database, or "memory" for an in-memory one. */
  dataDir: string;
  /** When set, real PostgreSQL is used instead of PGlite: where statements go (may be a transaction-mode pooler). */
  databaseUrl: string | undefined;
  /** A direct connection to the primary, for LISTEN and migrations; DATABASE_URL when unset. */
  databaseDirectUrl: string | undefined;
  /**
   * DATABASE_PREPARED_STATEMENTS: whether statements on DATABASE_URL get names (parsed once per connection).
   * `auto`: only when DATABASE_URL is the direct connection (DATABASE_DIRECT_URL unset or the same);
   * `on`: always (a pooler that carries them, PgBouncer 1.21+ with max_prepared_statements); `off`: never.
   */
  databasePreparedStatements: 'auto' | 'on' | 'off';
  /** A streaming replica of the primary for the heavy reads (statistics, legacy export, search); unset: all on the primary. */
  databaseReadUrl: string | undefined;
  /** How long a replica read waits for the replica to replay the account's last write before it runs on the primary. */
  databaseReadWaitMs: number;
  /** A replica further behind than this (as this instance sees it) is skipped: its reads run on the primary. */
  databaseReadMaxLagMs: number;
  presenceTtlSeconds: number;
  inactivityTimeoutSeconds: number;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Failed authentications (unknown or revoked tokens, unknown apiKeys) a client address may have per window before 429. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  webhookBlockPrivate: boolean;
  /** Outbox events older than this are deleted, unless a webhook still has to deliver them. */
  eventRetentionDays: number;
  /** Messages and page visits older than this are removed, a month partition at a time; null keeps them for good. */
  messageRetentionDays: number | null;
  /** How often each instance looks for committed events whose notification was lost. */
  eventSafetyPollMs: number;
  /** Event streams one token may hold open on an instance at once. */
  eventStreamsPerToken: number;
  /** Event streams one account may hold open on an instance at once. */
  eventStreamsPerAccount: number;
  /** Event streams an instance holds open at once. */
  eventStreamsPerInstance: number;
  /** A visitor token unused this long is refused (docs/widget.md). */
  widgetTokenIdleSeconds: number;
  /** Visitor sessions one client address may start per hour, per instance. */
  widgetSessionsPerHour: number;
  /** Messages (conversation starts and uploads included) one visitor may send per minute, per instance. */
  widgetMessagesPerMinute: number;
  /** Bytes of uploads one account may store in all (docs/behaviour.md §11). */
  uploadQuotaBytes: number;
  /** Bytes one account may upload in any 24 hours. */
  uploadQuotaBytesPerDay: number;
  logLevel: string;
  /** A client must send its request headers within this time, or gets 408 and the connection closes. */
  headersTimeoutMs: number;
  /** A client must send its whole request (headers and body) within this time, or gets 408. */
  requestTimeoutMs: number;
  /** After SIGTERM/SIGINT, the process exits after at most this long, whatever is still running. */
  shutdownTimeoutMs: number;
  /** Statistics and export queries answer 503 (Retry-After) when they take longer, waiting for their turn included. */
  heavyQueryTimeoutMs: number;
  /** PostgreSQL: a request's (or job's) transaction waiting longer than this for a lock is rolled back and answers 503. */
  dbLockTimeoutMs: number;
  /** PostgreSQL: a statement of a request (or job) running longer than this is cancelled, its transaction rolled back: 503. */
  dbStatementTimeoutMs: number;
  /** Bearer token GET /metrics requires; without it and without metricsPort, /metrics is off. */
  metricsToken: string | undefined;
  /** Serves /metrics on this port instead of the API port. */
  metricsPort: number | undefined;
  /**
   * Addresses and CIDRs of the reverse proxies whose X-Forwarded-For / -Proto / -Host are believed
   * (Fastify's trustProxy); empty: none, the client is the connection's peer.
   */
  trustProxy: string[];
  /**
   * Server-side key of stored Idempotency-Key answers (docs/operations.md "Idempotency secret"); unset: `serve`
   * generates one (src/idempotency/secret.ts).
   */
  idempotencySecret: string | undefined;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** An integer in [min, max], written in plain digits ("1e3", "0x10" and " 5" are refused). */
function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** A duration in milliseconds that a timer can hold. */
const milliseconds = (env: Env, name: string, fallback: number) => integer(env, name, fallback, 1, MAX_TIMER_MS);
/** A duration in seconds that a timer can hold once converted to milliseconds. */
const seconds = (env: Env, name: string, fallback: number) => integer(env, name, fallback, 1, Math.floor(MAX_TIMER_MS / 1000));

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A postgres:// (or postgresql://) URL; anything else would fail later with an unrelated DNS error. */
function databaseUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const protocol = URL.canParse(raw) ? new URL(raw).protocol : null;
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must be a URL such as postgres://user:password@host:5432/database`);
  }
  return raw;
}

/** DATABASE_DIRECT_URL: only beside DATABASE_URL (PGlite has no pooler), which it defaults to. */
function databaseDirectUrl(env: Env, statements: string | undefined): string | undefined {
  const direct = databaseUrl(env, 'DATABASE_DIRECT_URL');
  if (direct !== undefined && statements === undefined) throw new ConfigError('DATABASE_DIRECT_URL needs DATABASE_URL');
  return direct ?? statements;
}

/** DATABASE_READ_URL: only beside DATABASE_URL (PGlite has no replica). */
function databaseReadUrl(env: Env, statements: string | undefined): string | undefined {
  const read = databaseUrl(env, 'DATABASE_READ_URL');
  if (read !== undefined && statements === undefined) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL');
  return read;
}

const PREPARED_STATEMENTS = ['auto', 'on', 'off'] as const;

function preparedStatements(env: Env): Config['databasePreparedStatements'] {
  const raw = env.DATABASE_PREPARED_STATEMENTS || 'auto';
  const value = PREPARED_STATEMENTS.find((option) => option === raw);
  if (value === undefined) throw new ConfigError(`DATABASE_PREPARED_STATEMENTS must be one of auto, on, off, got "${raw}"`);
  return value;
}

/** A guessable metrics token would expose every account's traffic figures. */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  return raw;
}

/** Stored answers are only as secret as this key: at least 32 characters (e.g. `openssl rand -base64 32`). */
function idempotencySecret(env: Env): string | undefined {
  const raw = env.IDEMPOTENCY_SECRET;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32 || /\s/.test(raw)) throw new ConfigError('IDEMPOTENCY_SECRET must be at least 32 characters, without spaces');
  return raw;
}

/** @fastify/proxy-addr's names of address ranges, which Fastify's trustProxy also takes. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address (dotted-quad IPv4 or IPv6, no zone) or a CIDR with a prefix length from 1 to 32 or 128, as proxy-addr takes it. */
function proxyAddress(item: string): boolean {
  if (PROXY_RANGES.includes(item)) return true;
  const [address, prefix, ...rest] = item.split('/');
  if (address === undefined || rest.length > 0) return false;
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!v4 && (address.includes('%') || !ipaddr.IPv6.isValid(address))) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (v4 ? 32 : 128);
}

/**
 * The proxies to believe about the client's address (docs/operations.md "Behind a proxy"). Only a list of
 * addresses is safe: `true` would believe any peer, so a client reaching the service directly (or through a
 * proxy that appends to X-Forwarded-For, as nginx does) could pick its address; Fastify ignores hop counts.
 */
function trustProxy(env: Env): string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw.toLowerCase() === 'false') return [];
  if (raw.toLowerCase() === 'true') {
    throw new ConfigError(
      "TRUST_PROXY=true would let any client choose its address with X-Forwarded-For; list the proxies' addresses or CIDRs instead",
    );
  }
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY takes no hop count ("${raw}": it cannot tell a proxy from a client); list the proxies' addresses or CIDRs instead`,
    );
  }
  const items = raw.split(',').map((item) => item.trim());
  const bad = items.find((item) => !proxyAddress(item));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false or a comma-separated list of addresses or CIDRs (such as 10.0.0.5,172.16.0.0/12, or loopback, linklocal, uniquelocal), got "${bad}"`,
    );
  }
  return items;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const headersTimeoutMs = milliseconds(env, 'HEADERS_TIMEOUT_MS', 10_000);
  const requestTimeoutMs = milliseconds(env, 'REQUEST_TIMEOUT_MS', 60_000);
  // Node refuses a request timeout shorter than the headers timeout (the headers are part of the request).
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(`REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be shorter than HEADERS_TIMEOUT_MS (${headersTimeoutMs})`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65_535),
    dataDir: env.DATA_DIR || './data',
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    databaseDirectUrl: databaseDirectUrl(env, databaseUrl(env, 'DATABASE_URL')),
    databasePreparedStatements: preparedStatements(env),
    databaseReadUrl: databaseReadUrl(env, databaseUrl(env, 'DATABASE_URL')),
    databaseReadWaitMs: integer(env, 'DATABASE_READ_WAIT_MS', 1000, 0, 60_000),
    databaseReadMaxLagMs: milliseconds(env, 'DATABASE_READ_MAX_LAG_MS', 10_000),
    presenceTtlSeconds: seconds(env, 'PRESENCE_TTL_SECONDS', 120),
    inactivityTimeoutSeconds: seconds(env, 'INACTIVITY_TIMEOUT_SECONDS', 1800),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000),
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000),
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 20, 1, 1_000_000),
    authFailureWindowSeconds: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', 10, 1, 86_400),
    webhookTimeoutMs: milliseconds(env, 'WEBHOOK_TIMEOUT_MS', 5000),
    webhookRetryBaseMs: milliseconds(env, 'WEBHOOK_RETRY_BASE_MS', 1000),
    webhookBlockPrivate: boolean(env, 'WEBHOOK_BLOCK_PRIVATE', true),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 36_500),
    messageRetentionDays: env.MESSAGE_RETENTION_DAYS ? integer(env, 'MESSAGE_RETENTION_DAYS', 0, 1, 36_500) : null,
    eventSafetyPollMs: milliseconds(env, 'EVENT_SAFETY_POLL_MS', 5000),
    eventStreamsPerToken: integer(env, 'EVENT_STREAMS_PER_TOKEN', 100, 1, 1_000_000),
    eventStreamsPerAccount: integer(env, 'EVENT_STREAMS_PER_ACCOUNT', 10_000, 1, 1_000_000),
    eventStreamsPerInstance: integer(env, 'EVENT_STREAMS_PER_INSTANCE', 15_000, 1, 1_000_000),
    widgetTokenIdleSeconds: integer(env, 'WIDGET_TOKEN_IDLE_SECONDS', 30 * 86_400, 60, 10 * 365 * 86_400),
    widgetSessionsPerHour: integer(env, 'WIDGET_SESSIONS_PER_HOUR', 30, 1, 1_000_000),
    widgetMessagesPerMinute: integer(env, 'WIDGET_MESSAGES_PER_MINUTE', 20, 1, 1_000_000),
    uploadQuotaBytes: integer(env, 'UPLOAD_QUOTA_BYTES', 10 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    uploadQuotaBytesPerDay: integer(env, 'UPLOAD_QUOTA_BYTES_PER_DAY', 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    logLevel,
    headersTimeoutMs,
    requestTimeoutMs,
    shutdownTimeoutMs: milliseconds(env, 'SHUTDOWN_TIMEOUT_MS', 8_000),
    heavyQueryTimeoutMs: milliseconds(env, 'HEAVY_QUERY_TIMEOUT_MS', 30_000),
    dbLockTimeoutMs: milliseconds(env, 'DB_LOCK_TIMEOUT_MS', 5_000),
    dbStatementTimeoutMs: milliseconds(env, 'DB_STATEMENT_TIMEOUT_MS', 30_000),
    metricsToken: metricsToken(env),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65_535) : undefined,
    trustProxy: trustProxy(env),
    idempotencySecret: idempotencySecret(env),
  };
}

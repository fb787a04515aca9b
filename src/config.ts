/**
 * All configuration comes from the environment, read here and nowhere else.
 * Every variable is documented in README.md ("Configuration").
 */
export interface Config {
  host: string;
  port: number;
  /** Directory of the embedded PGlite database, or "memory" for an in-memory one. */
  dataDir: string;
  /** When set, real PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  presenceTtlSeconds: number;
  inactivityTimeoutSeconds: number;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  webhookBlockPrivate: boolean;
  /** Outbox events older than this are deleted, unless a webhook still has to deliver them. */
  eventRetentionDays: number;
  logLevel: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A postgres:// (or postgresql://) URL; anything else would fail later with an unrelated DNS error. */
function databaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  const protocol = URL.canParse(raw) ? new URL(raw).protocol : null;
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/database');
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080),
    dataDir: env.DATA_DIR || './data',
    databaseUrl: databaseUrl(env),
    presenceTtlSeconds: integer(env, 'PRESENCE_TTL_SECONDS', 120, 1),
    inactivityTimeoutSeconds: integer(env, 'INACTIVITY_TIMEOUT_SECONDS', 1800, 1),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 50, 1),
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST', 100, 1),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5000, 1),
    webhookRetryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 1000, 1),
    webhookBlockPrivate: boolean(env, 'WEBHOOK_BLOCK_PRIVATE', false),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1),
    logLevel,
  };
}

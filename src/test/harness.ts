/**
 * Test harness: one real app on one real, migrated database per test file.
 * TEST_ENGINE=pglite (default) uses an in-memory PGlite; TEST_ENGINE=postgres
 * creates a fresh database on the server named by TEST_DATABASE_URL and drops it
 * afterwards. With TEST_DATABASE_DIRECT_URL too, TEST_DATABASE_URL may be a pooler
 * (PgBouncer in transaction mode, scripts/with-pgbouncer.ts): databases are created,
 * migrated and LISTENed to directly, and statements go through the pooler, as
 * DATABASE_URL and DATABASE_DIRECT_URL do in production. Tests isolate themselves by creating their own accounts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDb, type Db, type DbOptions } from '../db/db.ts';
import { migrateDirect } from '../db/migrate.ts';
import type { Deps } from '../deps.ts';
import { createAccount } from '../accounts/service.ts';
import { createToken } from '../tokens/service.ts';
import type { Scope } from '../auth/scopes.ts';
import { randomString } from '../ids.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { measuredDb } from '../metrics/db.ts';
import type { ReplicaState } from '../db/replica.ts';
import { installContractCheck, recordMismatches, takeMismatches, useDocument } from './contract.ts';
import { prismUrl, showPrism } from './prism.ts';

export const engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

/** A clock tests can stop and move; it follows real time until set. */
export class TestClock {
  #fixed: Date | undefined;
  now = (): Date => (this.#fixed ? new Date(this.#fixed) : new Date());
  set(at: Date | string): void {
    this.#fixed = new Date(at);
  }
  advance(seconds: number): void {
    this.#fixed = new Date(this.now().getTime() + seconds * 1000);
  }
  reset(): void {
    this.#fixed = undefined;
  }
}

/**
 * The test server's database `name`: `url` for statements (TEST_DATABASE_URL, perhaps a pooler) and
 * `directUrl` (TEST_DATABASE_DIRECT_URL, else the same) for creating databases, LISTEN and migrations.
 * Without `name`, the server's maintenance database as the URLs give it.
 */
export function testDatabaseUrls(name?: string, server?: TestServer): { url: string; directUrl: string; readUrl: string | undefined } {
  const pooled = server?.url ?? process.env.TEST_DATABASE_URL;
  if (!pooled) throw new Error('TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  const withName = (raw: string) => {
    const url = new URL(raw);
    if (name !== undefined) url.pathname = `/${name}`;
    return url.toString();
  };
  const direct = server ? server.directUrl : process.env.TEST_DATABASE_DIRECT_URL;
  const read = server ? server.readUrl : process.env.TEST_DATABASE_READ_URL;
  return { url: withName(pooled), directUrl: withName(direct || pooled), readUrl: read && withName(read) };
}

/** A PostgreSQL server of a test's own (src/test/replica.ts), instead of TEST_DATABASE_URL's: URLs as TEST_DATABASE_*_URL take them. */
export interface TestServer {
  url: string;
  directUrl?: string;
  readUrl?: string;
}

async function openTestDb(config: Config, server?: TestServer): Promise<{ db: Db; drop: () => Promise<void>; options: DbOptions }> {
  const bounds = {
    heavyQueryTimeoutMs: config.heavyQueryTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
  };
  if (engine === 'pglite' && !server) {
    const options = { dataDir: 'memory', ...bounds };
    const db = await openDb(options);
    return { db, drop: async () => undefined, options };
  }
  const adminUrl = testDatabaseUrls(undefined, server).directUrl;
  const name = `cs_test_${process.pid}_${randomString(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const { url, directUrl, readUrl } = testDatabaseUrls(name, server);
  const replica = { waitMs: config.databaseReadWaitMs, maxLagMs: config.databaseReadMaxLagMs };
  const options = { databaseUrl: url, directUrl, preparedStatements: url === directUrl, readUrl, replica, ...bounds };
  const db = await openDb(options);
  return {
    db,
    options,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * With TEST_DATABASE_READ_URL (scripts/with-pgbouncer.ts): adds the heavy reads this app's database ran on the replica
 * and on the primary, and why, to REPLICA_READS_DIR/<pid>.json, which the script sums and prints after the suite.
 */
function recordReplicaReads(db: Db): void {
  const state = db.replicaState();
  const dir = process.env.REPLICA_READS_DIR;
  if (!state || !dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.json`);
  const sum = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ReplicaState) : undefined;
  const add = <T extends Record<string, number>>(a: T, b: T | undefined) =>
    Object.fromEntries(Object.entries(a).map(([key, value]) => [key, value + (b?.[key] ?? 0)])) as T;
  writeFileSync(file, JSON.stringify({ reads: add(state.reads, sum?.reads), fallbacks: add(state.fallbacks, sum?.fallbacks) }));
}

export interface TestAccount {
  accountId: string;
  token: string;
  apiKey: string;
}

export interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  deps: Deps;
  clock: TestClock;
  /** A new tenant with an all-scopes token. */
  account(): Promise<TestAccount>;
  /** A token of `account` holding only `scopes`. */
  token(account: TestAccount, scopes: Scope[]): Promise<string>;
  /** An HTTP client sending `token` as bearer (none when undefined). */
  client(token?: string): Client;
  close(): Promise<void>;
}

export interface Client {
  get(url: string): Promise<Reply>;
  delete(url: string): Promise<Reply>;
  post(url: string, body?: unknown): Promise<Reply>;
  patch(url: string, body?: unknown): Promise<Reply>;
  request(options: RequestOptions): Promise<Reply>;
}

export interface RequestOptions {
  method: string;
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
  /** The connection's peer address (127.0.0.1 unless given): a client, or a proxy in front of the app. */
  remoteAddress?: string;
}

/**
 * The app on a fresh database: PGlite or TEST_DATABASE_URL's server (TEST_ENGINE), or on `server` when given.
 * `migrations`: only the migration files it accepts are applied (a test of a migration on existing data leaves that
 * one out, then applies it with migrate()).
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  server?: TestServer,
  { migrations }: { migrations?: (name: string) => boolean } = {},
): Promise<TestApp> {
  // Limits high enough for any test but those of the limits (which pass their own).
  const config: Config = {
    ...loadConfig({}),
    rateLimitBurst: 100_000,
    rateLimitPerSecond: 100_000,
    authFailureLimit: 100_000,
    ...overrides,
  };
  const opened = await openTestDb(config, server);
  const metrics = createMetrics();
  const db = measuredDb(opened.db, metrics);
  await migrateDirect(db, opened.options, migrations);
  const clock = new TestClock();
  const deps: Deps = { db, config, now: clock.now, metrics };
  const app = await buildApp(deps, { logger: false });
  // Every exchange is checked against the document the app serves (src/test/contract.ts).
  installContractCheck(app);
  await app.ready();
  useDocument(JSON.parse((await app.inject({ method: 'GET', url: '/v2/openapi.json' })).body));

  const send = async (options: RequestOptions) => {
    const raw = await app.inject({
      method: options.method as never,
      url: options.url,
      payload: options.payload,
      headers: options.headers,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    if (prismUrl) recordMismatches(await showPrism(options, raw));
    let body: unknown = raw.body;
    if (String(raw.headers['content-type'] ?? '').includes('json') && raw.body !== '') body = JSON.parse(raw.body);
    return { status: raw.statusCode, body, headers: raw.headers, raw } as Reply;
  };

  const client = (token?: string): Client => {
    const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const withBody = (method: string) => (url: string, body?: unknown) =>
      send({
        method,
        url,
        payload: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      });
    return {
      get: (url) => send({ method: 'GET', url, headers: auth }),
      delete: (url) => send({ method: 'DELETE', url, headers: auth }),
      post: withBody('POST'),
      patch: withBody('PATCH'),
      request: (options) => send({ ...options, headers: { ...auth, ...options.headers } }),
    };
  };

  return {
    app,
    db,
    deps,
    clock,
    async account() {
      const created = await createAccount(deps);
      return { accountId: created.account_id, token: created.token, apiKey: created.api_key };
    },
    async token(account, scopes) {
      return (await createToken(deps, account.accountId, { name: 'test', scopes })).token;
    },
    client,
    async close() {
      await app.close();
      recordReplicaReads(db);
      await db.close();
      await opened.drop();
      const mismatches = takeMismatches();
      if (mismatches.length > 0) {
        throw new Error(`Responses or 2xx requests that disagree with /v2/openapi.json (src/test/contract.ts):\n${mismatches.join('\n')}`);
      }
    },
  };
}

/** Waits until `check` holds, looking every 50 ms (at most `timeoutMs`): for what a test sees through the API. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${check.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { dbOptionsOf, finishedBefore, openDb, type Db } from './db/db.ts';
import { migrateDirect } from './db/migrate.ts';
import { createFirstAccount } from './accounts/service.ts';
import { startBackgroundJobs } from './jobs.ts';
import { resolveIdempotencySecret } from './idempotency/secret.ts';
import type { Deps } from './deps.ts';
import { createMetrics } from './metrics/metrics.ts';
import { measuredDb } from './metrics/db.ts';
import { startMetricsServer } from './metrics/http.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  /** The METRICS_PORT listener's address, when there is one. */
  metricsUrl: string | undefined;
  /**
   * Stops listening, ends event streams, waits for requests in flight and background jobs, then closes
   * the database, on every path (docs/operations.md#graceful-shutdown). Without a bound it waits as long
   * as they take. With `timeoutMs` (SHUTDOWN_TIMEOUT_MS) it is over within it: requests still running
   * when only the database's reserve is left (closeReserveMs) are cut, and a statement still running
   * after that is abandoned (Db.close's `force`). `now` firing (a second signal) cuts at once.
   * Resolves with `cut`: whether requests were cut.
   */
  stop(options?: { timeoutMs?: number; now?: AbortSignal }): Promise<{ cut: boolean }>;
}

/**
 * The end of SHUTDOWN_TIMEOUT_MS kept for closing the database, and within it the part kept for a
 * forced close. PGlite: half of it, at most 4 s, of which a forced close (ending PGlite's thread, then
 * opening and closing the directory once more: about 2 s) keeps 3 s; PostgreSQL: a quarter, at most 1 s.
 */
export function closeReserveMs(engine: Db['engine'], timeoutMs: number): { close: number; force: number } {
  return engine === 'pglite'
    ? { close: Math.min(timeoutMs / 2, 4000), force: Math.min((timeoutMs * 3) / 8, 3000) }
    : { close: Math.min(timeoutMs / 4, 1000), force: Math.min(timeoutMs / 8, 500) };
}

/** Opens the database, migrates it, creates the first account on an empty one, and listens. */
export async function startServer(config: Config, print: (line: string) => void = console.log): Promise<RunningServer> {
  const metrics = createMetrics();
  /** Lines about the read replica (skipped, used again), logged as the app's once it exists. */
  let log: ((level: 'warn' | 'info', message: string) => void) | undefined;
  const base = dbOptionsOf(config);
  const options = {
    ...base,
    replica: base.replica && { ...base.replica, log: (level: 'warn' | 'info', message: string) => log?.(level, message) },
  };
  const opened = await openDb(options);
  const db = measuredDb(opened, metrics);
  const warnings: string[] = [];
  const idempotencySecret = resolveIdempotencySecret(config, (warning) => warnings.push(warning));
  const deps: Deps = { db, config: { ...config, idempotencySecret }, now: () => new Date(), metrics };
  let app: FastifyInstance | undefined;
  let metricsServer: FastifyInstance | undefined;
  try {
    await migrateDirect(db, options);
    app = await buildApp(deps);
    const logger = app.log;
    log = (level, message) => logger[level](message);
    for (const warning of warnings) app.log.warn(warning);
    await app.listen({ host: config.host, port: config.port });
    if (config.metricsPort !== undefined) metricsServer = await startMetricsServer(metrics, config);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await db.close();
    throw error;
  }
  const url = urlOf(app, config);
  const metricsUrl = metricsServer && urlOf(metricsServer, config);
  if (metricsUrl) app.log.info({ url: `${metricsUrl}/metrics` }, 'metrics listening');

  const account = await createFirstAccount({ db, now: () => new Date() });
  if (account) {
    print(
      [
        '',
        'Created the first account. These secrets are shown once; keep them:',
        `  account id:   ${account.account_id}`,
        `  owner token:  ${account.token}   (every scope)`,
        `  legacy apiKey: ${account.api_key}  (for /stats/...)`,
        `Try: curl -H 'Authorization: Bearer ${account.token}' ${url}/v2/agents`,
        '',
      ].join('\n'),
    );
  }

  const jobs = startBackgroundJobs(deps, app.eventHub, app.log);
  let stopping: Promise<{ cut: boolean }> | undefined;
  const running = app;
  return {
    app: running,
    db,
    url,
    metricsUrl,
    stop: ({ timeoutMs, now } = {}) =>
      (stopping ??= (async () => {
        const started = Date.now();
        const reserve = timeoutMs === undefined ? undefined : closeReserveMs(db.engine, timeoutMs);
        const until = (reserveMs: number) =>
          AbortSignal.timeout(Math.max(0, Math.round(started + (timeoutMs as number) - reserveMs - Date.now())));
        const bound = (reserveMs: number) =>
          reserve === undefined ? now : now ? AbortSignal.any([now, until(reserveMs)]) : until(reserveMs);
        // close() stops accepting connections, ends event streams (their preClose hook) and waits for
        // requests in flight; jobs stop meanwhile (a running pass finishes).
        const work = Promise.all([running.close(), metricsServer?.close(), jobs.stop()]);
        let cut = false;
        try {
          if (!(await finishedBefore(work, bound(reserve?.close ?? 0)))) {
            cut = true;
            work.catch(() => undefined);
            running.server.closeAllConnections();
          }
        } finally {
          // Always closed, whatever failed above: PGlite flushes its files and frees its directory.
          await db.close({ force: bound(reserve?.force ?? 0) });
        }
        return { cut };
      })()),
  };
}

function urlOf(server: FastifyInstance, config: Config): string {
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

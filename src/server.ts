import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
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
  stop(): Promise<void>;
}

/** Opens the database, migrates it, creates the first account on an empty one, and listens. */
export async function startServer(config: Config, print: (line: string) => void = console.log): Promise<RunningServer> {
  const metrics = createMetrics();
  const opened = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    heavyQueryTimeoutMs: config.heavyQueryTimeoutMs,
  });
  const db = measuredDb(opened, metrics);
  const warnings: string[] = [];
  const idempotencySecret = resolveIdempotencySecret(config, (warning) => warnings.push(warning));
  const deps: Deps = { db, config: { ...config, idempotencySecret }, now: () => new Date(), metrics };
  let app: FastifyInstance | undefined;
  let metricsServer: FastifyInstance | undefined;
  try {
    await migrate(db);
    app = await buildApp(deps);
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
  let stopping: Promise<void> | undefined;
  const running = app;
  return {
    app: running,
    db,
    url,
    metricsUrl,
    stop: () =>
      (stopping ??= (async () => {
        // close() stops accepting connections, ends event streams (their preClose hook) and waits for
        // requests in flight; jobs stop meanwhile (a running pass finishes). The caller bounds the wait.
        await Promise.all([running.close(), metricsServer?.close(), jobs.stop()]);
        await db.close();
      })()),
  };
}

function urlOf(server: FastifyInstance, config: Config): string {
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

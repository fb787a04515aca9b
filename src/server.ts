import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { countAccounts, createAccount } from './accounts/service.ts';
import { startBackgroundJobs } from './jobs.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates it, creates the first account on an empty one, and listens. */
export async function startServer(config: Config, print: (line: string) => void = console.log): Promise<RunningServer> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let app: FastifyInstance | undefined;
  try {
    await migrate(db);
    app = await buildApp({ db, config, now: () => new Date() });
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => undefined);
    await db.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  if ((await countAccounts(db)) === 0) {
    const account = await createAccount(db, { name: 'Default account' });
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

  const deps = { db, config, now: () => new Date() };
  const jobs = startBackgroundJobs(deps, app.log);
  let stopping: Promise<void> | undefined;
  const running = app;
  return {
    app: running,
    db,
    url,
    stop: () =>
      (stopping ??= (async () => {
        // close() stops accepting connections and waits for in-flight requests.
        await running.close();
        await jobs.stop();
        await db.close();
      })()),
  };
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { acquireDirectoryLock, type DirectoryLock } from './lock.ts';
import { PGliteThread } from './pglite-thread.ts';

// Counts (int8) and numerics come back as JS numbers on both engines: every value
// this service aggregates fits in a double, and callers should not see strings.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

export interface QueryResult<R> {
  rows: R[];
  rowCount: number | null;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs fn in one transaction; rolls back when it throws. Inside, use only `tx`. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PostgreSQL did not answer at start: a problem of the environment, reported in one line. */
export class DatabaseUnavailableError extends Error {
  constructor(databaseUrl: string, reason: string) {
    const url = new URL(databaseUrl);
    super(`Cannot use the database ${url.host}${url.pathname} (DATABASE_URL): ${reason}`);
  }
}

export interface DbOptions {
  databaseUrl?: string;
  /** PGlite data directory, or "memory". Ignored when databaseUrl is set. */
  dataDir?: string;
}

/**
 * One code path for both engines: node-postgres talks to PostgreSQL over TCP,
 * or to PGlite through PGlite's node-postgres adapter (a pool of one connection,
 * so PGlite transactions serialise naturally). PGlite itself runs in a worker
 * thread (src/db/pglite-thread.ts) so its queries never block the event loop.
 */
export async function openDb(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    try {
      await pool.query('select 1');
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new DatabaseUnavailableError(options.databaseUrl, (error as Error).message);
    }
    return poolDb(pool, 'postgres', async () => pool.end());
  }
  const dataDir = options.dataDir ?? './data';
  let lock: DirectoryLock | undefined;
  let directory = 'memory://';
  if (dataDir !== 'memory') {
    directory = path.resolve(dataDir);
    mkdirSync(directory, { recursive: true });
    lock = acquireDirectoryLock(directory);
  }
  const lite = new PGliteThread(directory);
  try {
    await lite.waitReady;
  } catch (error) {
    await lite.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const pool = new pg.Pool({ ...createPgConfig(lite as never), max: 1 });
  return poolDb(pool, 'pglite', async () => {
    await pool.end();
    await lite.close();
    lock?.release();
  });
}

function poolDb(pool: pg.Pool, engine: Db['engine'], close: () => Promise<void>): Db {
  return {
    engine,
    query: (sql, params) => pool.query(sql, params as unknown[]) as never,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({ query: (sql, params) => client.query(sql, params as unknown[]) as never });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close,
  };
}

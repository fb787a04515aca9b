// What every command group of the CLI shares: opening the database, acting on one account, printing.
import { InvalidArgumentError } from 'commander';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { Deps } from '../deps.ts';
import { createMetrics } from '../metrics/metrics.ts';

/** Opens the configured database, migrated, runs fn, and closes it. */
export async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const [{ openDb, dbOptionsOf }, { migrateDirect }] = await Promise.all([import('../db/db.ts'), import('../db/migrate.ts')]);
  const options = dbOptionsOf(config, false);
  const db = await openDb(options);
  try {
    await migrateDirect(db, options);
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Like withDb, for a command acting on one existing account. */
export function withAccount<T>(config: Config, accountId: string, fn: (deps: Deps) => Promise<T>): Promise<T> {
  return withDb(config, async (db) => {
    const { requireAccount } = await import('../accounts/service.ts');
    await requireAccount(db, accountId);
    return fn({ db, config, now: () => new Date(), metrics: createMetrics() });
  });
}

/** Drops options not given, so the body holds what a JSON caller would have sent. */
export function given(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function print(value: unknown, json: boolean, text: string) {
  console.log(json ? JSON.stringify(value) : text);
}

export function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object');
  return parsed as Record<string, unknown>;
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];

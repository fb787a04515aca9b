import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { openDb, type Db, type DbOptions, type Queryable } from './db.ts';
import { firstRow } from './rows.ts';
import { analyzeTablesWithRows } from './maintenance.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it keeps two instances starting at once from migrating together.
const SCHEMA_LOCK_KEY = 727_2026;

/**
 * Holds the schema's advisory lock until `tx` ends: what instances starting at once on one
 * PostgreSQL database do one at a time (migrating, creating the first account).
 */
export async function lockSchema(tx: Queryable): Promise<void> {
  // A migration may take long, and waits for another instance's: DB_LOCK_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS
  // bound requests, not this transaction.
  await tx.query('set local lock_timeout = 0; set local statement_timeout = 0');
  await tx.query('select pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
}

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/**
 * Applies the numbered SQL files in src/db/migrations that are not applied yet,
 * in one transaction. The server, the CLI and the tests all call this; a test of a
 * migration on existing data leaves it out first (`include`: the files to apply).
 * Returns the names applied now.
 */
export async function migrate(db: Db, include?: (name: string) => boolean): Promise<string[]> {
  const applied = await applyPending(db, include);
  // New columns and indexes of tables with rows (expression indexes have statistics of their own) are planned from fresh statistics.
  if (applied.length > 0) await analyzeTablesWithRows(db);
  return applied;
}

/**
 * migrate() over the direct connection (DbOptions.directUrl, DATABASE_DIRECT_URL) when statements
 * otherwise go elsewhere (a pooler): a migration is one long transaction, kept off the pooler's
 * connections and its timeouts. `db` is the database opened with `options`.
 */
export async function migrateDirect(db: Db, options: DbOptions, include?: (name: string) => boolean): Promise<string[]> {
  if (options.directUrl === undefined || options.directUrl === options.databaseUrl) return migrate(db, include);
  const direct = await openDb({ databaseUrl: options.directUrl, urlSetting: 'DATABASE_DIRECT_URL' });
  try {
    return await migrate(direct, include);
  } finally {
    await direct.close();
  }
}

function applyPending(db: Db, include: ((name: string) => boolean) | undefined): Promise<string[]> {
  return db.transaction(async (tx) => {
    await lockSchema(tx);
    // The one table without account_id: it describes the schema, not a tenant.
    await tx.query(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ version: string }>('select version from schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = migrationFiles().filter((name) => !applied.has(name) && (include?.(name) ?? true));
    for (const name of pending) {
      await tx.query(readFileSync(path.join(MIGRATIONS_DIR, name), 'utf8'));
      await tx.query('insert into schema_migrations (version) values ($1)', [name]);
    }
    return pending;
  });
}

export interface MigrationState {
  version: string;
  /** When it was applied; null while pending. */
  appliedAt: Date | null;
}

/** Every migration file and every applied version (a version without its file too), in order; changes nothing. */
export async function migrationStatus(db: Db): Promise<MigrationState[]> {
  const { rows: table } = await db.query<{ exists: boolean }>("select to_regclass('schema_migrations') is not null as exists");
  const { rows } = firstRow(table).exists
    ? await db.query<{ version: string; applied_at: Date }>('select version, applied_at from schema_migrations')
    : { rows: [] };
  const applied = new Map(rows.map((row) => [row.version, row.applied_at]));
  const versions = [...new Set([...migrationFiles(), ...applied.keys()])].sort();
  return versions.map((version) => ({ version, appliedAt: applied.get(version) ?? null }));
}

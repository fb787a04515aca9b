import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it keeps two instances starting at once from migrating together.
const MIGRATION_LOCK_KEY = 727_2026;

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/**
 * Applies the numbered SQL files in src/db/migrations that are not applied yet,
 * in one transaction. The server, the CLI and the tests all call this.
 * Returns the names applied now.
 */
export async function migrate(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // The one table without account_id: it describes the schema, not a tenant.
    await tx.query(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ version: string }>('select version from schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = migrationFiles().filter((name) => !applied.has(name));
    for (const name of pending) {
      await tx.query(readFileSync(path.join(MIGRATIONS_DIR, name), 'utf8'));
      await tx.query('insert into schema_migrations (version) values ($1)', [name]);
    }
    return pending;
  });
}

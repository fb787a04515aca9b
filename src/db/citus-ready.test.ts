/**
 * The schema stays distributable by account_id (docs/scaling.md): after the migrations, the catalog is read and
 * every table outside the allow-list below is a tenant table, which Citus would shard by `account_id` with
 * `create_distributed_table` and co-locate with the others. Citus refuses (or cannot keep) what this test refuses:
 * a tenant table without `account_id`; a primary key, unique constraint or unique index that leaves it out (Citus
 * enforces uniqueness per shard only); a foreign key between tenant tables that does not carry `account_id` on both
 * sides, column to column (so both rows are always on one shard); and a trigger on a tenant table (Citus runs
 * triggers per shard, on the worker, where the function cannot see other shards; it refuses them by default).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

/**
 * Tables that are not tenant tables, each with why. Keep it short: a new table belongs to an account unless it
 * truly describes the whole installation.
 */
const NOT_TENANT_TABLES: Record<string, string> = {
  // Local table: the migrations' own bookkeeping, kept on the coordinator (never distributed).
  schema_migrations: 'local: the applied migration files',
};

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const rows = async <R>(sql: string) => (await t.db.query<R>(sql)).rows;

/** Tables (plain and partitioned, not partitions) of the service's schema. */
const TABLES = `
  select c.oid, c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`;

describe('the schema is ready to distribute by account_id (Citus)', () => {
  it('lists only tables that exist in its allow-list', async () => {
    const names = new Set((await rows<{ name: string }>(TABLES)).map((row) => row.name));
    assert.deepEqual(
      Object.keys(NOT_TENANT_TABLES).filter((name) => !names.has(name)),
      [],
    );
  });

  it('every tenant table has account_id, not null', async () => {
    const missing = await rows<{ name: string }>(`
      select t.name from (${TABLES}) t
      where not exists (select 1 from pg_attribute a where a.attrelid = t.oid and a.attname = 'account_id'
                          and a.attnotnull and not a.attisdropped)
      order by t.name`);
    assert.deepEqual(
      missing.map((row) => row.name).filter((name) => !(name in NOT_TENANT_TABLES)),
      [],
    );
  });

  it('every primary key, unique constraint and unique index of a tenant table includes account_id', async () => {
    // Unique constraints and primary keys are unique indexes too (pg_index.indisunique).
    const bad = await rows<{ name: string; definition: string }>(`
      select t.name, pg_get_indexdef(x.indexrelid) as definition from (${TABLES}) t
      join pg_index x on x.indrelid = t.oid
      where x.indisunique
        and not exists (select 1 from pg_attribute a where a.attrelid = t.oid and a.attname = 'account_id'
                          and a.attnum = any(x.indkey::int2[]))
      order by t.name, definition`);
    assert.deepEqual(
      bad.filter((row) => !(row.name in NOT_TENANT_TABLES)),
      [],
    );
  });

  it('every foreign key between tenant tables carries account_id to account_id', async () => {
    const keys = await rows<{ name: string; target: string; definition: string; paired: boolean }>(`
      select t.name, f.relname::text as target, pg_get_constraintdef(k.oid) as definition,
             exists (select 1 from unnest(k.conkey, k.confkey) as p (own, their)
                     join pg_attribute a on a.attrelid = k.conrelid and a.attnum = p.own
                     join pg_attribute b on b.attrelid = k.confrelid and b.attnum = p.their
                     where a.attname = 'account_id' and b.attname = 'account_id') as paired
      from (${TABLES}) t join pg_constraint k on k.conrelid = t.oid and k.contype = 'f'
      join pg_class f on f.oid = k.confrelid
      order by t.name, definition`);
    assert.ok(keys.length > 0);
    assert.deepEqual(
      keys.filter((key) => !key.paired && !(key.name in NOT_TENANT_TABLES) && !(key.target in NOT_TENANT_TABLES)),
      [],
    );
  });

  it('no tenant table has a trigger', async () => {
    const triggers = await rows<{ name: string; trigger: string }>(`
      select t.name, g.tgname::text as trigger from (${TABLES}) t join pg_trigger g on g.tgrelid = t.oid
      where not g.tgisinternal order by t.name, trigger`);
    assert.deepEqual(
      triggers.filter((row) => !(row.name in NOT_TENANT_TABLES)),
      [],
    );
  });
});

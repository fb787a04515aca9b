import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { TABLES } from './rows.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

it('declares every table and column of the migrated schema, with its type and nullability (src/db/rows.ts)', async () => {
  const { rows } = await t.db.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: 'YES' | 'NO' }>(
    `select c.table_name, c.column_name, c.udt_name, c.is_nullable
     from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`,
  );
  const catalog: Record<string, Record<string, string>> = {};
  for (const row of rows) (catalog[row.table_name] ??= {})[row.column_name] = `${row.udt_name}${row.is_nullable === 'YES' ? '?' : ''}`;
  // Compared as whole objects, so the failure shows every column that differs, missing or extra, on either side.
  assert.deepEqual(catalog, TABLES);
});

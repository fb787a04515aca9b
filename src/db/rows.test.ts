import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { CHECKED_VALUES, TABLES } from './rows.ts';

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
       -- A month of a partitioned table (src/db/partitions.ts) has its parent's columns: the parent is declared.
       and not (select relispartition from pg_class where oid = format('%I.%I', c.table_schema, c.table_name)::regclass)
     order by c.table_name, c.ordinal_position`,
  );
  const catalog: Record<string, Record<string, string>> = {};
  for (const row of rows) (catalog[row.table_name] ??= {})[row.column_name] = `${row.udt_name}${row.is_nullable === 'YES' ? '?' : ''}`;
  // Compared as whole objects, so the failure shows every column that differs, missing or extra, on either side.
  assert.deepEqual(catalog, TABLES);
});

it('declares the values of every text column a check constraint narrows (src/db/rows.ts CHECKED_VALUES)', async () => {
  const { rows } = await t.db.query<{ table_name: string; definition: string }>(
    `select c.relname as table_name, pg_get_constraintdef(k.oid) as definition
     from pg_constraint k join pg_class c on c.oid = k.conrelid
     where k.contype = 'c' and c.relnamespace = current_schema()::regnamespace and not c.relispartition
     order by c.relname, k.conname`,
  );
  const catalog: Record<string, Record<string, string[]>> = {};
  for (const { table_name, definition } of rows) {
    // `CHECK ((role = ANY (ARRAY['agent'::text, 'admin'::text])))`: a text column's list; other checks narrow no text.
    const [, column, list] = /^CHECK \(\((\w+) = ANY \(ARRAY\[(.*)\]\)\)\)$/.exec(definition) ?? [];
    const values = list === undefined ? [] : [...list.matchAll(/'([^']*)'::text/g)].map((match) => match[1]!);
    if (column !== undefined && values.length > 0) (catalog[table_name] ??= {})[column] = values;
  }
  assert.deepEqual(catalog, CHECKED_VALUES);
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engine, startTestApp, testDatabaseUrls, type TestApp } from '../test/harness.ts';
import { freshStorage, openStorage, startServe } from '../test/processes.ts';
import { openDb, type Db, type DbOptions, type Queryable } from './db.ts';
import { migrate } from './migrate.ts';
import { createAccount } from '../accounts/service.ts';
import { maintainTables, maintenanceSettings, maintenanceWarning, type MaintenanceSettings } from './maintenance.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The server's own autovacuum setting (PGlite reads `on`, but has no autovacuum). */
const serverAutovacuum = async (db: Queryable) =>
  (await db.query<{ on: boolean }>("select current_setting('autovacuum')::boolean as on")).rows[0]!.on;

/** Every ANALYZE of `table` so far, by anyone. */
const analyzeCount = async (db: Queryable, table: string) =>
  (
    await db.query<{ n: number }>(
      'select analyze_count + autoanalyze_count as n from pg_stat_user_tables where relname = $1 and schemaname = current_schema()',
      [table],
    )
  ).rows[0]!.n;

/**
 * Inserts `count` tags of a new account in one transaction and flushes that connection's table
 * statistics, which a connection otherwise reports only once idle for a second.
 */
async function insertTags(db: Db, count: number): Promise<string> {
  const accountId = (await t.account()).accountId;
  await db.transaction(async (tx) => {
    await tx.query(
      "insert into tags (account_id, id, name, created_at) select $1, 'tg' || g, 'tag ' || g, now() from generate_series(1, $2::int) g",
      [accountId, count],
    );
    await tx.query('select pg_stat_force_next_flush()');
  });
  return accountId;
}

it('leaves the empty tables of a new database unanalyzed after migrating it, so the planner does not take them for small ones', async () => {
  const storage = await freshStorage();
  const db = await openStorage(storage);
  try {
    await migrate(db);
    // reltuples -1: never analyzed, planned as at least 10 pages; 0 would be "known empty".
    const { rows } = await db.query<{ name: string; reltuples: number }>(
      `select c.relname as name, c.reltuples from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind = 'r' order by c.relname`,
    );
    assert.ok(rows.length > 15);
    assert.deepEqual(
      rows.filter((row) => row.reltuples >= 0).map((row) => row.name),
      ['schema_migrations'],
      'only the table with rows is analyzed',
    );
  } finally {
    await db.close();
    await storage.cleanup();
  }
});

it('maintains every table on PGlite and on a server without autovacuum, and warns once naming the setting', async () => {
  const settings = await maintenanceSettings(t.db);
  if (engine === 'pglite' || !(await serverAutovacuum(t.db))) {
    assert.equal(settings.allTables, true);
  }
  if (engine === 'postgres' && !(await serverAutovacuum(t.db))) {
    assert.deepEqual(settings.offSettings, ['autovacuum']);
    assert.equal(
      maintenanceWarning(settings),
      'PostgreSQL runs with autovacuum = off: the service analyzes and vacuums its tables itself every 10 seconds (docs/operations.md#table-maintenance)',
    );
  }
  if (engine === 'pglite') assert.equal(maintenanceWarning(settings), null);

  await insertTags(t.db, 300);
  const before = await analyzeCount(t.db, 'tags');
  assert.ok((await maintainTables(t.db, settings)) >= 1);
  assert.equal(await analyzeCount(t.db, 'tags'), before + 1);
  // Nothing changed since: nothing is due.
  assert.equal(await maintainTables(t.db, settings), 0);
  assert.equal(await analyzeCount(t.db, 'tags'), before + 1);
});

it("with the server's autovacuum on, maintains only the tables whose own autovacuum_enabled is off", async () => {
  await insertTags(t.db, 300);
  await t.db.query('alter table tags set (autovacuum_enabled = false)');
  try {
    const withAutovacuum: MaintenanceSettings = { allTables: false, offSettings: [], tablesWithoutAutovacuum: ['tags'] };
    const before = { tags: await analyzeCount(t.db, 'tags'), accounts: await analyzeCount(t.db, 'accounts') };
    assert.equal(await maintainTables(t.db, withAutovacuum), 1);
    assert.deepEqual(
      { tags: await analyzeCount(t.db, 'tags'), accounts: await analyzeCount(t.db, 'accounts') },
      {
        tags: before.tags + 1,
        accounts: before.accounts,
      },
    );
    assert.equal(await maintainTables(t.db, { allTables: false, offSettings: [], tablesWithoutAutovacuum: [] }), 0);
  } finally {
    await t.db.query('alter table tags reset (autovacuum_enabled)');
  }
});

it('analyzes a grown table, so connections plan again the foreign-key checks they planned while it was empty', async () => {
  const storage = await freshStorage();
  const db = await openStorage(storage);
  try {
    await migrate(db);
    const { account_id: accountId } = await createAccount({ db, now: () => new Date() });
    /** Runs `sql` in a transaction whose table statistics are flushed at once (a connection otherwise reports them when idle). */
    const write = (sql: string, params: unknown[]) =>
      db.transaction(async (tx) => {
        await tx.query(sql, params);
        await tx.query('select pg_stat_force_next_flush()');
      });
    const conversations = (from: number, to: number) =>
      write(
        `insert into conversations (account_id, id, status, contact_id, created_at, updated_at)
         select $1, 'co' || g, 'pending', 'ct1', now(), now() from generate_series($2::int, $3::int) g`,
        [accountId, from, to],
      );
    /** A message: its foreign-key check looks the conversation up. */
    const message = (conversationId: string) =>
      write(
        `insert into messages (account_id, id, conversation_id, type, sub_type, content, created_at)
         values ($1, 'ms' || gen_random_uuid(), $2, 'message', 'contact', '{}', now())`,
        [accountId, conversationId],
      );
    /** Rows the lookups read through the index on (account_id, created_at) so far. */
    const readThroughCreated = async () =>
      (await db.query<{ n: number }>("select idx_tup_read as n from pg_stat_user_indexes where indexrelname = 'conversations_created'"))
        .rows[0]!.n;

    await write("insert into contacts (account_id, id, name, created_at, updated_at) values ($1, 'ct1', 'x', now(), now())", [accountId]);
    await conversations(1, 1);
    // A connection plans a statement for its parameters 5 times, then keeps one generic plan if it is no worse.
    for (let i = 0; i < 10; i++) await message('co1');
    await conversations(2, 2000);
    await maintainTables(db, await maintenanceSettings(db));
    const before = await readThroughCreated();
    await message('co2000'); // the newest: a scan of the account's conversations by creation would read them all
    assert.equal(await readThroughCreated(), before, "the check reads one row through the primary key, not the account's conversations");
  } finally {
    await db.close();
    await storage.cleanup();
  }
});

describe('two instances on one database', { skip: engine === 'pglite' && 'PGlite: one process per data directory' }, () => {
  it('analyze each due table once between them', async () => {
    const second = await openDb(await databaseOf(t.db));
    try {
      await insertTags(t.db, 300);
      const settings = await maintenanceSettings(t.db);
      const before = await analyzeCount(t.db, 'tags');
      await Promise.all([maintainTables(t.db, settings), maintainTables(second, settings)]);
      assert.equal(await analyzeCount(t.db, 'tags'), before + 1);
    } finally {
      await second.close();
    }
  });
});

/** The test server's database `db` is connected to, as a second instance would open it. */
async function databaseOf(db: Queryable): Promise<DbOptions> {
  const { url, directUrl } = testDatabaseUrls((await db.query<{ name: string }>('select current_database() as name')).rows[0]!.name);
  return { databaseUrl: url, directUrl, preparedStatements: url === directUrl };
}

it('serve logs the maintenance warning once at start when the server runs without autovacuum, and none on PGlite', async () => {
  const storage = await freshStorage();
  try {
    const server = await startServe(storage.env);
    server.signal('SIGTERM');
    const stopped = await server.exited;
    assert.equal(stopped.code, 0, stopped.stderr);
    const warnings = stopped.stdout.split('\n').filter((line) => line.includes('autovacuum'));
    const expected = engine === 'postgres' && !(await serverAutovacuum(t.db)) ? 1 : 0;
    assert.equal(warnings.length, expected, stopped.stdout);
    if (expected) assert.match(warnings[0]!, /"level":40,.*"msg":"PostgreSQL runs with autovacuum = off: /);
  } finally {
    await storage.cleanup();
  }
});

import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  openDb,
  PGLITE_CONNECTIONS,
  POSTGRES_CONNECTIONS,
  POSTGRES_HEAVY_CONNECTIONS,
  QueryTimeoutError,
  SATURATED_AFTER_MS,
  DatabaseBusyError,
  dbOptionsOf,
  type Db,
  type Queryable,
} from './db.ts';
import { isBegin } from './pglite-thread.ts';
import { serialize } from 'pg-protocol';
import pg from 'pg';
import { migrateDirect } from './migrate.ts';
import { freshStorage, openStorage, tempDataDir } from '../test/processes.ts';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';

const HEAVY_TIMEOUT_MS = 1000;

let t: TestApp;
before(async () => {
  t = await startTestApp({ heavyQueryTimeoutMs: HEAVY_TIMEOUT_MS });
});

/**
 * Takes every connection with small statements that sleep (PGLITE_CONNECTIONS on PGlite's one backend,
 * PostgreSQL POSTGRES_CONNECTIONS): the first for `firstSeconds`, the others until `seconds`.
 * Resolves, with the order log, when all have ended.
 */
function occupyConnections(seconds: number, firstSeconds = seconds, log: string[] = []): Promise<void> {
  // PGlite's connections share one backend, which runs their statements one after another: the others sleep the rest.
  const pglite = t.db.engine === 'pglite';
  const connections = pglite ? PGLITE_CONNECTIONS : POSTGRES_CONNECTIONS;
  const others = pglite ? (seconds - firstSeconds) / (connections - 1) : seconds;
  const holders = Array.from({ length: connections }, (_, i) => t.db.query('select pg_sleep($1)', [i === 0 ? firstSeconds : others]));
  return Promise.all(holders).then(() => void log.push('connections free'));
}
after(() => t.close());

it("returns an answer larger than one of PGlite's output chunks whole, in order", async () => {
  // PGlite hands its worker a response of this size in several pieces (src/db/pglite-worker.mjs joins them).
  const { rows } = await t.db.query<{ n: number; text: string }>(
    'select n, repeat(chr(64 + n), 100000) || n::text as text from generate_series(1, 4) as n order by n',
    [],
  );
  assert.deepEqual(
    rows.map((row) => [row.n, row.text.length, row.text.slice(0, 1), row.text.slice(-1)]),
    [1, 2, 3, 4].map((n) => [n, 100_001, String.fromCharCode(64 + n), String(n)]),
  );
});

it('answers requests while a long query runs (PGlite runs in a worker thread)', async () => {
  // Which ends first, the query or a health check sent into it? On a loaded machine even a long query
  // can end first; then a four times longer one is tried. With PGlite on the main thread no length
  // would do: the query holds the event loop, and the health check is only answered after it.
  let events: string[] = [];
  for (let attempt = 0, rows = 1_000_000; attempt < 4 && events[0] !== 'health answered'; attempt++, rows *= 4) {
    events = [];
    const longQuery = t.db.query('select count(*) as n from generate_series(1, $1::int)', [rows]).then((result) => {
      events.push('query done');
      return result;
    });
    // A timer is the first thing a blocked event loop cannot run.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const health = await t.client().get('/healthz');
    events.push('health answered');
    const result = await longQuery;
    assert.equal(health.status, 200);
    assert.equal(result.rows[0]!.n, rows);
  }
  assert.deepEqual(events, ['health answered', 'query done']);
});

it('sends parameters far larger than a message buffer, in any script, byte for byte', async () => {
  // Each frontend message is serialised into a buffer that grows as it fills (src/db/pglite-thread.ts, pg-protocol).
  const text = 'Grüße, 世界 🙂 '.repeat(20_000);
  const items = Array.from({ length: 300 }, (_, i) => `élément ${i} ${'é'.repeat(i)}`);
  const { rows } = await t.db.query<{ text: string; bytes: number; items: string[] }>(
    'select $1::text as text, octet_length($1::text) as bytes, $2::text[] as items',
    [text, items],
  );
  assert.equal(rows[0]!.text, text);
  assert.equal(rows[0]!.bytes, Buffer.byteLength(text));
  assert.deepEqual(rows[0]!.items, items);
});

it('reports SQL errors as node-postgres errors and keeps working', async () => {
  await assert.rejects(t.db.query('select * from no_such_table'), (error: Error & { code?: string }) => error.code === '42P01');
  const { rows } = await t.db.query<{ one: number }>('select 1 as one');
  assert.equal(rows[0]!.one, 1);
});

it('runs a transaction from its first statement to its commit as one transaction', async () => {
  // PGlite sends the begin with the first statement (src/db/pglite-thread.ts): both must still be one transaction.
  const xactId = (q: { query: typeof t.db.query }) =>
    q.query<{ id: string }>('select pg_current_xact_id()::text as id where $1::int = 1', [1]);
  const ids = await t.db.transaction(async (tx) => [(await xactId(tx)).rows[0]!.id, (await xactId(tx)).rows[0]!.id]);
  assert.equal(ids[0], ids[1]);
  const outside = [(await xactId(t.db)).rows[0]!.id, (await xactId(t.db)).rows[0]!.id];
  assert.notEqual(outside[0], outside[1]);
  assert.equal(await t.db.transaction(async () => 'no statements'), 'no statements');
});

it("recognises a transaction's begin by its statement text, not by its size", () => {
  for (const text of ['begin', 'BEGIN', ' Begin ;', 'begin;']) assert.equal(isBegin(serialize.query(text)), true, text);
  for (const text of ['begun', 'select 1', 'begin isolation level serializable', 'commit', ''])
    assert.equal(isBegin(serialize.query(text)), false, text);
  assert.equal(isBegin(serialize.sync()), false);
});

it('reports a failing first statement of a transaction, rolls back and keeps working', async () => {
  await assert.rejects(
    t.db.transaction((tx) => tx.query('select * from no_such_table where $1::int = 1', [1])),
    (error: Error & { code?: string }) => error.code === '42P01',
  );
  const { rows } = await t.db.transaction((tx) => tx.query<{ one: number }>('select $1::int as one', [1]));
  assert.equal(rows[0]!.one, 1);
});

it('runs a statement again with other parameters, and again after it failed (statements are prepared once per connection)', async () => {
  const sql = 'select 10 / $1::int as quotient';
  for (const [divisor, quotient] of [
    [2, 5],
    [5, 2],
  ])
    assert.equal((await t.db.query<{ quotient: number }>(sql, [divisor])).rows[0]!.quotient, quotient);
  await assert.rejects(t.db.query(sql, [0]), (error: Error & { code?: string }) => error.code === '22012');
  assert.equal((await t.db.query<{ quotient: number }>(sql, [10])).rows[0]!.quotient, 1);
  const broken = 'select no_such_column from accounts where account_id = $1';
  for (let i = 0; i < 2; i++) await assert.rejects(t.db.query(broken, ['x']), (error: Error & { code?: string }) => error.code === '42703');
});

it("commits with a transaction's last statement, rolls back when it fails, and refuses a statement after it", async () => {
  // On PGlite the commit travels with the last statement (Transaction.last): the transaction's own end takes its answer.
  const account = await t.account();
  const name = (await t.db.query<{ name: string }>('select name from accounts where account_id = $1', [account.accountId])).rows[0]!.name;
  const rename = 'update accounts set name = $2 where account_id = $1';
  const stored = async () =>
    (await t.db.query<{ name: string }>('select name from accounts where account_id = $1', [account.accountId])).rows[0]!.name;

  const xid = await t.db.transaction(async (tx) => {
    const first = await tx.query<{ id: string }>('select pg_current_xact_id()::text as id where $1::int = 1', [1]);
    await tx.last.query(rename, [account.accountId, 'renamed once']);
    return first.rows[0]!.id;
  });
  assert.match(xid, /^\d+$/);
  assert.equal(await stored(), 'renamed once');

  await assert.rejects(
    t.db.transaction(async (tx) => {
      await tx.query(rename, [account.accountId, 'renamed twice']);
      await tx.last.query('update accounts set name = $2 where account_id = $1 and 1 / $3::int = 1', [account.accountId, 'x', 0]);
    }),
    (error: Error & { code?: string }) => error.code === '22012',
  );
  assert.equal(await stored(), 'renamed once', 'the failed last statement rolled the whole transaction back');

  await assert.rejects(
    t.db.transaction(async (tx) => {
      await tx.last.query(rename, [account.accountId, name]);
      await tx.query('select 1');
    }),
    /A statement after the transaction's last one/,
  );
  // Only the last statement's transaction ends after the refusal: the connection keeps working.
  assert.equal((await t.db.transaction((tx) => tx.last.query<{ one: number }>('select $1::int as one', [1]))).rows[0]!.one, 1);
  assert.equal((await t.db.query<{ one: number }>('select 1 as one')).rows[0]!.one, 1);
});

it('keeps transactions apart while other statements run beside them: nothing lands between a read and its write', async () => {
  // What the conversations rely on (Transaction.alone): on PGlite its connections share one backend, and nothing of
  // another connection may run between a transaction's statements; on PostgreSQL the row lock does it.
  await t.db.query('create table if not exists counted (id int primary key, n int not null)');
  await t.db.query('insert into counted values (1, 0) on conflict (id) do update set n = 0');
  const increment = () =>
    t.db.transaction(async (tx) => {
      const lock = tx.alone ? '' : ' for update';
      const { rows } = await tx.query<{ n: number }>(`select n from counted where id = $1${lock}`, [1]);
      await sleep(1);
      await tx.last.query('update counted set n = $2 where id = $1', [1, rows[0]!.n + 1]);
    });
  // Writes outside any transaction, sent while the increments run: one landing between an increment's read and its
  // write would be lost.
  const adder = async () => {
    for (let i = 0; i < 20; i++) await t.db.query('update counted set n = n + $2 where id = $1', [1, 1000]);
  };
  await Promise.all([...Array.from({ length: 40 }, increment), adder(), adder()]);
  assert.deepEqual((await t.db.query('select n from counted where id = $1', [1])).rows, [{ n: 40 + 2 * 20 * 1000 }]);
  await t.db.query('drop table counted');
});

it('runs a transaction whose only statement is its last as that statement alone, on a direct PostgreSQL connection', async (test) => {
  if (t.db.engine !== 'postgres') return test.skip('PostgreSQL');
  // Through a pooler small work sets its bounds in a transaction of its own, and with a replica a write's commit reports
  // where the WAL is: each needs a statement before or after the write.
  const pooled = (process.env.TEST_DATABASE_DIRECT_URL || process.env.TEST_DATABASE_URL) !== process.env.TEST_DATABASE_URL;
  const alone = !pooled && !process.env.TEST_DATABASE_READ_URL;
  // In a transaction now() is its start, before its statement's own; a statement alone is its transaction. (Without
  // parameters: the extended protocol would start the statement's clock again at its execution.)
  const startedAlone = async (q: Queryable, sql = 'select now() = statement_timestamp() as alone') =>
    (await q.query<{ alone: boolean }>(sql)).rows[0]!.alone;
  assert.equal(await t.db.transaction((tx) => startedAlone(tx.last)), alone);
  const inOne = await t.db.transaction(async (tx) => [await startedAlone(tx), await startedAlone(tx.last)]);
  assert.deepEqual(inOne, [false, false], 'two statements share one transaction');
  const account = await t.account();
  const write = `update accounts set name = name where account_id = ${pg.escapeLiteral(account.accountId)} returning now() = statement_timestamp() as alone`;
  assert.equal(await startedAlone(t.db, write), alone, 'a single write alone too');
});

it("bounds small work's statements by DB_STATEMENT_TIMEOUT_MS on PostgreSQL, and never table maintenance's", async (test) => {
  if (t.db.engine !== 'postgres') return test.skip('PostgreSQL');
  const storage = await freshStorage();
  const db = await openDb(dbOptionsOf(loadConfig({ ...storage.env, DB_STATEMENT_TIMEOUT_MS: '300' })));
  try {
    // Small work takes every connection first: on a direct connection its bounds are then that session's settings.
    await Promise.all(Array.from({ length: POSTGRES_CONNECTIONS }, () => db.query('select pg_sleep(0.05)')));
    const slow = 'with slept as (select pg_sleep($1)) select 1 from slept';
    await assert.rejects(
      db.transaction((tx) => tx.last.query(slow, [1])),
      DatabaseBusyError,
    );
    await assert.rejects(db.query(slow, [1]), DatabaseBusyError);
    assert.equal((await db.maintenance.query(slow, [0.6])).rowCount, 1);
    assert.equal((await db.heavy.query(slow, [0.6])).rowCount, 1);
    await assert.rejects(
      db.transaction(async (tx) => tx.query(slow, [1])),
      DatabaseBusyError,
      'small work is bounded again after',
    );
  } finally {
    await db.close();
    await storage.cleanup();
  }
});

it("migrates, and analyzes what it changed, free of small work's bounds on a direct connection too", async (test) => {
  if (t.db.engine !== 'postgres') return test.skip('PostgreSQL');
  const storage = await freshStorage();
  const options = dbOptionsOf(loadConfig({ ...storage.env, DB_STATEMENT_TIMEOUT_MS: '1', DB_LOCK_TIMEOUT_MS: '1' }));
  const db = await openDb(options);
  try {
    const applied = await migrateDirect(db, options);
    assert.ok(applied.length > 10, `applied ${applied.length} migrations`);
  } finally {
    await db.close();
    await storage.cleanup();
  }
});

it('rolls a failed transaction back', async () => {
  const account = await t.account();
  await assert.rejects(
    t.db.transaction(async (tx) => {
      await tx.query("update accounts set name = 'changed' where account_id = $1", [account.accountId]);
      throw new Error('abort');
    }),
  );
  const { rows } = await t.db.query<{ name: string }>('select name from accounts where account_id = $1', [account.accountId]);
  assert.notEqual(rows[0]!.name, 'changed');
});

/**
 * A backlog of heavy work: transactions holding every heavy turn for 0.5 s, and behind them
 * as many holding it for 4 s. Small statements pass (they go first), heavy ones queue behind.
 */
function occupyHeavyLane(): Promise<void> {
  const turns = t.db.engine === 'pglite' ? 1 : POSTGRES_HEAVY_CONNECTIONS;
  // Past the timeout a holder's caller stops waiting (caught here), but the holder keeps its turn until its work ends.
  // With a read replica (TEST_DATABASE_READ_URL) statistics and the export read there: its lane is held too.
  const lanes = t.db.reads === t.db.heavy ? [t.db.heavy] : [t.db.heavy, t.db.reads];
  const hold = (lane: Db, ms: number) =>
    new Promise<void>((ended) => {
      lane
        .transaction(async (tx) => {
          await tx.query('select 1');
          await sleep(ms);
          ended();
        })
        .catch(() => undefined);
    });
  const waves = [500, 4000].flatMap((ms) => lanes.flatMap((lane) => Array.from({ length: turns }, () => hold(lane, ms))));
  return Promise.all(waves).then(() => undefined);
}

it('starts small statements before queued heavy ones', async () => {
  const order: string[] = [];
  // The first connection frees after 0.5 s, the others after 3 s (PostgreSQL): one turn to give. On PGlite a heavy
  // statement waits for every connection to be free (it runs alone), so they all free within its timeout there.
  const occupied = occupyConnections(t.db.engine === 'pglite' ? 0.8 : 3, 0.5);
  const heavy = t.db.heavy.query("select 'heavy'").then(() => order.push('heavy'));
  const small = t.db.query("select 'small'").then(() => order.push('small'));
  await Promise.all([occupied, heavy, small]);
  assert.deepEqual(order, ['small', 'heavy']);
});

it('gives a heavy statement its turn while small ones keep every connection busy without pause', { timeout: 120_000 }, async () => {
  // Writers at many connections: the small queue is never empty. Table maintenance (heavy, without timeout) must still run.
  const connections = t.db.engine === 'pglite' ? PGLITE_CONNECTIONS : POSTGRES_CONNECTIONS;
  let heavyDone = false;
  let smallAfterHeavyQueued = 0;
  let heavyQueued = false;
  const writer = async () => {
    while (!heavyDone) {
      await t.db.query('select pg_sleep(0.005)');
      if (heavyQueued && !heavyDone) smallAfterHeavyQueued++;
    }
  };
  const writers = Array.from({ length: 2 * connections }, writer);
  await sleep(100);
  heavyQueued = true;
  await t.db.maintenance.query('select 1');
  heavyDone = true;
  await Promise.all(writers);
  assert.ok(smallAfterHeavyQueued > connections, 'small statements kept starting while the heavy one waited');
});

it('fails a heavy statement that waits or runs past HEAVY_QUERY_TIMEOUT_MS, and keeps working', async () => {
  const occupied = occupyConnections(4);
  await assert.rejects(t.db.heavy.query('select 1'), (error) => error instanceof QueryTimeoutError && error.timeoutMs === HEAVY_TIMEOUT_MS);
  await occupied;
  // Running too long: PostgreSQL cancels the statement, PGlite stops waiting for it.
  await assert.rejects(t.db.heavy.query('select pg_sleep(3)'), QueryTimeoutError);
  await t.db.query('select 1'); // on PGlite, after the sleep that still runs
  assert.deepEqual((await t.db.heavy.query<{ one: number }>('select 1 as one')).rows, [{ one: 1 }]);
});

it('answers statistics and the legacy export with 503 and Retry-After past HEAVY_QUERY_TIMEOUT_MS', async () => {
  const account = await t.account();
  const occupied = occupyHeavyLane();
  const [statistics, legacy] = await Promise.all([
    t.client(account.token).post('/v2/statistics', { x: { name: 'new_conversation', range: { from: null, to: null } } }),
    t.client().get(`/stats/totals?apiKey=${account.apiKey}&from=2024-03-01&to=2024-03-02`),
  ]);
  await occupied;
  const message = `The statistics query did not finish within ${HEAVY_TIMEOUT_MS} ms (HEAVY_QUERY_TIMEOUT_MS): the database is busy or the range too large; retry later or ask for a shorter range`;
  assert.deepEqual(
    [statistics.status, statistics.headers['retry-after'], statistics.body],
    [503, '10', { code: 'service_unavailable', message }],
  );
  assert.deepEqual(
    [legacy.status, legacy.headers['retry-after'], legacy.body],
    [503, '10', { success: false, error: { code: 'service_unavailable', message } }],
  );
  assert.equal(
    (await t.client(account.token).post('/v2/statistics', { x: { name: 'new_conversation', range: { from: null, to: null } } })).status,
    200,
  );
});

it('starts on a new database whatever HEAVY_QUERY_TIMEOUT_MS: the statistics refresh after migrations is not a request', async () => {
  const storage = await freshStorage();
  try {
    // 1 ms: shorter than the ANALYZE after the migrations of a new database; a large database meets 30 s the same way.
    const server = await startServer(
      loadConfig({ ...storage.env, HOST: '127.0.0.1', PORT: '0', HEAVY_QUERY_TIMEOUT_MS: '1', LOG_LEVEL: 'silent' }),
      () => undefined,
    );
    try {
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    } finally {
      await server.stop();
    }
  } finally {
    await storage.cleanup();
  }
});

it('answers /readyz and /healthz while every connection is busy', async () => {
  const order: string[] = [];
  const occupied = occupyConnections(2, 2, order);
  const [ready, health] = await Promise.all([t.client().get('/readyz'), t.client().get('/healthz')]);
  order.push('answered');
  await occupied;
  assert.deepEqual([ready.status, health.status], [200, 200]);
  assert.deepEqual(order, ['answered', 'connections free']);
});

it('answers /readyz without waiting for a statement under way (PGlite runs its connections on one backend)', async () => {
  const order: string[] = [];
  const running = t.db.query('select pg_sleep(2)').then(() => order.push('statement ended'));
  await sleep(200);
  const ready = await t.client().get('/readyz');
  order.push('answered');
  await running;
  assert.equal(ready.status, 200);
  assert.deepEqual(order, ['answered', 'statement ended']);
});

it('answers /readyz 503 once every connection has been busy for SATURATED_AFTER_MS, and 200 once one is free (issue 18.15)', async () => {
  const occupied = occupyConnections((SATURATED_AFTER_MS + 1500) / 1000);
  await sleep(SATURATED_AFTER_MS + 300);
  const ready = await t.client().get('/readyz');
  await occupied;
  assert.deepEqual(
    [ready.status, ready.body],
    [
      503,
      {
        code: 'service_unavailable',
        message: `The database takes no more work for now: every connection has been busy for over ${SATURATED_AFTER_MS / 1000} s`,
      },
    ],
  );
  assert.equal((await t.client().get('/readyz')).status, 200);
});

/** PostgreSQL's state in a PGlite directory's control file: 1 when it was shut down cleanly, 6 while open (or after a crash). */
const controlState = (dir: string) => readFileSync(path.join(dir, 'global', 'pg_control')).readInt32LE(16);

it('closes PGlite within a forced close even while a statement runs, leaving the directory closed and unlocked (issue 18.15)', async (test) => {
  if (t.db.engine !== 'pglite') return test.skip('PGlite only: PostgreSQL cancels statements');
  const storage = tempDataDir();
  try {
    const dir = storage.env.DATA_DIR;
    const db = await openDb({ dataDir: dir });
    await db.query('create table kept (n int)');
    await db.query('insert into kept values (42)');
    assert.equal(controlState(dir), 6, 'open');
    const running = db.heavy.query('select pg_sleep(600)').then(
      () => 'finished',
      () => 'abandoned',
    );
    await sleep(200);
    await db.close({ force: AbortSignal.timeout(100) });
    assert.equal(await running, 'abandoned');
    assert.equal(controlState(dir), 1, 'shut down cleanly');
    assert.deepEqual(
      readdirSync(dir).filter((file) => file.startsWith('chat-service.lock')),
      [],
      'the lock is released',
    );
    const again = await openDb({ dataDir: dir });
    assert.deepEqual((await again.query('select n from kept')).rows, [{ n: 42 }]);
    await again.close();
  } finally {
    await storage.cleanup();
  }
});

it('a forced close does not wait for a running statement on PostgreSQL either', async (test) => {
  if (t.db.engine !== 'postgres') return test.skip('PostgreSQL');
  const storage = await freshStorage();
  try {
    const db = await openStorage(storage);
    const running = db.query('select pg_sleep(600)').catch(() => undefined);
    await sleep(200);
    await db.close({ force: AbortSignal.timeout(100) });
    void running;
  } finally {
    await storage.cleanup();
  }
});

/**
 * Heavy reads on a real streaming replica that applies WAL 1 s late (DATABASE_READ_URL, src/db/replica.ts):
 * read-your-writes per account, reads counted by where they ran, a replica stopped (reads fall back to the
 * primary, every request answered), and a replica statement cancelled by recovery (40001) run again on the primary.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { engine, startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { skipWithoutPostgresServer, startReplicaPair, type ReplicaPair } from '../test/replica.ts';
import { loadConfig } from '../config.ts';
import { dbOptionsOf } from './db.ts';

// Engine-independent (its own servers): once per suite run, on its PGlite pass.
const skip = engine === 'postgres' ? 'run on the PGlite pass (its own primary and replica)' : skipWithoutPostgresServer;

describe('DATABASE_READ_URL settings', () => {
  it('needs DATABASE_URL, and takes a wait and a lag bound', () => {
    assert.throws(() => loadConfig({ DATABASE_READ_URL: 'postgres://chat@replica/chat' }), /DATABASE_READ_URL needs DATABASE_URL/);
    const config = loadConfig({
      DATABASE_URL: 'postgres://chat@db/chat',
      DATABASE_READ_URL: 'postgres://chat@replica/chat',
      DATABASE_READ_WAIT_MS: '250',
      DATABASE_READ_MAX_LAG_MS: '5000',
    });
    const { readUrl, replica } = dbOptionsOf(config);
    assert.equal(readUrl, 'postgres://chat@replica/chat');
    assert.deepEqual(replica, { waitMs: 250, maxLagMs: 5000 });
    assert.equal(dbOptionsOf(config, false).readUrl, undefined, 'the CLI reads the primary');
    assert.equal(loadConfig({}).databaseReadUrl, undefined);
  });
});

// Later than CI's suite run through the pooler (300 ms) and waited for longer than the default bound, so that
// on a loaded machine the replica still lacks a write when the test looks, and a read still waits for it there.
describe('heavy reads on a replica applying WAL 1 s late', { skip }, () => {
  let pair: ReplicaPair;
  let t: TestApp;
  before(async () => {
    pair = await startReplicaPair({
      primaryPort: 5510,
      replicaPort: 5511,
      applyDelayMs: 1000,
      prefix: 'replica-router-',
      // A replayed lock cancels conflicting replica statements soon (the 40001 test).
      replicaSettings: { max_standby_streaming_delay: '100ms' },
    });
    t = await startTestApp({ databaseReadWaitMs: 15_000 }, { url: pair.primaryUrl(), readUrl: pair.replicaUrl() });
  });
  after(async () => {
    await t?.close();
    await pair?.stop();
  });

  const state = () => structuredClone(t.db.replicaState()!);
  const conversations = async (token: string) => {
    const res = await t.client(token).post('/v2/statistics', { n: { name: 'new_conversation', range: { from: null, to: null } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.n.count as number;
  };
  /** What the replica itself shows right now, bypassing the router. */
  const onReplica = async (sql: string, params: unknown[]) => {
    const { rows } = await t.db.query<{ name: string }>('select current_database() as name');
    const client = new pg.Client({ connectionString: pair.replicaUrl(rows[0]!.name) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows[0];
    } finally {
      await client.end();
    }
  };

  it('shows a write at once to a statistics read of the same account, served by the replica once it has the write', async () => {
    await pair.caughtUp();
    const account = await t.account();
    const f = conversationFactory(t, account);
    assert.equal(await conversations(account.token), 0);
    const before = state();
    await f.conversation({ text: 'Hello' });
    // The replica has not applied it yet: a router reading there at once would answer 0.
    const { n } = await onReplica('select count(*)::int as n from conversations where account_id = $1', [account.accountId]);
    assert.equal(n, 0, 'the replica applied the write at once: this test proves nothing');
    assert.equal(await conversations(account.token), 1);
    const after = state();
    assert.equal(after.reads.replica - before.reads.replica, 1, JSON.stringify(after));
    assert.equal(after.reads.primary, before.reads.primary);
  });

  it('does not wait for the writes of other accounts', async () => {
    const writer = await t.account();
    const reader = await t.account();
    await pair.caughtUp();
    await conversationFactory(t, writer).conversation({ text: 'Hi' });
    const before = state();
    assert.equal(await conversations(reader.token), 0);
    assert.equal(state().reads.replica - before.reads.replica, 1);
  });

  it('counts the replica reads in the metrics', async () => {
    const account = await t.account();
    await conversations(account.token);
    const text = await t.deps.metrics.registry.metrics();
    const served = Number(/chat_db_reads_total\{target="replica"\} (\d+)/.exec(text)?.[1]);
    assert.ok(served >= 1, text);
    assert.match(text, /chat_db_replica_fallbacks_total\{reason="down"\} \d+/);
    assert.match(text, /chat_db_replica_lag_seconds \d/);
  });

  it('answers from the primary while the replica is down, and uses it again once it is back', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    await pair.stopReplica();
    try {
      const before = state();
      await f.conversation({ text: 'While the replica is down' });
      assert.equal(await conversations(account.token), 1);
      assert.equal(await conversations(account.token), 1);
      const after = state();
      assert.equal(after.reads.primary - before.reads.primary, 2);
      assert.equal(after.reads.replica, before.reads.replica);
      assert.ok(after.fallbacks.down - before.fallbacks.down >= 2, JSON.stringify(after));
    } finally {
      await pair.startReplica();
    }
    const back = state();
    for (let i = 0; i < 100 && state().reads.replica === back.reads.replica; i++) {
      assert.equal(await conversations(account.token), 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(state().reads.replica > back.reads.replica, 'the replica was never used again');
  });

  it('runs a replica statement cancelled by recovery (40001) again on the primary', async () => {
    await t.db.query('create table replica_conflict (n int)');
    await t.db.query('insert into replica_conflict values (1), (2)');
    await pair.caughtUp();
    const before = state();
    // Outside any request: no write to wait for, so it starts on the replica and holds its table for 2 s.
    const read = t.db.reads.query<{ n: number }>('select count(*)::int as n from replica_conflict cross join pg_sleep(2)');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Replayed on the replica, this lock conflicts with the read there, which recovery cancels after 100 ms.
    await t.db.transaction(async (tx) => {
      await tx.query('lock table replica_conflict in access exclusive mode');
    });
    assert.deepEqual((await read).rows, [{ n: 2 }]);
    const after = state();
    assert.equal(after.fallbacks.conflict - before.fallbacks.conflict, 1, JSON.stringify(after));
    assert.equal(after.reads.primary - before.reads.primary, 1);
  });
});

/**
 * The replica harness (src/test/replica.ts) itself: the replica streams from the primary and applies WAL as late
 * as asked, is read-only, and can be stopped and started again; everything is removed afterwards.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { engine } from './harness.ts';
import { skipWithoutPostgresServer, startReplicaPair, type ReplicaPair } from './replica.ts';

// Engine-independent: once per suite run, on its PGlite pass.
const skip = engine === 'postgres' ? 'the harness is checked on the PGlite pass' : skipWithoutPostgresServer;

async function one<R>(url: string, sql: string, params: unknown[] = []): Promise<R> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows[0] as R;
  } finally {
    await client.end();
  }
}

describe('a primary and a replica applying WAL 300 ms late', { skip }, () => {
  let pair: ReplicaPair;
  before(async () => {
    pair = await startReplicaPair({ primaryPort: 5502, replicaPort: 5503, applyDelayMs: 300, prefix: 'replica-harness-' });
  });
  after(() => pair?.stop());

  it('shows a committed row on the replica only after the delay, and refuses writes there', async () => {
    await one(pair.primaryUrl(), 'create table harness_rows (n int)');
    await pair.caughtUp();
    await one(pair.primaryUrl(), 'insert into harness_rows values (1)');
    const early = await one<{ n: number }>(pair.replicaUrl(), 'select count(*)::int as n from harness_rows');
    assert.equal(early.n, 0, 'the replica applied the commit at once');
    await pair.caughtUp();
    assert.equal((await one<{ n: number }>(pair.replicaUrl(), 'select count(*)::int as n from harness_rows')).n, 1);
    assert.equal((await one<{ r: boolean }>(pair.replicaUrl(), 'select pg_is_in_recovery() as r')).r, true);
    await assert.rejects(one(pair.replicaUrl(), 'insert into harness_rows values (2)'), { code: '25006' });
  });

  it('stops and starts the replica again', async () => {
    await pair.stopReplica();
    await assert.rejects(one(pair.replicaUrl(), 'select 1'));
    await pair.startReplica();
    assert.deepEqual(await one(pair.replicaUrl(), 'select 1 as one'), { one: 1 });
  });

  it('removes its directory when stopped', async () => {
    const other = await startReplicaPair({ primaryPort: 5504, replicaPort: 5505, prefix: 'replica-harness-' });
    let dir: string;
    try {
      dir = (await one<{ d: string }>(other.primaryUrl(), "select current_setting('data_directory') as d")).d;
      assert.ok(existsSync(dir), dir);
    } finally {
      await other.stop();
    }
    assert.equal(existsSync(dir), false);
  });
});

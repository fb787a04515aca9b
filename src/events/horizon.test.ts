/**
 * The settled horizon reads, it does not write (issue 18.11): a step assigns no
 * transaction id, and the hub backs off while a write transaction stays open, so
 * an idle psql session with an open transaction neither burns transaction ids
 * (toward wraparound, on a server without autovacuum) nor spins the hub.
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Db } from '../db/db.ts';
import { engine, startTestApp, type TestApp } from '../test/harness.ts';
import { EventHorizon, settledEventId } from './horizon.ts';
import { EventHub, STEP_RETRY_MAX_MS } from './hub.ts';
import { recordEvent } from './outbox.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/**
 * The database as the horizon sees it, each statement run in a transaction of its own that
 * then asks whether the statement assigned it a transaction id: counts the statements that
 * read the events sequence (horizon steps) and the transaction ids they took.
 */
function countingDb(db: Db) {
  const counts = { steps: 0, xids: 0 };
  const counting = {
    ...db,
    engine: db.engine,
    listen: (channel: string, handler: (payload: string) => void) => db.listen(channel, handler),
    query: (sql: string, params?: unknown[]) =>
      db.transaction(async (tx) => {
        const result = await tx.query(sql, params);
        const { rows } = await tx.query<{ xid: string | null }>('select pg_current_xact_id_if_assigned()::text as xid');
        if (sql.includes('events_id_seq')) counts.steps++;
        if (rows[0]!.xid !== null) counts.xids++;
        return result;
      }),
  } as Db;
  return { db: counting, counts };
}

describe('the settled horizon', () => {
  it('takes no transaction id, and settles committed events', async () => {
    const account = await t.account();
    const { db, counts } = countingDb(t.db);
    const id = await t.db.transaction((tx) =>
      recordEvent(tx, account.accountId, new Date(), 'conversation.updated', { marker: 'x' }, 'coX'),
    );
    const horizon = new EventHorizon();
    // Another test file's open transaction (the suite shares the server) holds the horizon back while it lasts:
    // step until the event settles, within a bound that only keeps a broken horizon from hanging the test.
    const deadline = Date.now() + 30_000;
    while (horizon.settled < id && Date.now() < deadline) {
      await horizon.advance(db);
      if (horizon.settled < id) await sleep(20);
    }
    assert.ok(counts.steps >= 1, `${counts.steps} steps`);
    assert.equal(counts.xids, 0, 'no step assigned a transaction id');
    assert.ok(horizon.settled >= id, 'the committed event is settled');
    assert.ok((await settledEventId(db)) >= id);
    assert.equal(counts.xids, 0);
  });
});

describe('a write transaction left open', { skip: engine === 'pglite' }, () => {
  it('costs no transaction ids and a step every few hundred ms at most', async (test: TestContext) => {
    const url = process.env.TEST_DATABASE_URL as string;
    const account = await t.account();
    const { db, counts } = countingDb(t.db);
    const hub = new EventHub(db, { safetyPollMs: 60_000, streamsPerAccount: 10, streamsPerInstance: 10 });
    await hub.start();
    const open = new pg.Client({ connectionString: url });
    const observer = new pg.Client({ connectionString: url });
    await open.connect();
    await observer.connect();
    try {
      // An idle session holding a transaction id: the horizon cannot pass events committed after it.
      await open.query('begin');
      await open.query('select pg_current_xact_id()');
      await t.db.transaction((tx) => recordEvent(tx, account.accountId, new Date(), 'conversation.updated', { marker: 'held' }, 'coHeld'));
      let woken = false;
      let wake!: () => void;
      const wokenOnce = new Promise<void>((resolve) => (wake = resolve));
      const subscription = hub.subscribe(
        { accountId: account.accountId },
        {
          deliver: () => {
            woken = true;
            wake();
          },
        },
      );

      const xidBefore = BigInt((await observer.query<{ x: string }>('select pg_current_xact_id()::text as x')).rows[0]!.x);
      const stepsBefore = counts.steps;
      const waitedMs = 2000;
      await sleep(waitedMs);
      const steps = counts.steps - stepsBefore;
      const xidAfter = BigInt((await observer.query<{ x: string }>('select pg_current_xact_id()::text as x')).rows[0]!.x);
      test.diagnostic(
        `in ${waitedMs} ms with a transaction open: ${steps} horizon steps, ${counts.xids} transaction ids taken by them, ` +
          `${xidAfter - xidBefore - 1n} taken in the whole cluster (other sessions included)`,
      );
      assert.equal(woken, false, 'nothing settles past the open transaction');
      assert.equal(counts.xids, 0, 'the steps took no transaction id');
      // At 5 ms between steps (before the backoff) this was hundreds; backing off to STEP_RETRY_MAX_MS, about a dozen.
      assert.ok(steps <= 2 * (waitedMs / STEP_RETRY_MAX_MS) + 10, `${steps} steps in ${waitedMs} ms`);

      await open.query('commit');
      await wokenOnce; // settles once the transaction ends
      subscription.close();
    } finally {
      await open.end();
      await observer.end();
      await hub.close();
    }
  });
});

import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

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
    assert.equal(result.rows[0].n, rows);
  }
  assert.deepEqual(events, ['health answered', 'query done']);
});

it('reports SQL errors as node-postgres errors and keeps working', async () => {
  await assert.rejects(t.db.query('select * from no_such_table'), (error: Error & { code?: string }) => error.code === '42P01');
  const { rows } = await t.db.query<{ one: number }>('select 1 as one');
  assert.equal(rows[0].one, 1);
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
  assert.notEqual(rows[0].name, 'changed');
});

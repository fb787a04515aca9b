import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { createFirstAccount } from './service.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

it('creates one first account however many instances ask at once (on PostgreSQL, each on its own connection)', async () => {
  const created = await Promise.all(Array.from({ length: 8 }, () => createFirstAccount(t.deps)));
  assert.equal(created.filter((account) => account !== null).length, 1);
  assert.deepEqual((await t.db.query('select count(*) as n from accounts')).rows, [{ n: 1 }]);
  assert.equal(await createFirstAccount(t.deps), null, 'none once one exists');
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /v2/tags', () => {
  it('creates a group and lists it, for its account only', async () => {
    const account = await t.account();
    const other = await t.account();
    await t.client(other.token).post('/v2/tags', { name: 'Theirs' });
    const res = await t.client(account.token).post('/v2/tags', { name: 'VIP' });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^tg[\w-]{12}$/);
    assert.equal(res.body.name, 'VIP');
    assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = await t.client(account.token).get('/v2/tags');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { tags: [res.body] });
  });

  it('rejects a missing or empty name and an unknown property, creating nothing', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const cases: [unknown, [string, string][]][] = [
      [{}, [['name', 'required']]],
      [{ name: '' }, [['name', 'minLength']]],
      [{ name: 'x'.repeat(101) }, [['name', 'maxLength']]],
      [{ name: 7 }, [['name', 'type']]],
      [{ name: 'ok', color: 'red' }, [['color', 'additionalProperties']]],
    ];
    for (const [body, expected] of cases) {
      const res = await client.post('/v2/tags', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
    assert.deepEqual((await client.get('/v2/tags')).body, { tags: [] });
  });

  it('needs account:manage to create and to list', async () => {
    const account = await t.account();
    const token = await t.token(account, ['agents:read', 'agents:manage']);
    for (const res of [await t.client(token).post('/v2/tags', { name: 'x' }), await t.client(token).get('/v2/tags')]) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    }
  });
});

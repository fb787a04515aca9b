import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /v2/tokens', () => {
  it('creates a working token shown only in the response', async () => {
    const account = await t.account();
    const res = await t
      .client(account.token)
      .post('/v2/tokens', { name: 'reporting', scopes: ['agents:read', 'agents:read', 'contacts:read'] });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^tk[\w-]{12}$/);
    assert.equal(res.body.name, 'reporting');
    assert.deepEqual(res.body.scopes, ['agents:read', 'contacts:read']);
    assert.match(res.body.token, /^cs_[\w-]{40}$/);
    assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    assert.equal((await t.client(res.body.token).get('/v2/agents')).status, 200);
    const denied = await t.client(res.body.token).post('/v2/contacts', {});
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { code: 'forbidden', message: 'Missing scope contacts:write' });

    const list = await t.client(account.token).get('/v2/tokens');
    const listed = list.body.tokens.find((token: { id: string }) => token.id === res.body.id);
    assert.deepEqual(listed, {
      id: res.body.id,
      name: 'reporting',
      scopes: ['agents:read', 'contacts:read'],
      created_at: res.body.created_at,
    });
    assert.doesNotMatch(JSON.stringify(list.body), /cs_/);
  });

  it('rejects unknown scopes, an empty list and a missing name, creating nothing', async () => {
    const account = await t.account();
    const cases: [unknown, [string, string][]][] = [
      [{ name: 'x', scopes: ['agents:read', 'root'] }, [['scopes[1]', 'enum']]],
      [{ name: 'x', scopes: [] }, [['scopes', 'minItems']]],
      [{ scopes: ['agents:read'] }, [['name', 'required']]],
      [{ name: 'x', scopes: 'agents:read' }, [['scopes', 'type']]],
    ];
    for (const [body, expected] of cases) {
      const res = await t.client(account.token).post('/v2/tokens', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
    assert.deepEqual(
      (await t.client(account.token).get('/v2/tokens')).body.tokens.map((token: { name: string }) => token.name),
      ['owner'],
    );
  });

  it('grants only scopes the calling token holds', async () => {
    const account = await t.account();
    const manager = await t.token(account, ['account:manage', 'agents:read']);
    const res = await t.client(manager).post('/v2/tokens', { name: 'wider', scopes: ['agents:read', 'contacts:write'] });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Cannot grant scope contacts:write: the calling token lacks it' });
    assert.equal((await t.client(manager).post('/v2/tokens', { name: 'narrower', scopes: ['agents:read'] })).status, 200);
    const names = (await t.client(account.token).get('/v2/tokens')).body.tokens.map((token: { name: string }) => token.name);
    assert.deepEqual(names.sort(), ['narrower', 'owner', 'test']);
  });
});

describe('DELETE /v2/tokens/{id}', () => {
  it('revokes at once, even a token just used, and unlists it', async () => {
    const account = await t.account();
    const created = (await t.client(account.token).post('/v2/tokens', { name: 'temp', scopes: ['agents:read'] })).body;
    assert.equal((await t.client(created.token).get('/v2/agents')).status, 200);
    const res = await t.client(account.token).delete(`/v2/tokens/${created.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    const after = await t.client(created.token).get('/v2/agents');
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'unauthorized');
    assert.match(String(after.headers['www-authenticate']), /^Bearer/);
    const ids = (await t.client(account.token).get('/v2/tokens')).body.tokens.map((token: { id: string }) => token.id);
    assert.ok(!ids.includes(created.id));
    const again = await t.client(account.token).delete(`/v2/tokens/${created.id}`);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { code: 'not_found', message: `Token ${created.id} not found` });
  });

  it("answers another account's token as not found and leaves it working", async () => {
    const account = await t.account();
    const other = await t.account();
    const theirs = (await t.client(other.token).post('/v2/tokens', { name: 'theirs', scopes: ['agents:read'] })).body;
    const res = await t.client(account.token).delete(`/v2/tokens/${theirs.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
    assert.equal((await t.client(theirs.token).get('/v2/agents')).status, 200);
  });

  it('lists only the tokens of the account', async () => {
    const account = await t.account();
    const other = await t.account();
    await t.client(other.token).post('/v2/tokens', { name: 'theirs', scopes: ['agents:read'] });
    const res = await t.client(account.token).get('/v2/tokens');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.tokens.map((token: { name: string }) => token.name),
      ['owner'],
    );
  });

  it('needs account:manage', async () => {
    const account = await t.account();
    const token = await t.token(account, ['agents:read']);
    for (const res of [
      await t.client(token).get('/v2/tokens'),
      await t.client(token).post('/v2/tokens', { name: 'x', scopes: ['agents:read'] }),
      await t.client(token).delete('/v2/tokens/tkWhatever'),
    ]) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    }
  });
});

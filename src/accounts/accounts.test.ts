import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('GET/PATCH /v2/account', () => {
  it('reads the settings of the calling account', async () => {
    const account = await t.account();
    const res = await t.client(account.token).get('/v2/account');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, account.accountId);
    assert.equal(res.body.name, 'My account');
    assert.equal(res.body.timezone, 'UTC');
    assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(res.body.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('stamps created_at and updated_at with the service clock, not the database clock', async () => {
    t.clock.set('2031-02-03T04:05:06.789Z');
    try {
      const account = await t.account();
      const client = t.client(account.token);
      const created = (await client.get('/v2/account')).body;
      assert.deepEqual([created.created_at, created.updated_at], ['2031-02-03T04:05:06.789Z', '2031-02-03T04:05:06.789Z']);
      t.clock.advance(60);
      const updated = (await client.patch('/v2/account', { name: 'Later' })).body;
      assert.deepEqual([updated.created_at, updated.updated_at], ['2031-02-03T04:05:06.789Z', '2031-02-03T04:06:06.789Z']);
      const token = (await client.post('/v2/tokens', { name: 'stamped', scopes: ['agents:read'] })).body;
      assert.equal(token.created_at, '2031-02-03T04:06:06.789Z');
    } finally {
      t.clock.reset();
    }
  });

  it('updates the name and the time zone, each alone', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    let res = await client.patch('/v2/account', { timezone: 'Europe/Paris' });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.name, res.body.timezone], ['My account', 'Europe/Paris']);
    res = await client.patch('/v2/account', { name: 'Acme' });
    assert.deepEqual([res.body.name, res.body.timezone], ['Acme', 'Europe/Paris']);
    assert.deepEqual((await client.get('/v2/account')).body, res.body);
  });

  it('checks a time zone outside the heavy lane: HEAVY_QUERY_TIMEOUT_MS bounds statistics, not settings', async () => {
    // 1 ms: shorter than reading the zone list, as 30 s is when statistics queue in the heavy lane.
    const short = await startTestApp({ heavyQueryTimeoutMs: 1 });
    try {
      const account = await short.account();
      const res = await short.client(account.token).patch('/v2/account', { timezone: 'Europe/Paris' });
      assert.deepEqual([res.status, res.body.timezone], [200, 'Europe/Paris']);
    } finally {
      await short.close();
    }
  });

  it('leaves the account untouched on an empty body', async () => {
    const account = await t.account();
    const before = (await t.client(account.token).get('/v2/account')).body;
    const res = await t.client(account.token).patch('/v2/account', {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, before);
  });

  it('rejects a time zone that is not an IANA name and changes nothing', async () => {
    const account = await t.account();
    for (const timezone of ['Mars/Olympus', 'europe/paris ', '+02:00']) {
      const res = await t.client(account.token).patch('/v2/account', { name: 'Changed', timezone });
      assert.equal(res.status, 422, timezone);
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
        [['timezone', 'format', 'body']],
      );
    }
    const after = (await t.client(account.token).get('/v2/account')).body;
    assert.deepEqual([after.name, after.timezone], ['My account', 'UTC']);
  });

  it('rejects an empty name, a wrong type and unknown properties', async () => {
    const account = await t.account();
    const cases: [unknown, [string, string][]][] = [
      [{ name: '' }, [['name', 'minLength']]],
      [{ timezone: 1 }, [['timezone', 'type']]],
      [{ api_key: 'x' }, [['api_key', 'additionalProperties']]],
    ];
    for (const [body, expected] of cases) {
      const res = await t.client(account.token).patch('/v2/account', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
  });

  it('changes only the calling account', async () => {
    const account = await t.account();
    const other = await t.account();
    await t.client(account.token).patch('/v2/account', { name: 'Mine' });
    assert.equal((await t.client(other.token).get('/v2/account')).body.name, 'My account');
  });

  it('needs account:manage', async () => {
    const account = await t.account();
    const token = await t.token(account, ['agents:read', 'statistics:read']);
    for (const res of [await t.client(token).get('/v2/account'), await t.client(token).patch('/v2/account', { name: 'x' })]) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    }
  });
});

describe('POST /v2/account/api-key/rotate', () => {
  const totals = (apiKey: string) => t.client().get(`/stats/totals?apiKey=${encodeURIComponent(apiKey)}&from=2024-03-01&to=2024-03-02`);

  it('answers a new apiKey; the old one is refused at once, other accounts keep theirs', async () => {
    const account = await t.account();
    const other = await t.account();
    assert.equal((await totals(account.apiKey)).status, 200);
    const res = await t.client(account.token).post('/v2/account/api-key/rotate');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['api_key']);
    assert.match(res.body.api_key, /^ak_[\w-]{32}$/);
    assert.notEqual(res.body.api_key, account.apiKey);
    const refused = await totals(account.apiKey);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'unauthorized');
    assert.equal((await totals(res.body.api_key)).status, 200);
    assert.equal((await totals(other.apiKey)).status, 200);
    // Bearer tokens are not touched.
    assert.equal((await t.client(account.token).get('/v2/account')).status, 200);
  });

  it('needs account:manage and changes nothing without it', async () => {
    const account = await t.account();
    const token = await t.token(account, ['statistics:read', 'agents:manage']);
    const res = await t.client(token).post('/v2/account/api-key/rotate');
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    assert.equal((await totals(account.apiKey)).status, 200);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const URL_OK = 'https://93.184.215.14/hook';

describe('POST /v2/webhooks', () => {
  it('creates a webhook for every event with a generated secret, shown only on create', async () => {
    const account = await t.account();
    const client = t.client(await t.token(account, ['account:manage']));
    const res = await client.post('/v2/webhooks', { url: URL_OK });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^wh[\w-]{12}$/);
    assert.equal(res.body.url, URL_OK);
    assert.equal(res.body.events, null);
    // Standard Webhooks form: whsec_ + the base64 of 32 random bytes.
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.match(res.body.created_at, ISO);

    const list = await client.get('/v2/webhooks');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { webhooks: [{ id: res.body.id, url: URL_OK, events: null, created_at: res.body.created_at }] });
  });

  it('keeps the given secret and event types', async () => {
    const account = await t.account();
    const body = {
      url: 'https://93.184.215.14/hooks?x=1',
      events: ['contact.created', 'conversation.closed'],
      secret: 'a-secret-of-16-chars+',
    };
    const res = await t.client(account.token).post('/v2/webhooks', body);
    assert.equal(res.status, 200);
    assert.deepEqual({ url: res.body.url, events: res.body.events, secret: res.body.secret }, body);
  });

  it('accepts events: null as every event', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/webhooks', { url: URL_OK, events: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.events, null);
  });

  const invalid: [string, unknown, { path: string; code: string }][] = [
    ['a missing url', {}, { path: 'url', code: 'required' }],
    ['a url that is not a URL', { url: 'not a url' }, { path: 'url', code: 'format' }],
    ['a non-http url', { url: 'ftp://example.com/x' }, { path: 'url', code: 'format' }],
    ['a javascript: url', { url: 'javascript:alert(1)' }, { path: 'url', code: 'format' }],
    ['an unknown event type', { url: URL_OK, events: ['conversation.deleted'] }, { path: 'events[0]', code: 'enum' }],
    ['an empty event list', { url: URL_OK, events: [] }, { path: 'events', code: 'minItems' }],
    ['a repeated event type', { url: URL_OK, events: ['agent.updated', 'agent.updated'] }, { path: 'events', code: 'uniqueItems' }],
    ['a short secret', { url: URL_OK, secret: 'short' }, { path: 'secret', code: 'minLength' }],
    ['an unknown property', { url: URL_OK, active: true }, { path: 'active', code: 'additionalProperties' }],
  ];
  for (const [name, body, error] of invalid) {
    it(`rejects ${name} with 422 and creates nothing`, async () => {
      const account = await t.account();
      const res = await t.client(account.token).post('/v2/webhooks', body);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string; location: string }) => ({
          path: e.path,
          code: e.code,
          location: e.location,
        })),
        [{ ...error, location: 'body' }],
      );
      assert.deepEqual((await t.client(account.token).get('/v2/webhooks')).body, { webhooks: [] });
    });
  }
});

describe('webhook management scopes', () => {
  it('needs account:manage on every route', async () => {
    const account = await t.account();
    const created = await t.client(account.token).post('/v2/webhooks', { url: URL_OK });
    const client = t.client(await t.token(account, ['events:read', 'agents:manage']));
    for (const res of [
      await client.post('/v2/webhooks', { url: URL_OK }),
      await client.get('/v2/webhooks'),
      await client.delete(`/v2/webhooks/${created.body.id}`),
      await client.get(`/v2/webhooks/${created.body.id}/deliveries`),
    ]) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    }
    assert.equal((await t.client(account.token).get('/v2/webhooks')).body.webhooks.length, 1);
  });

  it('answers 401 without a token, before validating the body', async () => {
    const res = await t.client().post('/v2/webhooks', { url: 'ftp://nope' });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'unauthorized');
  });
});

describe('DELETE /v2/webhooks/{id}', () => {
  it('deletes the webhook, then answers 404', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const kept = await client.post('/v2/webhooks', { url: URL_OK });
    const gone = await client.post('/v2/webhooks', { url: URL_OK });
    const res = await client.delete(`/v2/webhooks/${gone.body.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.deepEqual(
      (await client.get('/v2/webhooks')).body.webhooks.map((w: { id: string }) => w.id),
      [kept.body.id],
    );
    const again = await client.delete(`/v2/webhooks/${gone.body.id}`);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { code: 'not_found', message: `Webhook ${gone.body.id} not found` });
    assert.equal((await client.get(`/v2/webhooks/${gone.body.id}/deliveries`)).status, 404);
  });
});

describe('GET /v2/webhooks/{id}/deliveries', () => {
  it('is empty for a new webhook', async () => {
    const account = await t.account();
    const created = await t.client(account.token).post('/v2/webhooks', { url: URL_OK });
    const res = await t.client(account.token).get(`/v2/webhooks/${created.body.id}/deliveries`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { deliveries: [] });
  });

  it('answers 404 for an unknown id', async () => {
    const account = await t.account();
    const res = await t.client(account.token).get('/v2/webhooks/whnope/deliveries');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { code: 'not_found', message: 'Webhook whnope not found' });
  });
});

describe('webhook tenancy', () => {
  it("answers another account's webhook as missing and never lists it", async () => {
    const owner = await t.account();
    const created = await t.client(owner.token).post('/v2/webhooks', { url: URL_OK });
    const other = t.client((await t.account()).token);
    assert.deepEqual((await other.get('/v2/webhooks')).body, { webhooks: [] });
    const deliveries = await other.get(`/v2/webhooks/${created.body.id}/deliveries`);
    assert.equal(deliveries.status, 404);
    assert.equal(deliveries.body.code, 'not_found');
    const deleted = await other.delete(`/v2/webhooks/${created.body.id}`);
    assert.equal(deleted.status, 404);
    assert.equal((await t.client(owner.token).get('/v2/webhooks')).body.webhooks.length, 1);
  });
});

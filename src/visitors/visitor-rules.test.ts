import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { widgetSite, type WidgetSite } from '../test/widget-sites.ts';
import { engine, startTestApp, waitUntil, type Reply, type TestApp } from '../test/harness.ts';
import { startWebhookReceiver } from '../test/webhooks.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';

const SESSIONS_PER_HOUR = 3;
const MESSAGES_PER_MINUTE = 4;
const IDLE_SECONDS = 3600;

let t: TestApp;
before(async () => {
  t = await startTestApp({
    widgetSessionsPerHour: SESSIONS_PER_HOUR,
    widgetMessagesPerMinute: MESSAGES_PER_MINUTE,
    widgetTokenIdleSeconds: IDLE_SECONDS,
    // The webhook receiver listens on 127.0.0.1.
    webhookBlockPrivate: false,
  });
});
after(() => t.close());

/** Each session from an address of its own, so the per-address limit only bites where a test wants it to. */
let addresses = 0;
const newAddress = () => `10.25.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const site = () => widgetSite(t, 'rules');

function session(s: WidgetSite, body: Record<string, unknown> = {}, remoteAddress = newAddress()): Promise<Reply> {
  return t.client().request({
    method: 'POST',
    url: '/widget/v1/session',
    payload: JSON.stringify({ widget_key: s.widgetKey, ...body }),
    headers: { origin: s.origin, 'content-type': 'application/json' },
    remoteAddress,
  });
}

function call(s: WidgetSite, token: string, method: string, url: string, body?: unknown): Promise<Reply> {
  return t.client(token).request({
    method,
    url,
    payload: body === undefined ? undefined : JSON.stringify(body),
    headers: { origin: s.origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
}

/** What a site's server computes (docs/widget.md), written here independently of the service's code. */
function sign(secret: string, identity: { id: string; name?: string | null; email?: string | null; expires_at: number }) {
  const canonical = `${identity.id}\n${identity.name ?? ''}\n${identity.email ?? ''}\n${identity.expires_at}`;
  return { ...identity, signature: createHmac('sha256', secret).update(canonical, 'utf8').digest('hex') };
}

const inSeconds = (seconds: number) => Math.floor(t.clock.now().getTime() / 1000) + seconds;

async function identitySecret(s: WidgetSite): Promise<string> {
  const res = await t.client(s.account.token).post('/v2/account/widget-identity-secret/rotate');
  assert.equal(res.status, 200);
  assert.match(res.body.widget_identity_secret, /^wis_[\w-]{40}$/);
  return res.body.widget_identity_secret;
}

describe('identity verification', () => {
  it('attaches the session to the contact of a signed identity, on every device', async () => {
    const s = await site();
    const secret = await identitySecret(s);
    assert.equal((await t.client(s.account.token).get('/v2/account')).body.widget_identity_secret_set, true);
    const identity = sign(secret, { id: 'user-42', name: 'Jana Nováková', email: 'jana@example.com', expires_at: inSeconds(600) });
    const first = await session(s, { identity });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const contact = await t.client(s.account.token).get(`/v2/contacts/${first.body.contact_id}`);
    assert.deepEqual([contact.body.identity_id, contact.body.name, contact.body.email], ['user-42', 'Jana Nováková', 'jana@example.com']);
    const conv = (await call(s, first.body.token, 'POST', '/widget/v1/conversations', { text: 'From the laptop' })).body;
    const second = await session(s, { identity });
    assert.equal(second.body.contact_id, first.body.contact_id);
    assert.notEqual(second.body.token, first.body.token);
    const list = await call(s, second.body.token, 'GET', '/widget/v1/conversations');
    assert.deepEqual(
      list.body.items.map((c: { id: string }) => c.id),
      [conv.id],
    );
    // An anonymous token is not resumed into someone's identity: the identity's contact wins.
    const anonymous = await session(s);
    const switched = await session(s, { token: anonymous.body.token, identity });
    assert.equal(switched.body.contact_id, first.body.contact_id);
  });

  it('refuses a forged, altered, expired or too distant identity, and one signed with a rotated secret', async () => {
    const s = await site();
    const secret = await identitySecret(s);
    const good = sign(secret, { id: 'user-7', name: 'Sam', expires_at: inSeconds(600) });
    const contactsBefore = (await t.db.query('select count(*)::int as n from contacts where account_id = $1', [s.account.accountId])).rows;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['forged', sign('wis_not-the-secret', { id: 'user-7', name: 'Sam', expires_at: inSeconds(600) }), /does not match/],
      ['another id', { ...good, id: 'user-8' }, /does not match/],
      ['another name', { ...good, name: 'Admin' }, /does not match/],
      ['a later expiry', { ...good, expires_at: good.expires_at + 3600 }, /does not match/],
      ['expired', sign(secret, { id: 'user-7', expires_at: inSeconds(-1) }), /expired/],
      ['expiring now', sign(secret, { id: 'user-7', expires_at: inSeconds(0) }), /expired/],
      ['too far ahead', sign(secret, { id: 'user-7', expires_at: inSeconds(25 * 3600) }), /too far/],
    ];
    for (const [name, identity, message] of cases) {
      const res = await session(s, { identity });
      assert.deepEqual([res.status, res.body.code], [401, 'invalid_identity'], name);
      assert.match(res.body.message, message, name);
    }
    // Valid until its expiry, never after: no replay.
    assert.equal((await session(s, { identity: good })).status, 200);
    t.clock.set(new Date((good.expires_at + 1) * 1000));
    try {
      const replayed = await session(s, { identity: good });
      assert.deepEqual([replayed.status, replayed.body.code], [401, 'invalid_identity']);
    } finally {
      t.clock.reset();
    }
    await identitySecret(s);
    const rotated = await session(s, { identity: sign(secret, { id: 'user-7', expires_at: inSeconds(600) }) });
    assert.deepEqual([rotated.status, rotated.body.code], [401, 'invalid_identity']);
    const lineBreak = await session(s, { identity: sign(secret, { id: 'user-7', name: 'Sam\nuser-8', expires_at: inSeconds(600) }) });
    assert.equal(lineBreak.status, 422);
    const contactsAfter = (await t.db.query('select count(*)::int as n from contacts where account_id = $1', [s.account.accountId])).rows;
    assert.deepEqual(
      contactsAfter,
      contactsBefore.map(({ n }) => ({ n: (n as number) + 1 })),
      'only the good identity made a contact',
    );
  });

  it('can be required by the account, once it has a secret', async () => {
    const s = await site();
    const early = await t.client(s.account.token).patch('/v2/account', { widget_identity_required: true });
    assert.equal(early.status, 422);
    assert.deepEqual(
      early.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['widget_identity_required', 'required']],
    );
    const anonymousBefore = await session(s);
    assert.equal(anonymousBefore.status, 200);
    const secret = await identitySecret(s);
    const res = await t.client(s.account.token).patch('/v2/account', { widget_identity_required: true });
    assert.equal(res.body.widget_identity_required, true);
    const anonymous = await session(s);
    assert.deepEqual([anonymous.status, anonymous.body.code], [401, 'invalid_identity']);
    const resumed = await session(s, { token: anonymousBefore.body.token });
    assert.deepEqual([resumed.status, resumed.body.code], [401, 'invalid_identity']);
    assert.equal((await session(s, { identity: sign(secret, { id: 'u1', expires_at: inSeconds(60) }) })).status, 200);
  });
});

describe('a session started while its contact is erased', () => {
  it(
    'answers 401 invalid_identity when the erasure begins between the identity’s lookup and the session’s insert',
    { skip: engine === 'pglite' && 'PGlite runs one transaction at a time: the two cannot interleave' },
    async () => {
      const s = await site();
      const secret = await identitySecret(s);
      const identity = sign(secret, { id: 'erased-meanwhile', expires_at: inSeconds(60) });
      const first = await session(s, { identity });
      assert.equal(first.status, 200);
      const sessionsOf = async () =>
        (
          await t.db.query<{ n: number }>('select count(*)::int as n from widget_sessions where account_id = $1 and contact_id = $2', [
            s.account.accountId,
            first.body.contact_id,
          ])
        ).rows[0]!.n;
      let started: Promise<Reply> | undefined;
      // The session's insert waits for this lock; the identity's lookup (a read) does not.
      await t.db.transaction(async (tx) => {
        await tx.query('lock table widget_sessions in share mode');
        started = session(s, { identity });
        await waitUntil(
          async () =>
            (
              await t.db.query<{ n: number }>(
                `select count(*)::int as n from pg_locks where relation = 'widget_sessions'::regclass and not granted`,
              )
            ).rows[0]!.n > 0,
        );
        await t.db.query('update contacts set erasing_at = now() where account_id = $1 and id = $2', [
          s.account.accountId,
          first.body.contact_id,
        ]);
      });
      const res = await started!;
      assert.deepEqual([res.status, res.body.code], [401, 'invalid_identity'], JSON.stringify(res.body));
      assert.equal(await sessionsOf(), 1, 'no session was added for the contact being erased');
    },
  );
});

describe('limits', () => {
  it('limits new sessions per client address, not resumed ones', async () => {
    const s = await site();
    const address = newAddress();
    const first = await session(s, {}, address);
    for (let i = 1; i < SESSIONS_PER_HOUR; i++) assert.equal((await session(s, {}, address)).status, 200);
    const refused = await session(s, {}, address);
    assert.deepEqual([refused.status, refused.body.code], [429, 'too_many_requests']);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await session(s, { token: first.body.token }, address)).status, 200, 'a resume is not a new session');
    assert.equal((await session(s, {}, newAddress())).status, 200, 'another address is not limited');
  });

  it('limits messages per visitor and their length', async () => {
    const s = await site();
    const token = (await session(s)).body.token;
    const conv = await call(s, token, 'POST', '/widget/v1/conversations', { text: 'One' });
    assert.equal(conv.status, 200);
    const long = await call(s, token, 'POST', `/widget/v1/conversations/${conv.body.id}/messages`, { text: 'x'.repeat(5001) });
    assert.equal(long.status, 422);
    assert.deepEqual(
      long.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['text', 'maxLength']],
    );
    for (let i = 1; i < MESSAGES_PER_MINUTE; i++) {
      assert.equal((await call(s, token, 'POST', `/widget/v1/conversations/${conv.body.id}/messages`, { text: `#${i}` })).status, 200);
    }
    const refused = await call(s, token, 'POST', `/widget/v1/conversations/${conv.body.id}/messages`, { text: 'One too many' });
    assert.deepEqual([refused.status, refused.body.code], [429, 'too_many_requests']);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const stored = await t.client(s.account.token).get(`/v2/conversations/${conv.body.id}/messages`);
    assert.equal(stored.body.total, MESSAGES_PER_MINUTE);
    // Another visitor of the same account is not limited by this one.
    const other = (await session(s)).body.token;
    assert.equal((await call(s, other, 'POST', '/widget/v1/conversations', { text: 'Hi' })).status, 200);
  });
});

describe('uploads and the per-visitor limit', () => {
  it('counts an upload from the moment its file is read, even one whose query string is then refused', async () => {
    const s = await site();
    const token = (await session(s)).body.token;
    const upload = (query: string) =>
      t.client(token).request({
        method: 'POST',
        url: `/widget/v1/uploads?file_name=a.pdf${query}`,
        payload: '%PDF-1.4',
        headers: { origin: s.origin, 'content-type': 'application/pdf' },
      });
    assert.equal((await upload('')).status, 200);
    for (let i = 1; i < MESSAGES_PER_MINUTE; i++) {
      const refused = await upload('&unknown=1');
      assert.deepEqual([refused.status, refused.body.errors[0].path], [422, 'unknown']);
    }
    const limited = await upload('');
    assert.deepEqual([limited.status, limited.body.code], [429, 'too_many_requests']);
    const { rows } = await t.db.query('select id from uploads where account_id = $1', [s.account.accountId]);
    assert.equal(rows.length, 1);
  });
});

describe('typing signals', () => {
  it('are events for the agents, not messages, limited per visitor', async () => {
    const s = await site();
    const token = (await session(s)).body.token;
    const conv = (await call(s, token, 'POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    const typing = (is_typing: boolean) => call(s, token, 'POST', `/widget/v1/conversations/${conv.id}/typing`, { is_typing });
    assert.deepEqual([(await typing(true)).body, (await typing(false)).body], [{ ok: true }, { ok: true }]);
    const refused = await typing(true);
    assert.deepEqual([refused.status, refused.body.code], [429, 'too_many_requests']);
    const other = (await session(s)).body.token;
    const otherConv = (await call(s, other, 'POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    const bad = await call(s, other, 'POST', `/widget/v1/conversations/${otherConv.id}/typing`, { is_typing: 'yes' });
    assert.deepEqual([bad.status, bad.body.errors?.[0]?.path], [422, 'is_typing']);
    const events = await t.db.query<{ data: unknown }>(
      "select data from events where account_id = $1 and type = 'conversation.contact_typing' order by id",
      [s.account.accountId],
    );
    assert.deepEqual(
      events.rows.map((row) => row.data),
      [true, false].map((is_typing) => ({ conversation_id: conv.id, is_typing })),
    );
    const messages = await t.client(s.account.token).get(`/v2/conversations/${conv.id}/messages`);
    assert.equal(messages.body.total, 1);
  });
});

describe('token expiry and revocation', () => {
  it('expires a token left idle, and keeps a used one alive', async () => {
    const s = await site();
    t.clock.set(new Date());
    try {
      const used = (await session(s)).body.token;
      const idle = (await session(s)).body.token;
      t.clock.advance(IDLE_SECONDS - 60);
      assert.equal((await call(s, used, 'GET', '/widget/v1/conversations')).status, 200);
      t.clock.advance(120);
      assert.equal((await call(s, used, 'GET', '/widget/v1/conversations')).status, 200);
      const expired = await call(s, idle, 'GET', '/widget/v1/conversations');
      assert.deepEqual([expired.status, expired.body.code], [401, 'unauthorized']);
    } finally {
      t.clock.reset();
    }
  });

  it('revokes the tokens of an erased contact', async () => {
    const s = await site();
    const visitor = (await session(s)).body;
    await call(s, visitor.token, 'POST', '/widget/v1/conversations', { text: 'Forget me' });
    const erased = await t.client(s.account.token).delete(`/v2/contacts/${visitor.contact_id}`);
    assert.equal(erased.status, 200);
    const refused = await call(s, visitor.token, 'GET', '/widget/v1/conversations');
    assert.deepEqual([refused.status, refused.body.code], [401, 'unauthorized']);
    const rows = await t.db.query('select count(*)::int as n from widget_sessions where account_id = $1', [s.account.accountId]);
    assert.deepEqual(rows.rows, [{ n: 0 }]);
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- event payloads vary
type Delivered = { event: string; data: Record<string, any> };

describe('a chat started by a visitor', () => {
  it('shows in statistics and webhooks like any other', async (ctx) => {
    const s = await site();
    const receiver = await startWebhookReceiver<Delivered>(ctx);
    const webhook = await t.client(s.account.token).post('/v2/webhooks', { url: receiver.url });
    assert.equal(webhook.status, 200);
    ctx.after(() => t.client(s.account.token).delete(`/v2/webhooks/${webhook.body.id}`));
    const visitor = (await session(s)).body;
    const conv = (await call(s, visitor.token, 'POST', '/widget/v1/conversations', { text: 'Hello from the widget' })).body;
    const stats = await t.client(s.account.token).post('/v2/statistics', {
      new: { name: 'new_conversation', range: { from: null, to: null } },
    });
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.equal(stats.body.new.count, 1);
    for (let pass = 0; pass < 50 && receiver.bodies.length < 3; pass++) {
      await deliverDueWebhooks(t.deps);
      if (receiver.bodies.length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Lanes are delivered independently: the contact's event and the conversation's may come in either order.
    assert.deepEqual(receiver.bodies.map((body) => body.event).sort(), [
      'contact.created',
      'conversation.contact_replied',
      'conversation.opened',
    ]);
    const delivered = (event: string) => receiver.bodies.find((body) => body.event === event)?.data as Delivered['data'];
    assert.equal(delivered('contact.created').contact.id, visitor.contact_id);
    assert.equal(delivered('conversation.opened').conversation.id, conv.id);
    assert.equal(delivered('conversation.opened').conversation.contact_id, visitor.contact_id);
    assert.equal(delivered('conversation.contact_replied').message.content.text, 'Hello from the widget');
  });
});

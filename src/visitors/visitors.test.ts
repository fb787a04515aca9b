import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { widgetSite, type WidgetSite } from '../test/widget-sites.ts';
import { startTestApp, type Reply, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { openEventStream } from '../test/events.ts';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t.close());

const site = () => widgetSite(t, 'shop');

/** A request as a page of `origin` sends it. */
function visitorRequest(origin: string | undefined, method: string, url: string, body?: unknown, token?: string, headers = {}) {
  return t.client().request({
    method,
    url,
    payload: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      ...(origin ? { origin } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  });
}

interface Visitor {
  token: string;
  contactId: string;
  /** A request of this visitor from its site's origin. */
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

async function visitor(s: WidgetSite): Promise<Visitor> {
  const res = await visitorRequest(s.origin, 'POST', '/widget/v1/session', { widget_key: s.widgetKey });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const token = res.body.token as string;
  return {
    token,
    contactId: res.body.contact_id,
    call: (method, url, body, headers) => visitorRequest(s.origin, method, url, body, token, headers),
  };
}

describe('widget settings of the account', () => {
  it('has a read-only widget key, no origins and no identity requirement at first', async () => {
    const account = await t.account();
    const res = await t.client(account.token).get('/v2/account');
    assert.match(res.body.widget_key, /^wk_[\w-]{24}$/);
    assert.deepEqual(res.body.widget_origins, []);
    assert.equal(res.body.widget_identity_required, false);
    assert.equal(res.body.widget_identity_secret_set, false);
    const patched = await t.client(account.token).patch('/v2/account', { widget_key: 'wk_mine' });
    assert.equal(patched.status, 422);
    assert.deepEqual(
      patched.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['widget_key', 'additionalProperties']],
    );
  });

  it('stores origins as browsers send them and refuses what is not an origin', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const res = await client.patch('/v2/account', {
      widget_origins: ['https://Shop.Example.com', 'http://localhost:8080/', 'https://a.example:443'],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.widget_origins, ['https://shop.example.com', 'http://localhost:8080', 'https://a.example']);
    for (const bad of [
      'https://shop.example.com/path',
      'ftp://x.example',
      '*',
      'https://*.example.com',
      'shop.example.com',
      'https://u:p@x.example',
    ]) {
      const refused = await client.patch('/v2/account', { widget_origins: ['https://ok.example', bad] });
      assert.equal(refused.status, 422, bad);
      assert.deepEqual(
        refused.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [['widget_origins[1]', 'format']],
      );
    }
    assert.deepEqual((await client.get('/v2/account')).body.widget_origins, res.body.widget_origins);
  });

  it('rotating the widget key refuses the old key and revokes every visitor token', async () => {
    const s = await site();
    const v = await visitor(s);
    assert.equal((await v.call('GET', '/widget/v1/conversations')).status, 200);
    const rotated = await t.client(s.account.token).post('/v2/account/widget-key/rotate');
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.widget_key, /^wk_[\w-]{24}$/);
    assert.notEqual(rotated.body.widget_key, s.widgetKey);
    assert.equal((await t.client(s.account.token).get('/v2/account')).body.widget_key, rotated.body.widget_key);
    const old = await visitorRequest(s.origin, 'POST', '/widget/v1/session', { widget_key: s.widgetKey });
    assert.deepEqual([old.status, old.body.code], [403, 'forbidden']);
    const revoked = await v.call('GET', '/widget/v1/conversations');
    assert.deepEqual([revoked.status, revoked.body.code], [401, 'unauthorized']);
    // Resuming with the revoked token starts a new session as a new contact.
    const again = await visitorRequest(s.origin, 'POST', '/widget/v1/session', { widget_key: rotated.body.widget_key, token: v.token });
    assert.equal(again.status, 200);
    assert.notEqual(again.body.token, v.token);
    assert.notEqual(again.body.contact_id, v.contactId);
  });
});

describe('POST /widget/v1/session', () => {
  it('creates an anonymous contact and a token; the same token resumes it', async () => {
    const s = await site();
    const res = await visitorRequest(s.origin, 'POST', '/widget/v1/session', { widget_key: s.widgetKey });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['contact_id', 'token']);
    assert.match(res.body.token, /^vt_[\w-]{43}$/);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['access-control-allow-origin'], s.origin);
    const contact = await t.client(s.account.token).get(`/v2/contacts/${res.body.contact_id}`);
    assert.equal(contact.status, 200);
    assert.deepEqual([contact.body.name, contact.body.email, contact.body.identity_id], [null, null, null]);
    const resumed = await visitorRequest(s.origin, 'POST', '/widget/v1/session', { widget_key: s.widgetKey, token: res.body.token });
    assert.deepEqual(resumed.body, res.body);
    // The token is stored as a hash only.
    const stored = await t.db.query('select token_hash from widget_sessions where account_id = $1', [s.account.accountId]);
    assert.equal(stored.rows.length, 1);
    assert.notEqual((stored.rows[0] as { token_hash: string }).token_hash, res.body.token);
  });

  it('is 403 from an origin not on the list, without Origin, with an unknown key or with the widget off', async () => {
    const s = await site();
    const off = await t.account();
    const offKey = (await t.client(off.token).get('/v2/account')).body.widget_key;
    const contactsBefore = await t.db.query('select count(*)::int as n from contacts where account_id = $1', [s.account.accountId]);
    const cases: [string | undefined, string][] = [
      ['https://evil.example', s.widgetKey],
      [`${s.origin}.evil.example`, s.widgetKey],
      [undefined, s.widgetKey],
      [s.origin, 'wk_unknown'],
      [s.origin, offKey],
    ];
    for (const [origin, key] of cases) {
      const res = await visitorRequest(origin, 'POST', '/widget/v1/session', { widget_key: key });
      assert.deepEqual([res.status, res.body.code], [403, 'forbidden'], `${origin} ${key}`);
      assert.equal(res.headers['set-cookie'], undefined);
    }
    const evil = await visitorRequest('https://evil.example', 'POST', '/widget/v1/session', { widget_key: s.widgetKey });
    assert.equal(evil.headers['access-control-allow-origin'], undefined);
    const contactsAfter = await t.db.query('select count(*)::int as n from contacts where account_id = $1', [s.account.accountId]);
    assert.deepEqual(contactsAfter.rows, contactsBefore.rows);
  });

  it('answers preflights of allowed origins only', async () => {
    const s = await site();
    const ok = await visitorRequest(s.origin, 'OPTIONS', '/widget/v1/session', undefined, undefined, {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers['access-control-allow-origin'], s.origin);
    assert.match(String(ok.headers['access-control-allow-headers']), /Authorization/);
    assert.match(String(ok.headers['access-control-allow-methods']), /POST/);
    assert.equal(ok.headers['access-control-allow-credentials'], undefined);
    const refused = await visitorRequest('https://nobody.example', 'OPTIONS', '/widget/v1/conversations', undefined, undefined, {
      'access-control-request-method': 'GET',
    });
    assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden']);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
  });
});

describe('visitor conversations', () => {
  it('starts a conversation through the API write path: the agents see it as any other', async () => {
    const s = await site();
    const v = await visitor(s);
    const started = await v.call('POST', '/widget/v1/conversations', { text: 'Hello, is the blue one in stock?' });
    assert.equal(started.status, 200);
    assert.deepEqual(Object.keys(started.body).sort(), [
      'created_at',
      'finished_at',
      'id',
      'last_message',
      'rating_text',
      'rating_value',
      'status',
      'updated_at',
    ]);
    assert.equal(started.body.status, 'open');
    const seen = await t.client(s.account.token).get(`/v2/conversations/${started.body.id}?messages=true`);
    assert.equal(seen.body.contact_id, v.contactId);
    assert.equal(seen.body.unread, 1);
    assert.equal(seen.body.is_offline, true);
    assert.deepEqual(
      seen.body.messages.map((m: { sub_type: string; content: { text: string } }) => [m.sub_type, m.content.text]),
      [['contact', 'Hello, is the blue one in stock?']],
    );
    const list = await v.call('GET', '/widget/v1/conversations');
    assert.deepEqual(
      list.body.items.map((c: { id: string }) => c.id),
      [started.body.id],
    );
  });

  it('starts one conversation for a repeated client_id or Idempotency-Key, even at once', async () => {
    const s = await site();
    const v = await visitor(s);
    const body = { text: 'Double click', client_id: 'click-0001-abcdef' };
    const [a, b] = await Promise.all([v.call('POST', '/widget/v1/conversations', body), v.call('POST', '/widget/v1/conversations', body)]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.equal(a.body.id, b.body.id);
    const headers = { 'idempotency-key': 'key-0002-abcdef' };
    const c = await v.call('POST', '/widget/v1/conversations', { text: 'Again' }, headers);
    const d = await v.call('POST', '/widget/v1/conversations', { text: 'Again' }, headers);
    assert.equal(c.body.id, d.body.id);
    assert.notEqual(c.body.id, a.body.id);
    const list = await v.call('GET', '/widget/v1/conversations');
    assert.equal(list.body.items.length, 2);
    const messages = await t.db.query('select count(*)::int as n from messages where account_id = $1', [s.account.accountId]);
    assert.deepEqual(messages.rows, [{ n: 2 }]);
  });

  it('stores a message once for a repeated client_id or Idempotency-Key, per visitor and conversation', async () => {
    const s = await site();
    const v = await visitor(s);
    const other = await visitor(s);
    const clientId = 'msg-0001-abcdef';
    // The start's client id is the start's: the same id on a message of the conversation is another write.
    const conv = (await v.call('POST', '/widget/v1/conversations', { text: 'Hi', client_id: clientId })).body;
    const url = `/widget/v1/conversations/${conv.id}/messages`;
    const body = { text: 'Sent twice', client_id: clientId };
    const [a, b] = await Promise.all([v.call('POST', url, body), v.call('POST', url, body)]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.deepEqual(b.body, a.body);
    // Sent again after its answer was lost: the same answer.
    assert.deepEqual((await v.call('POST', url, body)).body, a.body);
    const headers = { 'idempotency-key': 'key-0002-abcdef' };
    const c = await v.call('POST', url, { text: 'By header' }, headers);
    const d = await v.call('POST', url, { text: 'By header' }, headers);
    assert.deepEqual([c.status, d.body], [200, c.body]);

    // The same id from another visitor, or on another conversation, is a message of its own.
    const theirs = (await other.call('POST', '/widget/v1/conversations', { text: 'Other' })).body;
    const e = await other.call('POST', `/widget/v1/conversations/${theirs.id}/messages`, body);
    assert.equal(e.status, 200);
    assert.deepEqual([e.body.conversation_id, e.body.text], [theirs.id, 'Sent twice']);
    assert.notEqual(e.body.id, a.body.id);
    const second = (await v.call('POST', '/widget/v1/conversations', { text: 'Second chat' })).body;
    const g = await v.call('POST', `/widget/v1/conversations/${second.id}/messages`, body);
    assert.deepEqual([g.status, g.body.conversation_id], [200, second.id]);
    assert.notEqual(g.body.id, a.body.id);
    // Another visitor repeating it in this conversation gets nothing of it.
    const sneaky = await other.call('POST', url, body);
    assert.deepEqual([sneaky.status, sneaky.body.code], [404, 'not_found']);

    const stored = await t.client(s.account.token).get(`/v2/conversations/${conv.id}?messages=true`);
    assert.deepEqual(
      stored.body.messages.map((m: { id: string; content: { text: string } }) => [m.id === a.body.id, m.content.text]),
      [
        [false, 'Hi'],
        [true, 'Sent twice'],
        [false, 'By header'],
      ],
    );
  });

  it('refuses a malformed client_id or Idempotency-Key with 422, storing nothing', async () => {
    const s = await site();
    const v = await visitor(s);
    const conv = (await v.call('POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    const url = `/widget/v1/conversations/${conv.id}/messages`;
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(65), 'semi;colon-1234']) {
      const res = await v.call('POST', url, { text: 'Hello', client_id: bad });
      assert.deepEqual([res.status, res.body.code], [422, 'invalid_arguments'], bad);
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
        [['client_id', 'pattern', 'body']],
      );
    }
    const header = await v.call('POST', url, { text: 'Hello' }, { 'idempotency-key': 'bad key' });
    assert.deepEqual([header.status, header.body.code], [422, 'invalid_arguments']);
    assert.deepEqual(
      header.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['idempotency-key', 'pattern', 'header']],
    );
    const none = await v.call('POST', url, { client_id: 'fine-0001-abcdef' });
    assert.deepEqual([none.status, none.body.code], [422, 'invalid_arguments']);
    const messages = await t.db.query('select count(*)::int as n from messages where account_id = $1', [s.account.accountId]);
    assert.deepEqual(messages.rows, [{ n: 1 }]);
  });

  it("shows the visitor its messages and the agents' replies, never notes or system records", async () => {
    const s = await site();
    const v = await visitor(s);
    const f = conversationFactory(t, s.account);
    const agent = await f.agent();
    const conv = (await v.call('POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    await f.message(conv.id, { sub_type: 'agent', agent_id: agent.id, type: 'note', text: 'Internal: VIP customer' });
    const assigned = await t
      .client(s.account.token)
      .patch(`/v2/conversations/${conv.id}/assign`, { agent_id: agent.id, assignee_id: agent.id });
    assert.equal(assigned.status, 200);
    await f.message(conv.id, { sub_type: 'agent', agent_id: agent.id, text: 'Hello! Yes it is.' });
    const sent = await v.call('POST', `/widget/v1/conversations/${conv.id}/messages`, { text: 'Great, thanks' });
    assert.equal(sent.status, 200);
    assert.deepEqual(Object.keys(sent.body).sort(), [
      'attachments',
      'conversation_id',
      'created_at',
      'html',
      'id',
      'is_offline',
      'sub_type',
      'text',
    ]);
    // No agent is online (the one assigned never went online): sent offline, the widget shows its notice.
    assert.equal(sent.body.is_offline, true);
    const page = await v.call('GET', `/widget/v1/conversations/${conv.id}/messages?size=2`);
    assert.equal(page.status, 200);
    assert.equal(page.body.total, 3);
    assert.deepEqual(
      page.body.items.map((m: { sub_type: string; text: string }) => [m.sub_type, m.text]),
      [
        ['contact', 'Great, thanks'],
        ['agent', 'Hello! Yes it is.'],
      ],
    );
    const rest = await v.call('GET', `/widget/v1/conversations/${conv.id}/messages?size=2&after=${page.body.after}`);
    assert.deepEqual(
      rest.body.items.map((m: { text: string }) => m.text),
      ['Hi'],
    );
    assert.equal(rest.body.after, null);
    assert.ok(!JSON.stringify([page.body, rest.body]).includes('VIP'));
    assert.ok(!JSON.stringify([page.body, rest.body]).includes(agent.id));
  });

  it('rates a conversation', async () => {
    const s = await site();
    const v = await visitor(s);
    const conv = (await v.call('POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    const rated = await v.call('POST', `/widget/v1/conversations/${conv.id}/rating`, { value: 5, text: 'Quick answer' });
    assert.equal(rated.status, 200);
    assert.deepEqual([rated.body.rating_value, rated.body.rating_text], [5, 'Quick answer']);
    const seen = await t.client(s.account.token).get(`/v2/conversations/${conv.id}`);
    assert.deepEqual([seen.body.rating_value, seen.body.rating_text], [5, 'Quick answer']);
    const bad = await v.call('POST', `/widget/v1/conversations/${conv.id}/rating`, { value: 4 });
    assert.equal(bad.status, 422);
  });
});

describe('GET /widget/v1/events', () => {
  it("streams the visitor's own conversations' messages, resumes after Last-Event-ID and leaks nothing internal", async () => {
    const s = await site();
    const v = await visitor(s);
    const other = await visitor(s);
    const f = conversationFactory(t, s.account);
    const agent = await f.agent();
    const conv = (await v.call('POST', '/widget/v1/conversations', { text: 'Hi' })).body;
    const othersConv = (await other.call('POST', '/widget/v1/conversations', { text: 'Someone else' })).body;
    const stream = await openEventStream(base, v.token, '?last_event_id=0', { origin: s.origin }, '/widget/v1/events');
    assert.equal(stream.response.headers.get('access-control-allow-origin'), s.origin);
    assert.equal(stream.response.headers.get('set-cookie'), null);
    await f.message(conv.id, { sub_type: 'agent', agent_id: agent.id, type: 'note', text: 'Internal: VIP' });
    await f.message(othersConv.id, { sub_type: 'agent', agent_id: agent.id, text: 'For the other visitor' });
    const typing = await t.client(s.account.token).post(`/v2/conversations/${conv.id}/typing`, { agent_id: agent.id, is_typing: true });
    assert.equal(typing.status, 200);
    // The visitor's own typing is not echoed to it.
    assert.equal((await v.call('POST', `/widget/v1/conversations/${conv.id}/typing`, { is_typing: true })).status, 200);
    await f.message(conv.id, { sub_type: 'agent', agent_id: agent.id, text: 'Hello from the agent' });
    const events = await stream.next(4);
    stream.close();
    assert.deepEqual(
      events.map((e) => e.event),
      ['conversation.opened', 'conversation.contact_replied', 'conversation.agent_typing', 'conversation.agent_replied'],
    );
    assert.deepEqual(events[2]!.data.data, { conversation_id: conv.id, is_typing: true });
    assert.equal(events[3]!.data.data.message.text, 'Hello from the agent');
    assert.deepEqual(Object.keys(events[3]!.data).sort(), ['data', 'event', 'id', 'timestamp']);
    const text = JSON.stringify(events);
    for (const secret of ['VIP', 'other visitor', agent.id, s.account.accountId, 'assigned_ids', 'variables']) {
      assert.ok(!text.includes(secret), `leaks ${secret}`);
    }
    // Resume after the first: exactly the two after it.
    const resumed = await openEventStream(
      base,
      v.token,
      '',
      { origin: s.origin, 'last-event-id': String(events[0]!.id) },
      '/widget/v1/events',
    );
    const again = await resumed.next(3);
    resumed.close();
    assert.deepEqual(
      again.map((e) => e.id),
      events.slice(1).map((e) => e.id),
    );
  });
});

describe('a visitor token can do nothing else', () => {
  it('is refused on every /v2 operation, and an API token on every visitor operation', async () => {
    const s = await site();
    const v = await visitor(s);
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const visitorOp = path.startsWith('/widget/v1/');
        if (!visitorOp && (op.security?.length ?? 1) === 0) continue; // public: health, session
        if (path === '/widget/v1/session') continue;
        const token = visitorOp ? s.account.token : v.token;
        const res = await t.client(token).request({ method: method.toUpperCase(), url });
        assert.equal(res.status, 401, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        checked++;
      }
    }
    assert.ok(checked > 40, `only ${checked}`);
  });

  it("is 404 on another visitor's conversations, of the same account or another", async () => {
    const s = await site();
    const mine = await visitor(s);
    const neighbour = await visitor(s);
    const elsewhere = await visitor(await site());
    const conv = (await mine.call('POST', '/widget/v1/conversations', { text: 'Mine' })).body;
    for (const intruder of [neighbour, elsewhere]) {
      for (const [method, url, body] of [
        ['GET', `/widget/v1/conversations/${conv.id}/messages`],
        ['POST', `/widget/v1/conversations/${conv.id}/messages`, { text: 'Sneaky' }],
        ['POST', `/widget/v1/conversations/${conv.id}/rating`, { value: 1 }],
        ['POST', `/widget/v1/conversations/${conv.id}/typing`, { is_typing: true }],
      ] as [string, string, unknown][]) {
        const res = await intruder.call(method, url, body);
        assert.deepEqual([res.status, res.body.code], [404, 'not_found'], `${method} ${url}`);
      }
      assert.deepEqual((await intruder.call('GET', '/widget/v1/conversations')).body.items, []);
    }
    const seen = await t.client(s.account.token).get(`/v2/conversations/${conv.id}?messages=true`);
    assert.equal(seen.body.messages.length, 1);
    assert.equal(seen.body.rating_value, null);
    const typing = await t.db.query(
      "select count(*)::int as n from events where conversation_id = $1 and type = 'conversation.contact_typing'",
      [conv.id],
    );
    assert.deepEqual(typing.rows, [{ n: 0 }]);
  });

  it('gets its 401 at once when it carries a body, with CORS headers, and the connection closes instead of waiting for the body', async () => {
    const s = await site();
    const { port } = t.app.server.address() as net.AddressInfo;
    for (const [url, auth] of [
      ['/widget/v1/conversations', ''],
      ['/widget/v1/uploads?file_name=a.pdf', `Authorization: Bearer ${s.account.token}\r\n`],
    ]) {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (data) => (answer += data));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // Headers announcing a large body, then only its first bytes, as a client dripping it would.
      socket.write(
        `POST ${url} HTTP/1.1\r\nHost: test\r\nOrigin: ${s.origin}\r\n${auth}Content-Type: application/json\r\n` +
          'Content-Length: 100000\r\n\r\n{"text":',
      );
      await closed;
      assert.match(answer, /^HTTP\/1\.1 401 /, url);
      assert.match(answer, /\r\nconnection: close\r\n/i, url);
      assert.match(answer, new RegExp(`\r\naccess-control-allow-origin: ${s.origin}\r\n`, 'i'), url);
      assert.match(answer, /"code":"unauthorized"/, url);
    }
  });

  it('is refused from an origin its account does not allow', async () => {
    const s = await site();
    const v = await visitor(s);
    const elsewhere = await site();
    const res = await visitorRequest(elsewhere.origin, 'GET', '/widget/v1/conversations', undefined, v.token);
    assert.deepEqual([res.status, res.body.code], [403, 'forbidden']);
  });
});

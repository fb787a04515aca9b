/**
 * Tenancy (docs/behaviour.md §1): account B, with an all-scopes token, can neither read nor
 * change anything of account A. The operations come from the OpenAPI document, so
 * routes added later are covered; only bodies and lookup keys are listed by hand.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { startTestApp, type Reply, type TestAccount, type TestApp } from '../test/harness.ts';
import { operationsOf, type Operation } from '../test/openapi-operations.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
/** A's resource id for each path segment naming a resource (`/v2/agents/{id}` -> agents). */
let ids: Record<string, string>;
/** Every id, key and name of A's, none of which B may ever see. */
let secrets: string[];
/** Bodies that would be valid for A, by operation; an operation taking a body missing here fails the test. */
let bodies: Record<string, unknown>;
/** Query strings of the operations that find a resource by a key. */
let lookups: Record<string, string>;
let operations: Operation[];

before(async () => {
  t = await startTestApp();
  t.clock.set(new Date());
  a = await t.account();
  b = await t.account();
  const api = t.client(a.token);
  const created = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const group = await created('/v2/groups', { name: 'tenant-a group' });
  const agent = await created('/v2/agents', { email: 'tenant-a-agent@example.com', nickname: 'tenant-a', group_ids: [group.id] });
  const tag = await created('/v2/tags', { name: 'tenant-a-tag' });
  const bot = await created('/v2/bots', { name: 'tenant-a bot', trigger: { text: 'tenant-a hello' } });
  const contact = await created('/v2/contacts', {
    email: 'tenant-a@example.com',
    identity_id: 'tenant-a-identity',
    name: 'tenant-a contact',
  });
  const upload = await api.request({
    method: 'POST',
    url: '/v2/uploads?file_name=tenant-a.txt',
    payload: 'tenant-a file',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(upload.status, 200);
  const conversation = await created('/v2/conversations', {
    contact_id: contact.id,
    ext_id: 'tenant-a-ext',
    group_id: group.id,
    tags: [tag.id],
    variables: { owner: 'tenant-a' },
    text: 'tenant-a question',
  });
  t.clock.advance(30);
  const reply = await created(`/v2/conversations/${conversation.id}/messages`, {
    sub_type: 'agent',
    agent_id: agent.id,
    text: 'tenant-a answer',
    attachments: [{ type: 'upload', token: upload.body.token }],
  });
  await created(`/v2/conversations/${conversation.id}/paths`, { url: 'https://tenant-a.example.com/page', title: 'tenant-a page' });
  await created(`/v2/conversations/${conversation.id}/rating`, { value: 5, text: 'tenant-a rating' });
  t.clock.advance(30);
  assert.equal((await api.patch(`/v2/conversations/${conversation.id}/close`)).status, 200);
  const webhook = await created('/v2/webhooks', { url: 'https://93.184.215.14/tenant-a' });
  const token = await created('/v2/tokens', { name: 'tenant-a token', scopes: ['agents:read'] });
  const uploadId = /\/v2\/uploads\/([^/]+)\/content/.exec(reply.attachments[0].url)?.[1] as string;

  ids = {
    agents: agent.id,
    groups: group.id,
    tags: tag.id,
    bots: bot.id,
    contacts: contact.id,
    conversations: conversation.id,
    uploads: uploadId,
    webhooks: webhook.id,
    tokens: token.id,
  };
  secrets = [...Object.values(ids), 'tenant-a', a.accountId, reply.id];
  bodies = {
    'PATCH /v2/agents/{id}': { status: 'online' },
    'PATCH /v2/conversations/{id}': { variables: { owner: 'tenant-b' }, tags: [] },
    'PATCH /v2/conversations/{id}/assign': { agent_id: agent.id, assignee_id: agent.id },
    'PATCH /v2/conversations/{id}/unassign': { agent_id: agent.id, unassignee_id: agent.id },
    'POST /v2/conversations/{id}/messages': { sub_type: 'contact', text: 'from tenant-b' },
    'POST /v2/conversations/{id}/paths': { url: 'https://tenant-b.example.com/' },
    'POST /v2/conversations/{id}/rating': { value: 1 },
    'POST /v2/conversations/{id}/typing': { agent_id: agent.id, is_typing: true },
    'POST /v2/webhooks/{id}/secret/rotate': { overlap_seconds: 60 },
  };
  lookups = {
    'GET /v2/contacts/find': `?email=${encodeURIComponent(contact.email)}`,
    'GET /v2/conversations/find': '?ext_id=tenant-a-ext',
  };
  operations = operationsOf(t).filter((op) => op.scope !== undefined && op.path !== '/v2/events');
});
after(() => t.close());

const byId = (op: Operation) => op.pathParams.length > 0;

/** A's id or lookup key the operation takes. */
function keyFor(op: Operation): string {
  if (!byId(op)) return lookups[op.name] ?? '';
  const resource = op.path.split('/')[2]!;
  assert.ok(ids[resource], `${op.name}: no resource of A for /${resource}/{id}; add one to the tenancy test`);
  return ids[resource];
}

/** Calls the operation on A's resource, or on `key` in its place. */
function call(token: string, op: Operation, key = keyFor(op)): Promise<Reply> {
  const url = byId(op) ? op.path.replace(/\{[^}]+\}/g, key) : op.path + key;
  const body = bodies[op.name];
  if (op.body) assert.ok(body, `${op.name} takes a body: add a valid one to the tenancy test`);
  const payload = op.body ? JSON.stringify(body) : undefined;
  return t.client(token).request({ method: op.method, url, payload, headers: payload ? { 'content-type': 'application/json' } : {} });
}

/** Everything A can read through the GET operations, by operation. */
async function snapshotOfA(): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {};
  for (const op of operations.filter((o) => o.method === 'GET')) {
    const res = await call(a.token, op);
    assert.equal(res.status, 200, `${op.name} as A: ${JSON.stringify(res.body)}`);
    snapshot[op.name] = res.body;
  }
  const full = await t.client(a.token).get(`/v2/conversations/${ids.conversations}?messages=true&paths=true&statistics=true`);
  snapshot.conversation = full.body;
  return snapshot;
}

const leaked = (text: string) => secrets.filter((secret) => text.includes(secret));

describe("another account's resources", () => {
  it('are 404 not_found to B on every operation by id or key, and B changes nothing of A', async () => {
    const before = await snapshotOfA();
    const targeted = operations.filter((op) => byId(op) || op.name in lookups);
    assert.ok(targeted.length >= 25, `only ${targeted.length} operations`);
    const failures: string[] = [];
    for (const op of targeted) {
      const res = await call(b.token, op);
      // Exactly as a missing one: the same answer as for a key no account has, but for the key echoed.
      const key = keyFor(op);
      const missingKey = key.replace(/[A-Za-z0-9]$/, (c) => (c === 'Z' ? 'Y' : 'Z'));
      const missing = await call(b.token, op, missingKey);
      const echoed = (k: string) => decodeURIComponent(k.replace(/^\?\w+=/, ''));
      const expected = { ...missing.body, message: String(missing.body?.message).replaceAll(echoed(missingKey), echoed(key)) };
      if (res.status !== 404 || res.body?.code !== 'not_found')
        failures.push(`${op.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (missing.status !== 404 || JSON.stringify(res.body) !== JSON.stringify(expected)) {
        failures.push(`${op.name}: ${JSON.stringify(res.body)}, for a missing one ${missing.status} ${JSON.stringify(missing.body)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await snapshotOfA(), before);
  });

  it('never appear in B’s lists', async () => {
    const lists = operations.filter((op) => op.method === 'GET' && !byId(op) && !(op.name in lookups));
    assert.ok(lists.some((op) => op.name === 'GET /v2/agents') && lists.some((op) => op.name === 'GET /v2/webhooks'));
    for (const op of lists) {
      const res = await call(b.token, op);
      assert.equal(res.status, 200, op.name);
      assert.deepEqual(leaked(JSON.stringify(res.body)), [], op.name);
      const mine = await call(a.token, op);
      assert.notDeepEqual(mine.body, res.body, `${op.name}: A's list shows nothing of A's either`);
    }
  });
});

describe("another account's data in aggregates", () => {
  const entries = Object.fromEntries(
    ['response_time', 'first_response_time', 'time_to_close', 'new_conversation', 'closed_conversation', 'conversation_ratings'].map(
      (name) => [
        name,
        {
          name,
          range: { from: '2000-01-01T00:00:00', to: null },
          aggs: [{ type: 'terms', field: name.endsWith('response_time') ? 'agent_id' : 'contact_id' }],
        },
      ],
    ),
  );

  it('B’s statistics count nothing of A’s', async () => {
    const mine = await t.client(a.token).post('/v2/statistics', entries);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    for (const [key, result] of Object.entries<{ count: number }>(mine.body)) assert.ok(result.count > 0, `A's own ${key} counts A's data`);
    const theirs = await t.client(b.token).post('/v2/statistics', entries);
    assert.equal(theirs.status, 200);
    for (const [key, result] of Object.entries<{ count: number; buckets: unknown[] }>(theirs.body)) {
      assert.deepEqual([result.count, result.buckets], [0, []], key);
    }
  });

  it('B’s event stream carries none of A’s events, replayed or live', async () => {
    const raw = await t.app.inject({
      method: 'GET',
      url: '/v2/events?last_event_id=0',
      headers: { authorization: `Bearer ${b.token}` },
      payloadAsStream: true,
    });
    assert.equal(raw.statusCode, 200);
    const stream = raw.stream() as Readable;
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    try {
      // A changes something while B listens; then B does, and B's event marks the end of what to read.
      await t.client(a.token).post(`/v2/conversations/${ids.conversations}/messages`, { sub_type: 'contact', text: 'tenant-a again' });
      const marker = await t.client(b.token).post('/v2/contacts', { name: 'tenant-b marker' });
      // The stream polls the outbox every 300 ms; wait for the marker with a generous deadline (a loaded machine is slow).
      const deadline = Date.now() + 60_000;
      while (!text.includes(marker.body.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.match(text, new RegExp(marker.body.id));
      assert.deepEqual(leaked(text), []);
    } finally {
      (raw.raw.res as unknown as { destroy(): void }).destroy();
    }
  });

  it('A’s apiKey never reads B’s legacy statistics', async () => {
    const api = t.client(b.token);
    const group = (await api.post('/v2/groups', { name: 'tenant-b group' })).body;
    const agent = (await api.post('/v2/agents', { email: 'tenant-b-agent@example.com', group_ids: [group.id] })).body;
    const contact = (await api.post('/v2/contacts', { name: 'tenant-b contact' })).body;
    const conversation = (await api.post('/v2/conversations', { contact_id: contact.id, group_id: group.id, text: 'hi' })).body;
    assert.equal(
      (await api.post(`/v2/conversations/${conversation.id}/messages`, { sub_type: 'agent', agent_id: agent.id, text: 'hello' })).status,
      200,
    );

    const legacy = (path: string, query = '') => t.client().get(`/stats/${path}?apiKey=${a.apiKey}${query}`);
    const totals = await legacy('totals');
    assert.equal(totals.status, 200);
    assert.equal(totals.body.overview.channels, 1, 'only A’s one conversation');
    assert.deepEqual(
      totals.body.agents.map((entry: { userId: number }) => String(entry.userId)),
      [ids.agents],
    );
    const inBGroup = await legacy('totals', `&group=${group.id}`);
    assert.equal(inBGroup.body.overview.channels, 0);
    const agents = await legacy('agents');
    assert.ok(
      agents.body.records.every((record: { userId: number }) => String(record.userId) === ids.agents),
      JSON.stringify(agents.body.records).slice(0, 300),
    );
    assert.ok(!JSON.stringify([totals.body, agents.body, (await legacy('overview')).body]).includes('tenant-b'));
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';

// Concurrency and arbitrary input. On PostgreSQL parallel requests really run in parallel (a pool of connections);
// on PGlite they serialise, and the same assertions hold.
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('concurrent writes', () => {
  it('parallel messages on one conversation get consistent flags', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    const agents = [await f.agent(), await f.agent()];
    t.clock.set('2026-10-01T00:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'first' });
      t.clock.advance(10);
      const bodies: Json[] = [];
      for (let i = 0; i < 12; i++) {
        bodies.push(
          i % 3 === 0 ? { sub_type: 'agent', agent_id: agents[i % 2]!.id, text: `a${i}` } : { sub_type: 'contact', text: `c${i}` },
        );
      }
      const responses = await Promise.all(bodies.map((body) => api.post(`/v2/conversations/${conv.id}/messages`, body)));
      assert.deepEqual(
        responses.map((r) => r.status),
        bodies.map(() => 200),
      );

      const { messages, unread, agent_ids } = await f.get(conv.id);
      assert.equal(messages.length, 13);
      // Replay the stored order: every agent message after unanswered contact messages is a reply, the first one first.
      let waitingSince: string | null = null;
      let replyCount = 0;
      let waiting = 0;
      for (const m of messages) {
        if (m.sub_type === 'contact') {
          waitingSince ??= m.created_at;
          waiting++;
          continue;
        }
        assert.equal(m.is_reply, waitingSince !== null, JSON.stringify(m));
        assert.equal(m.is_first_reply, waitingSince !== null && replyCount === 0);
        assert.equal(m.response_time, waitingSince === null ? null : (Date.parse(m.created_at) - Date.parse(waitingSince)) / 1000);
        if (m.is_reply) replyCount++;
        waitingSince = null;
        waiting = 0;
      }
      assert.equal(messages.filter((m: Json) => m.is_first_reply).length, 1);
      assert.equal(unread, waiting);
      assert.deepEqual([...agent_ids].sort(), agents.map((a) => a.id).sort());
    } finally {
      t.clock.reset();
    }
  });

  it('parallel creates with one ext_id make one conversation; the others get ext_id unique', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    const contact = await f.contact();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/v2/conversations', { contact_id: contact.id, ext_id: 'same', text: `try ${i}` })),
    );
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 1);
    for (const r of results.filter((r) => r.status !== 200)) {
      assert.equal(r.status, 422);
      assert.deepEqual(
        r.body.errors.map((e: Json) => [e.path, e.code]),
        [['ext_id', 'unique']],
      );
    }
    const { rows } = await t.db.query<{ n: number }>('select count(*) as n from messages where account_id = $1', [account.accountId]);
    assert.equal(rows[0]!.n, 1);
  });

  it('parallel assigns of one agent record one assignment', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    const agent = await f.agent();
    const conv = await f.conversation({ text: 'hi' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api.patch(`/v2/conversations/${conv.id}/assign`, { agent_id: agent.id, assignee_id: agent.id })),
    );
    assert.ok(results.every((r) => r.status === 200));
    assert.deepEqual((await f.get(conv.id)).assigned_ids, [agent.id]);
    const { rows } = await t.db.query<{ n: number }>(
      "select count(*) as n from events where account_id = $1 and type = 'conversation.agent_assigned'",
      [account.accountId],
    );
    assert.equal(rows[0]!.n, 1);
  });
});

describe('arbitrary input', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('contact', 'agent', 'bot', 'note', 'message', 'text', 'image', 'upload', '2026-01-01T00:00:00Z', 'https://e.com/a.png'),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('type', 'text', 'html', 'url', 'token', 'sub_type', 'content'), fc.string({ maxLength: 10 }), {
      maxKeys: 3,
    }),
  );
  const body = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 5 });

  it('never answers 500 and stores nothing when it rejects', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    const contact = await f.contact();
    const conv = await f.conversation({ text: 'hi' });
    const stored = async () => {
      const { rows } = await t.db.query<{ n: number }>(
        'select (select count(*) from conversations where account_id = $1) + (select count(*) from messages where account_id = $1) as n',
        [account.accountId],
      );
      return rows[0]!.n;
    };
    const createKeys = ['contact_id', 'assigned_ids', 'group_id', 'ext_id', 'variables', 'tags', 'text', 'html', 'messages', 'other'];
    const messageKeys = ['sub_type', 'agent_id', 'type', 'text', 'html', 'attachments', 'created_at', 'other'];
    await fc.assert(
      fc.asyncProperty(body(createKeys), body(messageKeys), fc.array(value, { maxLength: 2 }), async (create, message, imported) => {
        const before = await stored();
        const created = await api.post('/v2/conversations', {
          contact_id: contact.id,
          ...create,
          ...(imported.length ? { messages: imported } : {}),
        });
        const posted = await api.post(`/v2/conversations/${conv.id}/messages`, message);
        assert.ok(created.status < 500 && posted.status < 500, JSON.stringify([create, message, created.body, posted.body]));
        for (const res of [created, posted]) if (res.status !== 200) assert.equal(typeof res.body.code, 'string');
        const accepted = Number(created.status === 200) + Number(posted.status === 200);
        if (accepted === 0) assert.equal(await stored(), before);
      }),
      { numRuns: 60 },
    );
  });
});

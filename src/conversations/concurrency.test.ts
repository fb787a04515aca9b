import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';

// On PostgreSQL these requests really run in parallel (a pool of connections);
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
        bodies.push(i % 3 === 0 ? { sub_type: 'agent', agent_id: agents[i % 2].id, text: `a${i}` } : { sub_type: 'contact', text: `c${i}` });
      }
      const responses = await Promise.all(bodies.map((body) => api.post(`/v2/conversations/${conv.id}/messages`, body)));
      assert.deepEqual(responses.map((r) => r.status), bodies.map(() => 200));

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
      assert.deepEqual(r.body.errors.map((e: Json) => [e.path, e.code]), [['ext_id', 'unique']]);
    }
    const { rows } = await t.db.query<{ n: number }>('select count(*) as n from messages where account_id = $1', [account.accountId]);
    assert.equal(rows[0].n, 1);
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
    assert.equal(rows[0].n, 1);
  });
});

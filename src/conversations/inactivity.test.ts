import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { closeIdleConversations } from './inactivity.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ inactivityTimeoutSeconds: 1800 });
});
after(() => t.close());

async function closedEvents(accountId: string): Promise<string[]> {
  const { rows } = await t.db.query<{ conversation_id: string }>(
    "select conversation_id from events where account_id = $1 and type = 'conversation.closed' order by id",
    [accountId],
  );
  return rows.map((row) => row.conversation_id);
}

describe('inactivity auto-close', () => {
  it('closes conversations idle longer than the timeout at last message + timeout, once', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    const agent = await f.agent();
    t.clock.set('2026-09-01T10:00:00.000Z');
    try {
      const idle = await f.conversation({ text: 'hello?' });
      t.clock.advance(60);
      await f.agentSays(idle.id, agent.id, 'hi!');
      const busy = await f.conversation({ text: 'still here' });
      const pending = await f.conversation();
      const closedByAgent = await f.conversation({ text: 'bye' });
      await f.close(closedByAgent.id);

      // Exactly at the timeout nothing is idle yet.
      t.clock.set('2026-09-01T10:31:00.000Z');
      await closeIdleConversations(t.deps);
      assert.equal((await api.get(`/v2/conversations/${idle.id}`)).body.status, 'served');

      t.clock.set('2026-09-01T10:31:00.001Z');
      await f.contactSays(busy.id, 'ping');
      await closeIdleConversations(t.deps);
      const closed = (await api.get(`/v2/conversations/${idle.id}`)).body;
      assert.equal(closed.status, 'closed');
      assert.equal(closed.close_type, 'inactivity');
      assert.equal(closed.finished_at, '2026-09-01T10:31:00.000Z');
      assert.equal(closed.updated_at, '2026-09-01T10:31:00.001Z');
      assert.equal((await api.get(`/v2/conversations/${busy.id}`)).body.status, 'open');
      assert.equal((await api.get(`/v2/conversations/${pending.id}`)).body.status, 'pending');
      assert.equal((await api.get(`/v2/conversations/${closedByAgent.id}`)).body.close_type, 'agent');

      t.clock.advance(3600);
      await closeIdleConversations(t.deps);
      assert.deepEqual(await closedEvents(account.accountId), [closedByAgent.id, idle.id, busy.id]);
      assert.equal((await api.get(`/v2/conversations/${busy.id}`)).body.finished_at, '2026-09-01T11:01:00.001Z');
    } finally {
      t.clock.reset();
    }
  });

  it('closes imported history when it really went idle', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('2026-09-10T00:00:00.000Z');
    try {
      const conv = await f.conversation({
        messages: [{ sub_type: 'contact', content: { type: 'text', text: 'old' }, created_at: '2026-09-01T08:00:00.000Z' }],
      });
      assert.ok((await closeIdleConversations(t.deps)) >= 1);
      const closed = (await t.client(account.token).get(`/v2/conversations/${conv.id}`)).body;
      assert.equal(closed.finished_at, '2026-09-01T08:30:00.000Z');
      assert.equal(closed.close_type, 'inactivity');
    } finally {
      t.clock.reset();
    }
  });

  it('refuses an imported message older than a new pending conversation, so no duration is ever negative (issue 18.4)', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const api = t.client(account.token);
    t.clock.set('2026-09-10T10:00:00.000Z');
    try {
      // The confirmed reproduction: a pending conversation (no message yet), then history two hours older.
      const pending = await f.conversation();
      const old = await api.post(`/v2/conversations/${pending.id}/messages`, {
        sub_type: 'contact',
        text: 'from before the conversation',
        created_at: '2026-09-10T08:00:00.000Z',
      });
      assert.equal(old.status, 422);
      assert.deepEqual(old.body.errors, [
        {
          path: 'created_at',
          code: 'formatMinimum',
          location: 'body',
          message: "created_at must not be earlier than the conversation's created_at (2026-09-10T10:00:00.000Z)",
        },
      ]);
      assert.equal((await api.get(`/v2/conversations/${pending.id}?messages=true`)).body.messages.length, 0, 'nothing stored');
      // At its creation exactly is history too, and fine.
      const atCreation = await api.post(`/v2/conversations/${pending.id}/messages`, {
        sub_type: 'contact',
        text: 'hi',
        created_at: '2026-09-10T10:00:00.000Z',
      });
      assert.equal(atCreation.status, 200, JSON.stringify(atCreation.body));

      t.clock.set('2026-09-10T12:00:00.000Z');
      await closeIdleConversations(t.deps);
      const closed = (await api.get(`/v2/conversations/${pending.id}?statistics=true`)).body;
      assert.deepEqual([closed.status, closed.finished_at, closed.statistics.duration], ['closed', '2026-09-10T10:30:00.000Z', 1800]);
      const stats = await api.post('/v2/statistics', {
        x: { name: 'time_to_close', range: { from: '2026-09-10T00:00:00Z', to: '2026-09-10T23:59:59Z' } },
      });
      assert.equal(stats.status, 200, JSON.stringify(stats.body));
      assert.equal(stats.body.x.value, 1800);
    } finally {
      t.clock.reset();
    }
  });

  it('never closes one conversation twice when passes run at once', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('2026-09-20T00:00:00.000Z');
    try {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await f.conversation({ text: `c${i}` })).id);
      t.clock.advance(7200);
      const counts = await Promise.all([closeIdleConversations(t.deps), closeIdleConversations(t.deps), closeIdleConversations(t.deps)]);
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        5,
      );
      assert.deepEqual((await closedEvents(account.accountId)).sort(), ids.sort());
    } finally {
      t.clock.reset();
    }
  });

  it('a contact message reopens an auto-closed conversation', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('2026-09-25T00:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'hi' });
      t.clock.advance(1801);
      await closeIdleConversations(t.deps);
      await f.contactSays(conv.id, 'back');
      const reopened = (await t.client(account.token).get(`/v2/conversations/${conv.id}`)).body;
      assert.deepEqual([reopened.status, reopened.finished_at, reopened.close_type], ['open', null, null]);
    } finally {
      t.clock.reset();
    }
  });
});

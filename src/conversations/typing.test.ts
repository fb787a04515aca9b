/** The agent's typing signal: POST /v2/conversations/{id}/typing records an event, never a message. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';

let t: TestApp;
let account: TestAccount;
let agentId: string;
let conversationId: string;

before(async () => {
  t = await startTestApp();
  account = await t.account();
  const api = t.client(account.token);
  agentId = (await api.post('/v2/agents', { email: 'typist@example.com' })).body.id;
  const contactId = (await api.post('/v2/contacts', { name: 'Jane' })).body.id;
  conversationId = (await api.post('/v2/conversations', { contact_id: contactId, text: 'Hello' })).body.id;
});
after(() => t.close());

async function typingEvents(): Promise<Array<{ conversation_id: string; data: unknown }>> {
  const { rows } = await t.db.query<{ conversation_id: string; data: unknown }>(
    `select conversation_id, data from events where account_id = $1 and type = 'conversation.agent_typing' order by id`,
    [account.accountId],
  );
  return rows;
}

describe('POST /v2/conversations/{id}/typing', () => {
  it('records conversation.agent_typing with the agent and the state, and stores no message', async () => {
    const api = t.client(account.token);
    const started = await api.post(`/v2/conversations/${conversationId}/typing`, { agent_id: agentId, is_typing: true });
    assert.equal(started.status, 200);
    assert.deepEqual(started.body, { ok: true });
    const stopped = await api.post(`/v2/conversations/${conversationId}/typing`, { agent_id: agentId, is_typing: false });
    assert.equal(stopped.status, 200);
    assert.deepEqual(await typingEvents(), [
      { conversation_id: conversationId, data: { conversation_id: conversationId, agent_id: agentId, is_typing: true } },
      { conversation_id: conversationId, data: { conversation_id: conversationId, agent_id: agentId, is_typing: false } },
    ]);
    const messages = await api.get(`/v2/conversations/${conversationId}/messages`);
    assert.equal(messages.body.total, 1);
  });

  it('refuses an unknown conversation (404), an unknown agent (422) and a missing state, recording nothing', async () => {
    const api = t.client(account.token);
    const before = (await typingEvents()).length;
    const missing = await api.post('/v2/conversations/coNOPE/typing', { agent_id: agentId, is_typing: true });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
    const agent = await api.post(`/v2/conversations/${conversationId}/typing`, { agent_id: '1', is_typing: true });
    assert.equal(agent.status, 422);
    assert.equal(agent.body.code, 'agent_not_found');
    const shape = await api.post(`/v2/conversations/${conversationId}/typing`, { agent_id: agentId });
    assert.equal(shape.status, 422);
    assert.equal(shape.body.errors[0].path, 'is_typing');
    const other = await t.account();
    const foreign = await t.client(other.token).post(`/v2/conversations/${conversationId}/typing`, { agent_id: agentId, is_typing: true });
    assert.equal(foreign.status, 404);
    const readOnly = await t.token(account, ['conversations:read']);
    const scope = await t.client(readOnly).post(`/v2/conversations/${conversationId}/typing`, { agent_id: agentId, is_typing: true });
    assert.equal(scope.status, 403);
    assert.equal((await typingEvents()).length, before);
  });
});

/**
 * Factories for tests that need contacts, agents, groups, tags and conversations.
 * Everything goes through HTTP against the real app, so datasets are built the
 * way clients build them; set `t.clock` before a call to choose its time.
 * Each helper asserts its request succeeded and returns the created record.
 *
 *   const f = conversationFactory(t, await t.account());
 *   const agent = await f.agent({ available: true });
 *   const conv = await f.conversation({ text: 'Hi' });
 *   await f.message(conv.id, { sub_type: 'agent', agent_id: agent.id, text: 'Hello' });
 */
import assert from 'node:assert/strict';
import type { Reply, TestAccount, TestApp } from './harness.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- records are arbitrary JSON in tests */
export type Json = Record<string, any>;

function expectOk(res: Reply, what: string): Json {
  assert.equal(res.status, 200, `${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface ConversationFactory {
  account: TestAccount;
  /** A contact (POST /v2/contacts). */
  contact(fields?: Json): Promise<Json>;
  /** An agent (POST /v2/agents); `available` sets it online and pings it at the current clock. */
  agent(options?: { available?: boolean; group_ids?: string[]; nickname?: string }): Promise<Json>;
  /** Sets the agent online and pings it at the current clock, so it is available for PRESENCE_TTL_SECONDS. */
  makeAvailable(agentId: string): Promise<void>;
  /** Sets the agent offline. */
  makeUnavailable(agentId: string): Promise<void>;
  group(name?: string): Promise<Json>;
  tag(name?: string): Promise<Json>;
  /** POST /v2/conversations; `contact_id` defaults to a new contact. */
  conversation(body?: Json): Promise<Json>;
  /** POST /v2/conversations/{id}/messages; returns the message. */
  message(conversationId: string, body: Json): Promise<Json>;
  /** Shorthands for message(). */
  contactSays(conversationId: string, text: string, extra?: Json): Promise<Json>;
  agentSays(conversationId: string, agentId: string, text: string, extra?: Json): Promise<Json>;
  botSays(conversationId: string, text: string, extra?: Json): Promise<Json>;
  path(conversationId: string, url: string, title?: string | null): Promise<Json>;
  assign(conversationId: string, assigneeId: string, actingId?: string): Promise<Json>;
  unassign(conversationId: string, unassigneeId: string, actingId?: string): Promise<Json>;
  close(conversationId: string): Promise<void>;
  rate(conversationId: string, value: 1 | 3 | 5, text?: string | null): Promise<Json>;
  /** GET /v2/conversations/{id} with messages, paths and statistics. */
  get(conversationId: string): Promise<Json>;
}

export function conversationFactory(t: TestApp, account: TestAccount): ConversationFactory {
  const api = t.client(account.token);
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  const factory: ConversationFactory = {
    account,
    async contact(fields = {}) {
      return expectOk(await api.post('/v2/contacts', { name: 'Visitor', ...fields }), 'POST /v2/contacts');
    },
    async agent(options = {}) {
      const agent = expectOk(
        await api.post('/v2/agents', {
          email: `agent-${unique()}@example.com`,
          nickname: options.nickname ?? 'Agent',
          ...(options.group_ids ? { group_ids: options.group_ids } : {}),
        }),
        'POST /v2/agents',
      );
      if (options.available) await factory.makeAvailable(agent.id);
      return agent;
    },
    async makeAvailable(agentId) {
      expectOk(await api.patch(`/v2/agents/${agentId}`, { status: 'online' }), 'PATCH /v2/agents/{id}');
      expectOk(await api.post(`/v2/agents/${agentId}/ping`), 'POST /v2/agents/{id}/ping');
    },
    async makeUnavailable(agentId) {
      expectOk(await api.patch(`/v2/agents/${agentId}`, { status: 'offline' }), 'PATCH /v2/agents/{id}');
    },
    async group(name = `Group ${unique()}`) {
      return expectOk(await api.post('/v2/groups', { name }), 'POST /v2/groups');
    },
    async tag(name = `Tag ${unique()}`) {
      return expectOk(await api.post('/v2/tags', { name }), 'POST /v2/tags');
    },
    async conversation(body = {}) {
      const contactId = body.contact_id ?? (await factory.contact()).id;
      return expectOk(await api.post('/v2/conversations', { ...body, contact_id: contactId }), 'POST /v2/conversations');
    },
    async message(conversationId, body) {
      return expectOk(await api.post(`/v2/conversations/${conversationId}/messages`, body), 'POST /v2/conversations/{id}/messages');
    },
    contactSays: (conversationId, text, extra = {}) => factory.message(conversationId, { sub_type: 'contact', text, ...extra }),
    agentSays: (conversationId, agentId, text, extra = {}) =>
      factory.message(conversationId, { sub_type: 'agent', agent_id: agentId, text, ...extra }),
    botSays: (conversationId, text, extra = {}) => factory.message(conversationId, { sub_type: 'bot', text, ...extra }),
    async path(conversationId, url, title = null) {
      return expectOk(await api.post(`/v2/conversations/${conversationId}/paths`, { url, title }), 'POST /v2/conversations/{id}/paths');
    },
    async assign(conversationId, assigneeId, actingId = assigneeId) {
      return expectOk(
        await api.patch(`/v2/conversations/${conversationId}/assign`, { agent_id: actingId, assignee_id: assigneeId }),
        'PATCH /v2/conversations/{id}/assign',
      );
    },
    async unassign(conversationId, unassigneeId, actingId = unassigneeId) {
      return expectOk(
        await api.patch(`/v2/conversations/${conversationId}/unassign`, { agent_id: actingId, unassignee_id: unassigneeId }),
        'PATCH /v2/conversations/{id}/unassign',
      );
    },
    async close(conversationId) {
      expectOk(await api.patch(`/v2/conversations/${conversationId}/close`), 'PATCH /v2/conversations/{id}/close');
    },
    async rate(conversationId, value, text) {
      return expectOk(
        await api.post(`/v2/conversations/${conversationId}/rating`, text === undefined ? { value } : { value, text }),
        'POST /v2/conversations/{id}/rating',
      );
    },
    async get(conversationId) {
      return expectOk(
        await api.get(`/v2/conversations/${conversationId}?messages=true&paths=true&statistics=true`),
        'GET /v2/conversations/{id}',
      );
    },
  };
  return factory;
}

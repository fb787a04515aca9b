/** Test helpers that produce committed events (used by the events and webhooks tests). */
import type { TestAccount, TestApp } from './harness.ts';
import { createAgent } from '../agents/service.ts';
import { recordEvent, type EventType } from '../events/outbox.ts';

/**
 * Commits `count` agent.updated events through PATCH /v2/agents/{id}, switching
 * one agent between online and offline. Returns the statuses sent, in order.
 */
export async function produceAgentEvents(t: TestApp, account: TestAccount, count: number): Promise<string[]> {
  const agent = await createAgent(t.deps, account.accountId, { email: `agent-${Math.random()}@example.com` });
  const statuses: string[] = [];
  for (let i = 0; i < count; i++) {
    const status = i % 2 === 0 ? 'online' : 'offline';
    const res = await t.client(account.token).patch(`/v2/agents/${agent.id}`, { status });
    if (res.status !== 200) throw new Error(`PATCH agent answered ${res.status}`);
    statuses.push(status);
  }
  return statuses;
}

/** Commits one event of a conversation straight into the outbox; returns its id. */
export function recordConversationEvent(t: TestApp, account: TestAccount, conversationId: string, marker: string): Promise<number> {
  const type: EventType = 'conversation.updated';
  return t.db.transaction((tx) =>
    recordEvent(tx, account.accountId, t.deps.now(), type, { conversation: { id: conversationId }, marker }, conversationId),
  );
}

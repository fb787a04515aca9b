/** Test helpers that produce committed events (used by the events and webhooks tests). */
import assert from 'node:assert/strict';
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

export interface Message {
  id: number;
  event: string;
  data: { id: number; event: string; timestamp: string; account_id: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- event payloads vary
}

export interface Stream {
  response: Response;
  /** The next `count` messages (comments and retry lines skipped). */
  next(count: number): Promise<Message[]>;
  close(): void;
}

/** A real SSE client over HTTP: fetch and a body reader. */
export async function openEventStream(
  at: string,
  token: string,
  query = '',
  headers: Record<string, string> = {},
  path = '/v2/events',
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${at}${path}${query}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const messages: Message[] = [];
  const read = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const fields = Object.fromEntries(
        buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      buffer = buffer.slice(end + 2);
      if (fields.data !== undefined)
        messages.push({ id: Number(fields.id), event: fields.event ?? 'message', data: JSON.parse(fields.data) });
    }
    return true;
  };
  return {
    response,
    async next(count) {
      // A generous bound (the stream polls every 300 ms): a missing event fails with a message instead of hanging.
      const deadline = AbortSignal.timeout(60_000);
      const expired = new Promise<never>((_, reject) =>
        deadline.addEventListener('abort', () => reject(new Error(`expected ${count} messages, got ${messages.length} within 60 s`)), {
          once: true,
        }),
      );
      expired.catch(() => undefined);
      while (messages.length < count) if (!(await Promise.race([read(), expired]))) throw new Error('the stream ended');
      return messages.splice(0, count);
    },
    close: () => controller.abort(),
  };
}

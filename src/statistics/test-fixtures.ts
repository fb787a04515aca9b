/**
 * Test data for the statistics tests, built through the conversation endpoints
 * exactly as clients build history: the first contact message is imported with
 * the conversation, later messages carry their `created_at`, and close and
 * rating are stamped by the test clock.
 */
import type { TestApp } from '../test/harness.ts';
import type { ConversationFactory, Json } from '../test/conversations.ts';

export interface ChatSpec {
  /** The first contact message's time (ISO instant). */
  at: string;
  /** Later messages, in time order: who writes and when. */
  then?: { by: 'contact' | 'agent' | 'bot'; at: string; agent_id?: string }[];
  group_id?: string | null;
  tags?: string[];
  assigned_ids?: string[];
  closeAt?: string;
  rating?: { value: 1 | 3 | 5; at: string };
}

/** Creates one conversation as the spec says; returns it read back with its messages. */
export async function chat(t: TestApp, f: ConversationFactory, spec: ChatSpec, defaultAgentId?: string): Promise<Json> {
  const conversation = await f.conversation({
    messages: [{ sub_type: 'contact', content: { type: 'text', text: 'Hello' }, created_at: spec.at }],
    ...(spec.group_id ? { group_id: spec.group_id } : {}),
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...(spec.assigned_ids ? { assigned_ids: spec.assigned_ids } : {}),
  });
  for (const message of spec.then ?? []) {
    const agentId = message.by === 'agent' ? (message.agent_id ?? defaultAgentId) : undefined;
    await f.message(conversation.id, { sub_type: message.by, text: 'Hi', created_at: message.at, ...(agentId ? { agent_id: agentId } : {}) });
  }
  try {
    if (spec.closeAt) {
      t.clock.set(spec.closeAt);
      await f.close(conversation.id);
    }
    if (spec.rating) {
      t.clock.set(spec.rating.at);
      await f.rate(conversation.id, spec.rating.value);
    }
  } finally {
    t.clock.reset();
  }
  return f.get(conversation.id);
}

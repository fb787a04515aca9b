/**
 * Conversations described as data and built through the HTTP API, the way
 * clients build history; the statistics and legacy-export tests both describe
 * their datasets with these specs (the legacy reference, src/test/legacy-reference.ts,
 * classifies the same specs).
 */
import type { TestApp } from './harness.ts';
import type { ConversationFactory, Json } from './conversations.ts';
import { closeIdleConversations } from '../conversations/inactivity.ts';

/** One message of a chat. */
export interface Said {
  from: 'contact' | 'agent' | 'bot';
  /** Which agent wrote (from: 'agent'): an index into the world's agents; default 0. */
  agent?: number;
  /** ISO time; imported (never offline) unless `live`. */
  at: string;
  /** Sent without created_at at clock time `at`: offline when no agent is available then. */
  live?: boolean;
}

export interface ChatSpec {
  /** Index into the world's contacts; a new contact when absent. */
  contact?: number;
  /** In time order. Empty: a pending conversation created at `at`. */
  said: Said[];
  at?: string;
  group?: string | null;
  tags?: string[];
  /** Agents assigned at creation: indices into the world's agents. */
  assigned?: number[];
  close?: { by: 'agent'; at: string } | { by: 'inactivity' };
  rating?: { value: 1 | 3 | 5; at: string };
}

/** What specs refer to by index. */
export interface World {
  factory: ConversationFactory;
  agentIds: string[];
  contactIds: string[];
}

const greeting = (from: string) => `${from} says hi`;

/**
 * Builds one conversation: imported history up to the first agent or live
 * message (a live first message creates the conversation at its time), then
 * each later message, then the close and rating at their times. The clock
 * returns to `now` (or real time) after each step. Returns the conversation id.
 */
export async function buildChat(t: TestApp, world: World, spec: ChatSpec, now?: string): Promise<string> {
  const { factory } = world;
  const settle = () => (now === undefined ? t.clock.reset() : t.clock.set(now));
  const importedEnd = spec.said.findIndex((m) => m.from === 'agent' || m.live);
  const imported = spec.said.slice(0, importedEnd === -1 ? spec.said.length : importedEnd);
  let rest = spec.said.slice(imported.length);
  const base = {
    ...(spec.contact === undefined ? {} : { contact_id: world.contactIds[spec.contact] }),
    ...(spec.group ? { group_id: spec.group } : {}),
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...(spec.assigned ? { assigned_ids: spec.assigned.map((i) => world.agentIds[i]) } : {}),
  };
  let conversation: Json;
  try {
    if (imported.length > 0) {
      conversation = await factory.conversation({
        ...base,
        messages: imported.map((m) => ({ sub_type: m.from, content: { type: 'text', text: greeting(m.from) }, created_at: m.at })),
      });
    } else if (rest[0]?.live) {
      t.clock.set(rest[0].at);
      conversation = await factory.conversation({ ...base, text: greeting('contact') });
      rest = rest.slice(1);
    } else {
      if (spec.at) t.clock.set(spec.at);
      conversation = await factory.conversation(base);
    }
    settle();
    for (const m of rest) {
      if (m.live) t.clock.set(m.at);
      await factory.message(conversation.id, {
        sub_type: m.from,
        text: greeting(m.from),
        ...(m.from === 'agent' ? { agent_id: world.agentIds[m.agent ?? 0] } : {}),
        ...(m.live ? {} : { created_at: m.at }),
      });
      settle();
    }
    if (spec.close?.by === 'agent') {
      t.clock.set(spec.close.at);
      await factory.close(conversation.id);
    }
    if (spec.rating) {
      t.clock.set(spec.rating.at);
      await factory.rate(conversation.id, spec.rating.value);
    }
  } finally {
    settle();
  }
  return conversation.id;
}

/**
 * Builds the conversations with `clock` as "now" (after every time in them).
 * Chats meant to stay open are built after the inactivity pass, which closes
 * every idle one (so `close: {by: 'inactivity'}` chats are closed by it).
 */
export async function buildChats(t: TestApp, world: World, specs: ChatSpec[], clock: string): Promise<void> {
  t.clock.set(clock);
  for (const spec of specs.filter((s) => s.close)) await buildChat(t, world, spec, clock);
  await closeIdleConversations(t.deps);
  for (const spec of specs.filter((s) => !s.close)) await buildChat(t, world, spec, clock);
}

/**
 * Two instances of the service measured side by side at 32 connections, in rounds of opposite orders (A, B, B, A), so
 * a change of the machine's load during the run weighs on both alike: the pooler case (through PgBouncer against
 * direct) and the search-index case (with the full-text index against without it).
 */
import * as harness from './harness.ts';
import type { Figures } from './harness.ts';

export const CONNECTIONS = 32;
const SEEDED_CONVERSATIONS = 500;
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

export type Kind = 'get' | 'create' | 'message';

/** What a side's requests need: where it listens, a token, and a contact with conversations to write to and read. */
export interface Target {
  url: string;
  token: string;
  contactId: string;
  conversationIds: string[];
}

/** One contact and its conversations, written through `url`. */
export async function seed(url: string, token: string): Promise<Target> {
  const api = (method: string, path: string, body?: unknown) => harness.call(url, token, method, path, body);
  const contact = await api('POST', '/v2/contacts', { name: 'Bench' });
  const conversationIds: string[] = [];
  for (let i = 0; i < SEEDED_CONVERSATIONS; i++) {
    conversationIds.push((await api('POST', '/v2/conversations', { contact_id: contact.id, text: `Seed ${i}` })).id);
  }
  return { url, token, contactId: contact.id, conversationIds };
}

async function measure(target: Target, kind: Kind): Promise<Figures> {
  const { url, conversationIds } = target;
  const headers = { authorization: `Bearer ${target.token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const connections = CONNECTIONS;
  if (kind === 'get') return harness.load({ url, connections, headers, path: () => `/v2/conversations/${pick(conversationIds)}` });
  if (kind === 'create') {
    return harness.load({
      url,
      connections,
      method: 'POST',
      headers: json,
      path: '/v2/conversations',
      body: harness.createWithThreeMessages(target.contactId),
    });
  }
  return harness.load({
    url,
    connections,
    method: 'POST',
    headers: json,
    path: () => `/v2/conversations/${pick(conversationIds)}/messages`,
    body: JSON.stringify({ sub_type: 'contact', text: 'Hello again' }),
  });
}

/** `kinds` on `a` and on `b`, A B B A, each kind's two rounds per side merged. */
export async function sideBySide(a: Target, b: Target, kinds: readonly Kind[]): Promise<Record<'a' | 'b', Map<Kind, Figures>>> {
  const rounds = { a: [] as Map<Kind, Figures>[], b: [] as Map<Kind, Figures>[] };
  for (const side of ['a', 'b', 'b', 'a'] as const) {
    const figures = new Map<Kind, Figures>();
    for (const kind of kinds) figures.set(kind, await measure(side === 'a' ? a : b, kind));
    rounds[side].push(figures);
  }
  const both = (side: 'a' | 'b') =>
    new Map(kinds.map((kind) => [kind, harness.mergedFigures(rounds[side].map((round) => round.get(kind)!))] as const));
  return { a: both('a'), b: both('b') };
}

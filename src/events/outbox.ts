import type { Queryable } from '../db/db.ts';

export const EVENT_TYPES = [
  'conversation.opened',
  'conversation.updated',
  'conversation.closed',
  'conversation.rated',
  'conversation.agent_assigned',
  'conversation.agent_unassigned',
  'conversation.contact_replied',
  'conversation.agent_replied',
  'conversation.bot_replied',
  'contact.created',
  'agent.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Records an event in the outbox. Call it with the transaction that makes the
 * change, so a rolled-back change leaves no event and a committed one always has
 * one. Ids come from a per-account counter updated under the account's row lock:
 * gap-free, and committed in id order, so a reader resuming after id N misses nothing.
 */
export async function recordEvent(
  tx: Queryable,
  accountId: string,
  type: EventType,
  data: Record<string, unknown>,
  conversationId: string | null = null,
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `with next as (
       update accounts set last_event_id = last_event_id + 1 where account_id = $1 returning last_event_id
     )
     insert into events (account_id, id, type, conversation_id, data)
     select $1, last_event_id, $2, $3, $4 from next
     returning id`,
    [accountId, type, conversationId, JSON.stringify(data)],
  );
  return rows[0].id;
}

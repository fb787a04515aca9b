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

/** One event to record: its type, its data, and the conversation it belongs to (its delivery lane). */
export interface NewEvent {
  type: EventType;
  data: Record<string, unknown>;
  conversationId?: string | null;
}

/**
 * Records events in the outbox, in the given order, in one statement. Call it
 * with the transaction that makes the change, so a rolled-back change leaves no
 * event and a committed one always has them. Ids come from a per-account counter
 * updated under the account's row lock: gap-free, and committed in id order, so a
 * reader resuming after id N misses nothing. Returns the ids, in order.
 */
export async function recordEvents(tx: Queryable, accountId: string, events: readonly NewEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const { rows } = await tx.query<{ id: number }>(
    `with next as (
       update accounts set last_event_id = last_event_id + cardinality($2::text[]) where account_id = $1
       returning last_event_id - cardinality($2::text[]) as first_id
     )
     insert into events (account_id, id, type, conversation_id, data)
     select $1, next.first_id + e.ord, e.type, e.conversation_id, e.data
     from next, unnest($2::text[], $3::text[], $4::jsonb[]) with ordinality as e (type, conversation_id, data, ord)
     order by e.ord
     returning id`,
    [
      accountId,
      events.map((event) => event.type),
      events.map((event) => event.conversationId ?? null),
      events.map((event) => JSON.stringify(event.data)),
    ],
  );
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** Records one event: `recordEvents` with a single item. Returns its id. */
export async function recordEvent(
  tx: Queryable,
  accountId: string,
  type: EventType,
  data: Record<string, unknown>,
  conversationId: string | null = null,
): Promise<number> {
  const [id] = await recordEvents(tx, accountId, [{ type, data, conversationId }]);
  return id;
}

import type { Transaction } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';

/** The channel on which committed events are announced, with their account id as payload (src/events/hub.ts). */
export const EVENTS_CHANNEL = 'events';

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
  'conversation.agent_typing',
  'conversation.contact_typing',
  'contact.created',
  'contact.deleted',
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
 * event and a committed one always has them. Ids come from one sequence: writers
 * share no lock, ids increase (with gaps) but may commit out of order, which the
 * readers' settled horizon absorbs (src/events/horizon.ts, docs/behaviour.md §10).
 * Once committed, the account is announced on EVENTS_CHANNEL to wake its readers
 * on every instance. Returns the ids, in order.
 */
export async function recordEvents(tx: Transaction, accountId: string, at: Date, events: readonly NewEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  // The id is the column's default, next_event_id() (src/db/migrations/156_event_id_after_xid.sql): the transaction
  // takes its xid before the id, which the horizon relies on. Never name the id here (src/events/event-id.test.ts).
  const { rows } = await tx.query<{ id: number }>(
    `insert into events (account_id, type, conversation_id, data, created_at)
     select $1, e.type, e.conversation_id, e.data, $5
     from unnest($2::text[], $3::text[], $4::jsonb[]) with ordinality as e (type, conversation_id, data, ord)
     order by e.ord
     returning id`,
    [
      accountId,
      events.map((event) => event.type),
      events.map((event) => event.conversationId ?? null),
      events.map((event) => JSON.stringify(event.data)),
      at,
    ],
  );
  tx.notifyAfterCommit(EVENTS_CHANNEL, accountId);
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** Records one event: `recordEvents` with a single item. Returns its id. */
export async function recordEvent(
  tx: Transaction,
  accountId: string,
  at: Date,
  type: EventType,
  data: Record<string, unknown>,
  conversationId: string | null = null,
): Promise<number> {
  return firstRow(await recordEvents(tx, accountId, at, [{ type, data, conversationId }]));
}

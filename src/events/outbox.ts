import type { Transaction } from '../db/db.ts';
import { SqlParams } from '../db/params.ts';
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
 * The insert of `events` into the outbox, in the given order, as one statement's text (its values added to `p`;
 * `account` and `at` name parameters already added), so a writer can record them in the statement that makes the
 * change (a data-modifying `with`). Ids come from one sequence: writers share no lock, ids increase (with gaps) but
 * may commit out of order, which the readers' settled horizon absorbs (src/events/horizon.ts, docs/behaviour.md §10).
 * The id is the column's default, next_event_id() (src/db/migrations/156_event_id_after_xid.sql): the transaction
 * takes its xid before the id, which the horizon relies on. Never name the id here (src/events/fanout.test.ts).
 * Whoever runs it calls `announceEvents` with the same transaction. `onlyIf`: a condition they are recorded under (a
 * conversation's write conditional on its version).
 */
export function insertEventsSql(p: SqlParams, account: string, at: string, events: readonly NewEvent[], onlyIf?: string): string {
  return `insert into events (account_id, type, conversation_id, data, created_at)
     select ${account}, e.type, e.conversation_id, e.data, ${at}
     from unnest(${p.add(events.map((event) => event.type))}::text[], ${p.add(events.map((event) => event.conversationId ?? null))}::text[],
                 ${p.add(events.map((event) => JSON.stringify(event.data)))}::jsonb[]) with ordinality as e (type, conversation_id, data, ord)
     ${onlyIf ? `where ${onlyIf}` : ''}
     order by e.ord
     returning id`;
}

/** Once `tx` has committed, announces the account on EVENTS_CHANNEL to wake its readers on every instance. */
export function announceEvents(tx: Transaction, accountId: string): void {
  tx.notifyAfterCommit(EVENTS_CHANNEL, accountId);
}

/**
 * Records events in the outbox (`insertEventsSql`), in one statement of the transaction that makes the change, so a
 * rolled-back change leaves no event and a committed one always has them. Returns the ids, in order.
 */
export async function recordEvents(tx: Transaction, accountId: string, at: Date, events: readonly NewEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const p = new SqlParams();
  const { rows } = await tx.query<{ id: number }>(insertEventsSql(p, p.add(accountId), p.add(at), events), p.values);
  announceEvents(tx, accountId);
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

import type { Queryable } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import { defaultPartition, type MonthPartition } from '../db/partitions.ts';

export type EventRow = Row<'events'> & { data: Record<string, unknown> };

/** What a stream message and a webhook delivery carry (besides the webhook's own fields). */
export interface EventBody {
  id: number;
  event: string;
  timestamp: string;
  account_id: string;
  data: Record<string, unknown>;
}

export function toEventBody(row: EventRow): EventBody {
  return { id: row.id, event: row.type, timestamp: row.created_at.toISOString(), account_id: row.account_id, data: row.data };
}

/**
 * The account's events after `afterId` up to `throughId` (the settled horizon,
 * src/events/horizon.ts), oldest first (primary-key range scan); with
 * `conversationIds`, only theirs (the events_conversation index).
 */
export async function eventsAfter(
  db: Queryable,
  accountId: string,
  range: { afterId: number; throughId: number; conversationIds?: readonly string[] },
  limit: number,
): Promise<EventRow[]> {
  const { rows } = range.conversationIds
    ? await db.query<EventRow>(
        `select id, type, account_id, conversation_id, data, created_at from events
         where account_id = $1 and conversation_id = any($2::text[]) and id > $3 and id <= $4 order by id limit $5`,
        [accountId, range.conversationIds, range.afterId, range.throughId, limit],
      )
    : await db.query<EventRow>(
        `select id, type, account_id, conversation_id, data, created_at from events
         where account_id = $1 and id > $2 and id <= $3 order by id limit $4`,
        [accountId, range.afterId, range.throughId, limit],
      );
  return rows;
}

/**
 * Deletes up to `limit` events of the default partition (every account; the rows of months without a partition of
 * their own, migration 230) created before `before` that no webhook still has to deliver (`eventsStillNeeded`).
 * Months with a partition go whole (src/events/retention.ts). Rows another instance is deleting are skipped.
 * Returns how many it deleted.
 */
export async function deleteEventsBefore(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `with batch as (
       select e.account_id, e.id from ${defaultPartition('events')} e
       where e.created_at < $1
         and not exists (select 1 from webhooks w where w.account_id = e.account_id and w.queued_through_event_id < e.id)
         and not exists (select 1 from webhook_deliveries d where d.account_id = e.account_id and d.event_id = e.id)
       limit $2
       for update of e skip locked
     )
     delete from ${defaultPartition('events')} e using batch b
     where e.account_id = b.account_id and e.id = b.id`,
    [before, limit],
  );
  return rowCount ?? 0;
}

/**
 * Whether a webhook still has to deliver an event of the month partition `partition`: one of the account's webhooks
 * has it ahead of its outbox cursor (`queued_through_event_id`: not queued yet) or in its queue
 * (`webhook_deliveries`: neither delivered nor given up). See src/webhooks/queue.ts. Once false it stays false:
 * cursors only move forward, new webhooks start at the settled horizon, and only events past a cursor get queued.
 */
export async function eventsStillNeeded(db: Queryable, partition: MonthPartition): Promise<boolean> {
  const { rows } = await db.query<{ needed: boolean }>(
    `select exists (select 1 from webhooks w
                    where exists (select 1 from ${partition.name} e where e.account_id = w.account_id and e.id > w.queued_through_event_id))
         or exists (select 1 from webhook_deliveries d
                    where exists (select 1 from ${partition.name} e where e.account_id = d.account_id and e.id = d.event_id)) as needed`,
  );
  return firstRow(rows).needed;
}

/**
 * Deletes the events of a person being erased (src/contacts/erasure.ts): those of `conversationIds`, or with
 * `contactId` its own `contact.created`. Returns their ids (their pending webhook deliveries go next).
 */
export async function deletePersonEvents(
  db: Queryable,
  accountId: string,
  target: { conversationIds: string[] } | { contactId: string },
): Promise<number[]> {
  const { rows } =
    'conversationIds' in target
      ? await db.query<{ id: number }>('delete from events where account_id = $1 and conversation_id = any($2::text[]) returning id', [
          accountId,
          target.conversationIds,
        ])
      : await db.query<{ id: number }>(
          `delete from events where account_id = $1 and conversation_id is null and type = 'contact.created'
             and data -> 'contact' ->> 'id' = $2
           returning id`,
          [accountId, target.contactId],
        );
  return rows.map((row) => row.id);
}

import type { Queryable } from '../db/db.ts';

export interface EventRow {
  id: number;
  type: string;
  account_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

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

/** The account's events after `afterId`, oldest first (primary-key range scan). */
export async function eventsAfter(db: Queryable, accountId: string, afterId: number, limit: number): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `select id, type, account_id, data, created_at from events
     where account_id = $1 and id > $2 order by id limit $3`,
    [accountId, afterId, limit],
  );
  return rows;
}

/** The id of the account's newest committed event (0 when it has none). */
export async function lastEventId(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ last_event_id: number }>('select last_event_id from accounts where account_id = $1', [
    accountId,
  ]);
  return rows[0]?.last_event_id ?? 0;
}

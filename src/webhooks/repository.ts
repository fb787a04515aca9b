import type { Queryable } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import type { DeliveryError } from './sender.ts';

export type WebhookRow = Pick<Row<'webhooks'>, 'id' | 'url' | 'event_types' | 'created_at'>;

/** A delivery attempt; its error one of DELIVERY_ERRORS (migration 181 mapped older texts). */
export type AttemptRow = Pick<
  Row<'webhook_attempts'>,
  'event_id' | 'event_type' | 'attempt' | 'status_code' | 'duration_ms' | 'attempted_at' | 'next_attempt_at'
> & { error: DeliveryError | null };

/** The webhook starts after `queuedThroughEventId`: it gets only later events. */
export async function insertWebhook(
  db: Queryable,
  accountId: string,
  input: { id: string; url: string; eventTypes: string[] | null; secret: string; queuedThroughEventId: number; createdAt: Date },
): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `insert into webhooks (account_id, id, url, event_types, secret, queued_through_event_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     returning id, url, event_types, created_at`,
    [accountId, input.id, input.url, input.eventTypes, input.secret, input.queuedThroughEventId, input.createdAt],
  );
  return firstRow(rows);
}

export async function listWebhooks(db: Queryable, accountId: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>(
    'select id, url, event_types, created_at from webhooks where account_id = $1 order by created_at, id',
    [accountId],
  );
  return rows;
}

export async function webhookExists(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from webhooks where account_id = $1 and id = $2', [accountId, id]);
  return rows.length > 0;
}

/** Deletes the webhook with its queue and attempt log; returns whether it existed. */
export async function deleteWebhook(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from webhooks where account_id = $1 and id = $2', [accountId, id]);
  return rowCount === 1;
}

export async function recentAttempts(db: Queryable, accountId: string, webhookId: string, limit: number): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptRow>(
    `select event_id, event_type, attempt, status_code, error, duration_ms, attempted_at, next_attempt_at
     from webhook_attempts where account_id = $1 and webhook_id = $2
     order by seq desc limit $3`,
    [accountId, webhookId, limit],
  );
  return rows;
}

/**
 * Makes `secret` the webhook's, and the replaced one its previous secret until `previousUntil`
 * (none when null). Returns the webhook, or null when it does not exist.
 */
export async function rotateSecret(
  db: Queryable,
  accountId: string,
  id: string,
  secret: string,
  previousUntil: Date | null,
): Promise<WebhookRow | null> {
  const { rows } = await db.query<WebhookRow>(
    `update webhooks set previous_secret = case when $4::timestamptz is null then null else secret end,
                         previous_secret_expires_at = $4, secret = $3
     where account_id = $1 and id = $2
     returning id, url, event_types, created_at`,
    [accountId, id, secret, previousUntil],
  );
  return rows[0] ?? null;
}

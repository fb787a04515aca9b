/**
 * SQL of the delivery queue (see src/webhooks/delivery.ts for the rules). Safe
 * with several instances on one PostgreSQL: queueing and finishing a delivery
 * hold the webhook's row lock, claiming takes rows FOR UPDATE SKIP LOCKED and
 * leases them.
 */
import type { Db, Queryable } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';
import type { EventRow } from '../events/repository.ts';
import { dropMonthsBefore, monthStart } from '../db/partitions.ts';

/**
 * Moves new outbox events, up to `throughId` (the settled horizon,
 * src/events/horizon.ts), into the queues of the webhooks that have some, at
 * most `batchSize` per webhook. A lane's first queued delivery is due now; the
 * ones behind it wait for it. Returns how many webhooks were served, or -1 when every webhook with new events
 * was busy in another instance's queueing (locked): not "nothing to queue", so the caller tries again later.
 */
export async function queueNewEvents(db: Db, now: Date, throughId: number, batchSize: number): Promise<number> {
  return db.transaction(async (tx) => {
    // Webhooks busy in another instance are skipped: they are served next time.
    const { rows: locked } = await tx.query<{ account_id: string; id: string }>(
      `select w.account_id, w.id from webhooks w
       where exists (select 1 from events e
                     where e.account_id = w.account_id and e.id > w.queued_through_event_id and e.id <= $1)
       limit 100
       for update of w skip locked`,
      [throughId],
    );
    if (locked.length === 0) {
      const { rows: busy } = await tx.query(
        `select 1 from webhooks w
         where exists (select 1 from events e
                       where e.account_id = w.account_id and e.id > w.queued_through_event_id and e.id <= $1)
         limit 1`,
        [throughId],
      );
      return busy.length > 0 ? -1 : 0;
    }
    // A new statement, so it sees every delivery finished before the locks were taken.
    await tx.query(
      `with batch as (
         select w.account_id, w.id as webhook_id, w.event_types, e.id as event_id, e.type, coalesce(e.conversation_id, '') as lane
         from unnest($1::text[], $2::text[]) as l (account_id, webhook_id)
         join webhooks w on w.account_id = l.account_id and w.id = l.webhook_id
         cross join lateral (
           select id, type, conversation_id from events
           where account_id = w.account_id and id > w.queued_through_event_id and id <= $5
           order by id limit $4
         ) e
       ), queued as (
         insert into webhook_deliveries (account_id, webhook_id, event_id, lane, next_attempt_at, queued_at)
         select b.account_id, b.webhook_id, b.event_id, b.lane,
                case when row_number() over (partition by b.account_id, b.webhook_id, b.lane order by b.event_id) = 1
                      and not exists (select 1 from webhook_deliveries d
                                      where d.account_id = b.account_id and d.webhook_id = b.webhook_id and d.lane = b.lane)
                     then $3::timestamptz end,
                $3
         from batch b
         where b.event_types is null or b.type = any(b.event_types)
       )
       update webhooks w set queued_through_event_id = m.last_event_id
       from (select account_id, webhook_id, max(event_id) as last_event_id from batch group by account_id, webhook_id) m
       where w.account_id = m.account_id and w.id = m.webhook_id`,
      [locked.map((row) => row.account_id), locked.map((row) => row.id), now, batchSize, throughId],
    );
    return locked.length;
  });
}

export interface ClaimedDelivery {
  account_id: string;
  webhook_id: string;
  event_id: number;
  /** This attempt's number, also the claim's fencing token. */
  attempts: number;
  queued_at: Date;
  url: string;
  secret: string;
  /** The secret a rotation replaced, signing too until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  event: EventRow;
}

/**
 * Leases up to `limit` due deliveries until `leasedUntil`, at most `perWebhook`
 * in flight per webhook (counting other instances' leases), so one slow
 * receiver cannot take every slot.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  leasedUntil: Date,
  limits: { limit: number; perWebhook: number },
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<Omit<ClaimedDelivery, 'event'> & Omit<EventRow, 'id' | 'account_id'>>(
    `with in_flight as (
       select account_id, webhook_id, count(*) as leased from webhook_deliveries
       where leased_until > $1 group by account_id, webhook_id
     ), ranked as (
       select d.account_id, d.webhook_id, d.event_id,
              coalesce(f.leased, 0)
                + row_number() over (partition by d.account_id, d.webhook_id order by d.next_attempt_at, d.event_id) as slot
       from webhook_deliveries d
       left join in_flight f on f.account_id = d.account_id and f.webhook_id = d.webhook_id
       where d.next_attempt_at <= $1 and (d.leased_until is null or d.leased_until <= $1)
     ), claimable as (
       -- The due conditions are repeated here so that they are checked again on
       -- the newest row version when another instance changed it meanwhile.
       select d.account_id, d.webhook_id, d.event_id from webhook_deliveries d
       join ranked r on r.account_id = d.account_id and r.webhook_id = d.webhook_id and r.event_id = d.event_id
       where r.slot <= $4 and d.next_attempt_at <= $1 and (d.leased_until is null or d.leased_until <= $1)
       order by d.next_attempt_at, d.event_id
       limit $3
       for update of d skip locked
     ), claimed as (
       update webhook_deliveries d set leased_until = $2, attempts = d.attempts + 1
       from claimable c
       where d.account_id = c.account_id and d.webhook_id = c.webhook_id and d.event_id = c.event_id
       returning d.account_id, d.webhook_id, d.event_id, d.attempts, d.queued_at
     )
     select c.account_id, c.webhook_id, c.event_id, c.attempts, c.queued_at, w.url, w.secret,
            w.previous_secret, w.previous_secret_expires_at, e.type, e.conversation_id, e.data, e.created_at
     from claimed c
     join webhooks w on w.account_id = c.account_id and w.id = c.webhook_id
     join events e on e.account_id = c.account_id and e.id = c.event_id
     order by c.queued_at, c.event_id`,
    [now, leasedUntil, limits.limit, limits.perWebhook],
  );
  return rows.map(({ type, conversation_id, data, created_at, ...delivery }) => ({
    ...delivery,
    event: { id: delivery.event_id, account_id: delivery.account_id, type, conversation_id, data, created_at },
  }));
}

export interface AttemptOutcome {
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** When to try again; null when the delivery is over (delivered or given up). */
  nextAttemptAt: Date | null;
}

/**
 * Records an attempt and applies its outcome: a finished delivery leaves the
 * queue and makes the next one of its lane due now; a failed one waits until
 * its next attempt. Nothing changes but the log when the claim was lost (the
 * lease expired and another instance claimed the delivery) or the webhook is gone.
 */
export async function finishAttempt(db: Db, delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows: webhook } = await tx.query('select 1 from webhooks where account_id = $1 and id = $2 for update', [
      delivery.account_id,
      delivery.webhook_id,
    ]);
    if (webhook.length === 0) return;
    const key = [delivery.account_id, delivery.webhook_id, delivery.event_id, delivery.attempts];
    await tx.query(
      `insert into webhook_attempts (account_id, webhook_id, event_id, event_type, attempt, status_code, error, duration_ms, attempted_at, next_attempt_at)
       values ($1, $2, $3, $5, $4, $6, $7, $8, $9, $10)`,
      [...key, delivery.event.type, outcome.statusCode, outcome.error, outcome.durationMs, outcome.attemptedAt, outcome.nextAttemptAt],
    );
    if (outcome.nextAttemptAt) {
      await tx.query(
        `update webhook_deliveries set leased_until = null, next_attempt_at = $5
         where account_id = $1 and webhook_id = $2 and event_id = $3 and attempts = $4`,
        [...key, outcome.nextAttemptAt],
      );
      return;
    }
    const {
      rows: [removed],
    } = await tx.query<{ lane: string }>(
      `delete from webhook_deliveries where account_id = $1 and webhook_id = $2 and event_id = $3 and attempts = $4
       returning lane`,
      key,
    );
    if (!removed) return;
    await tx.query(
      `update webhook_deliveries set next_attempt_at = $4
       where account_id = $1 and webhook_id = $2 and event_id = (
         select min(event_id) from webhook_deliveries where account_id = $1 and webhook_id = $2 and lane = $3
       )`,
      [delivery.account_id, delivery.webhook_id, removed.lane, now],
    );
  });
}

/** The accounts that have at least one webhook (the worker only reads the events of these). */
export async function accountsWithWebhooks(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ account_id: string }>('select distinct account_id from webhooks');
  return rows.map((row) => row.account_id);
}

/** Forgets attempts older than `before`. */
export async function pruneAttempts(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from webhook_attempts where attempted_at < $1', [before]);
}

/**
 * Drops the month partitions of the queue (migration 230) of months before `now`'s that hold no delivery any more:
 * the dead rows and index pages of a month of queue traffic go at once, without vacuum. A month still holding a
 * delivery (a lane waiting behind a failing one) is kept for a later pass. Returns 0: no delivery is removed.
 */
export async function dropEmptyDeliveryMonths(db: Db, now: Date): Promise<number> {
  return dropMonthsBefore(db, 'webhook_deliveries', monthStart(now), async (tx, partition) => {
    const { rows } = await tx.query<{ used: boolean }>(`select exists (select 1 from ${partition.name}) as used`);
    return firstRow(rows).used;
  });
}

/** Drops the pending deliveries of events that were deleted (a person's erasure, src/contacts/erasure.ts). */
export async function dropDeliveriesOfEvents(db: Queryable, accountId: string, eventIds: number[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.query('delete from webhook_deliveries where account_id = $1 and event_id = any($2::bigint[])', [accountId, eventIds]);
}

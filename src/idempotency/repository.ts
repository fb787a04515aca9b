import type { Queryable } from '../db/db.ts';

export interface StoredKey {
  request_hash: string;
  /** Null once the answer is stored. */
  locked_until: Date | null;
  status: number | null;
  content_type: string | null;
  response_body: string | null;
}

export interface Reservation {
  accountId: string;
  key: string;
  requestHash: string;
  lockId: string;
  lockedUntil: Date;
  now: Date;
  /** Entries created at or before this have expired and are replaced. */
  expiredBefore: Date;
}

/**
 * Takes the key for one request: inserts it locked, or replaces an entry that has
 * expired or whose lock was abandoned (its instance crashed). True when this
 * request holds the lock; false when another entry stands (running or answered).
 */
export async function reserveKey(db: Queryable, r: Reservation): Promise<boolean> {
  const { rows } = await db.query<{ lock_id: string }>(
    `insert into idempotency_keys (account_id, key, request_hash, lock_id, locked_until, created_at)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (account_id, key) do update
       set request_hash = excluded.request_hash, lock_id = excluded.lock_id, locked_until = excluded.locked_until,
           created_at = excluded.created_at, status = null, content_type = null, response_body = null
       where idempotency_keys.created_at <= $7
          or (idempotency_keys.status is null and idempotency_keys.locked_until <= $6)
     returning lock_id`,
    [r.accountId, r.key, r.requestHash, r.lockId, r.lockedUntil, r.now, r.expiredBefore],
  );
  return rows[0]?.lock_id === r.lockId;
}

export async function findKey(db: Queryable, accountId: string, key: string): Promise<StoredKey | null> {
  const { rows } = await db.query<StoredKey>(
    `select request_hash, locked_until, status, content_type, response_body
     from idempotency_keys where account_id = $1 and key = $2`,
    [accountId, key],
  );
  return rows[0] ?? null;
}

/** Stores the answer of the request holding `lockId` and unlocks the key; nothing when the lock was taken over. */
export async function storeAnswer(
  db: Queryable,
  accountId: string,
  key: string,
  lockId: string,
  answer: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await db.query(
    `update idempotency_keys
     set status = $4, content_type = $5, response_body = $6, lock_id = null, locked_until = null
     where account_id = $1 and key = $2 and lock_id = $3`,
    [accountId, key, lockId, answer.status, answer.contentType, answer.body],
  );
}

/** Frees the key held by `lockId` (its request failed with a 5xx): a retry runs again. */
export async function releaseKey(db: Queryable, accountId: string, key: string, lockId: string): Promise<void> {
  await db.query('delete from idempotency_keys where account_id = $1 and key = $2 and lock_id = $3', [accountId, key, lockId]);
}

/** Deletes up to `limit` entries (every account) created at or before `expiredBefore`; returns how many. */
export async function deleteExpiredKeys(db: Queryable, expiredBefore: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `with batch as (
       select account_id, key from idempotency_keys
       where created_at <= $1
       limit $2
       for update skip locked
     )
     delete from idempotency_keys k using batch b
     where k.account_id = b.account_id and k.key = b.key`,
    [expiredBefore, limit],
  );
  return rowCount ?? 0;
}

/**
 * Moves the lock of every key still held by these requests (same length arrays: account, key, lock id) to
 * `lockedUntil`; keys answered or taken over meanwhile are left alone. Returns how many were renewed.
 */
export async function renewLocks(
  db: Queryable,
  held: { accountIds: string[]; keys: string[]; lockIds: string[] },
  lockedUntil: Date,
): Promise<number> {
  const { rowCount } = await db.query(
    `update idempotency_keys k set locked_until = $4
     from unnest($1::text[], $2::text[], $3::text[]) as h (account_id, key, lock_id)
     where k.account_id = h.account_id and k.key = h.key and k.lock_id = h.lock_id and k.status is null`,
    [held.accountIds, held.keys, held.lockIds, lockedUntil],
  );
  return rowCount ?? 0;
}

import type { Queryable } from '../db/db.ts';
import type { Row } from '../db/rows.ts';

export interface NewUpload {
  id: string;
  tokenHash: string;
  fileName: string;
  fileType: string;
  createdAt: Date;
  /** While incomplete: when a crashed request's leftovers may be deleted; completeUpload sets the token's expiry. */
  expiresAt: Date;
}

/** Starts an upload, incomplete (migration 170): no reader sees it and no quota counts it until completeUpload. */
export async function insertIncompleteUpload(db: Queryable, accountId: string, upload: NewUpload): Promise<void> {
  await db.query(
    `insert into uploads (account_id, id, token_hash, file_name, file_type, size, data, created_at, expires_at, complete)
     values ($1, $2, $3, $4, $5, 0, null, $6, $7, false)`,
    [accountId, upload.id, upload.tokenHash, upload.fileName, upload.fileType, upload.createdAt, upload.expiresAt],
  );
}

/** Stores the `seq`th chunk of an incomplete upload's bytes. */
export async function insertUploadChunk(db: Queryable, accountId: string, uploadId: string, seq: number, data: Buffer): Promise<void> {
  await db.query('insert into upload_chunks (account_id, upload_id, seq, data) values ($1, $2, $3, $4)', [accountId, uploadId, seq, data]);
}

/** Deletes an incomplete upload and its chunks (a refused or broken request). */
export async function deleteIncompleteUpload(db: Queryable, accountId: string, id: string): Promise<void> {
  await db.query('delete from uploads where account_id = $1 and id = $2 and not complete', [accountId, id]);
}

/**
 * Serialises the quota checks of one account until `tx` ends, so two uploads finishing at once cannot both
 * fit in the room left for one. Other accounts are not held.
 */
export async function lockUploadQuota(tx: Queryable, accountId: string): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtextextended('upload_quota:' || $1, 0))", [accountId]);
}

export interface UploadUsage {
  /** Bytes of the account's stored uploads. */
  total: number;
  /** Bytes of those uploaded after `since`. */
  recent: number;
}

export async function uploadUsage(db: Queryable, accountId: string, since: Date): Promise<UploadUsage> {
  const { rows } = await db.query<UploadUsage>(
    `select coalesce(sum(size), 0) as total, coalesce(sum(size) filter (where created_at > $2), 0) as recent
     from uploads where account_id = $1 and complete`,
    [accountId, since],
  );
  return { total: Number(rows[0]?.total ?? 0), recent: Number(rows[0]?.recent ?? 0) };
}

/** The account's uploads after `since`, oldest first: when each leaves a window, and how many bytes it frees. */
export async function uploadsSince(db: Queryable, accountId: string, since: Date): Promise<Pick<Row<'uploads'>, 'created_at' | 'size'>[]> {
  const { rows } = await db.query<Pick<Row<'uploads'>, 'created_at' | 'size'>>(
    `select created_at, size from uploads where account_id = $1 and complete and created_at > $2 order by created_at, id`,
    [accountId, since],
  );
  return rows;
}

/** Completes an incomplete upload: its size, and its token's life from now on. False when it is gone. */
export async function completeUpload(
  tx: Queryable,
  accountId: string,
  id: string,
  done: { size: number; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `update uploads set complete = true, size = $3, created_at = $4, expires_at = $5
     where account_id = $1 and id = $2 and not complete`,
    [accountId, id, done.size, done.createdAt, done.expiresAt],
  );
  return rowCount === 1;
}

export interface UploadInfo {
  id: string;
  file_name: string;
  file_type: string;
  size: number;
}

/**
 * Marks the account's uploads whose token hash is in `tokenHashes` and that have
 * not expired at `now` as attached, so the retention pass keeps them for good.
 * Call it in the transaction that stores the message referencing them, before
 * reading them with findLiveUploadsByTokenHash: the update takes the row lock the
 * retention pass also takes, so either the pass deleted the upload first (and the
 * read no longer finds it: the token is refused) or the upload is attached when
 * the message commits. Uploads already attached are left alone (no write, no lock).
 */
export async function markUploadsAttached(db: Queryable, accountId: string, tokenHashes: string[], now: Date): Promise<void> {
  if (tokenHashes.length === 0) return;
  await db.query(
    `update uploads set attached = true
     where account_id = $1 and token_hash = any($2::text[]) and expires_at > $3 and complete and not attached`,
    [accountId, tokenHashes, now],
  );
}

/**
 * Deletes up to `limit` uploads never attached whose token expired at `now`
 * (every account). Rows another instance is deleting, or a message is attaching
 * right now, are skipped. Returns how many it deleted.
 */
export async function deleteExpiredUnattachedUploads(db: Queryable, now: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `with batch as (
       select account_id, id from uploads
       where not attached and expires_at <= $1
       limit $2
       for update skip locked
     )
     delete from uploads u using batch b
     where u.account_id = b.account_id and u.id = b.id`,
    [now, limit],
  );
  return rowCount ?? 0;
}

/** The account's uploads whose token hash is in `tokenHashes` and that have not expired at `now`, by token hash. */
export async function findLiveUploadsByTokenHash(
  db: Queryable,
  accountId: string,
  tokenHashes: string[],
  now: Date,
): Promise<Map<string, UploadInfo>> {
  if (tokenHashes.length === 0) return new Map();
  const { rows } = await db.query<UploadInfo & { token_hash: string }>(
    `select token_hash, id, file_name, file_type, size from uploads
     where account_id = $1 and token_hash = any($2::text[]) and expires_at > $3 and complete`,
    [accountId, tokenHashes, now],
  );
  return new Map(rows.map(({ token_hash, ...info }) => [token_hash, info]));
}

/** `data` holds the bytes of a file stored before migration 170; null when they are in upload_chunks. */
export type UploadContentRow = Pick<Row<'uploads'>, 'file_name' | 'file_type' | 'size' | 'data'>;

export async function findUploadContent(db: Queryable, accountId: string, id: string): Promise<UploadContentRow | null> {
  const { rows } = await db.query<UploadContentRow>(
    'select file_name, file_type, size, data from uploads where account_id = $1 and id = $2 and complete',
    [accountId, id],
  );
  return rows[0] ?? null;
}

/** The chunks of an upload from `fromSeq` on, at most `limit` of them, in order. */
export async function readUploadChunks(db: Queryable, accountId: string, id: string, fromSeq: number, limit: number): Promise<Buffer[]> {
  const { rows } = await db.query<Pick<Row<'upload_chunks'>, 'data'>>(
    `select data from upload_chunks where account_id = $1 and upload_id = $2 and seq >= $3 order by seq limit $4`,
    [accountId, id, fromSeq, limit],
  );
  return rows.map((row) => row.data);
}

/**
 * Deletes the uploads attached in the conversations `conversationIds` of contact `contactId` (being erased), files
 * included (upload_chunks cascade), except those a message of another contact's conversation attaches too (an
 * upload token is reusable for 24 hours); index messages_attachments finds those.
 */
export async function deleteUploadsAttachedOnlyIn(
  db: Queryable,
  accountId: string,
  contactId: string,
  conversationIds: string[],
): Promise<void> {
  await db.query(
    `with attached as (
       select distinct substring(a ->> 'url' from '^/v2/uploads/([^/]+)/content$') as id
       from messages m cross join lateral jsonb_array_elements(m.attachments) a
       where m.account_id = $1 and m.conversation_id = any($3::text[]) and m.attachments <> '[]'::jsonb and a ->> 'type' = 'upload'
     )
     delete from uploads u using attached x
     where u.account_id = $1 and u.id = x.id
       and not exists (
         select 1 from messages o join conversations oc on oc.account_id = o.account_id and oc.id = o.conversation_id
         where o.account_id = $1 and o.attachments <> '[]'::jsonb and oc.contact_id <> $2
           and o.attachments @> jsonb_build_array(jsonb_build_object('url', '/v2/uploads/' || u.id || '/content')))`,
    [accountId, contactId, conversationIds],
  );
}

import type { Queryable } from '../db/db.ts';

export interface NewUpload {
  id: string;
  tokenHash: string;
  fileName: string;
  fileType: string;
  data: Buffer;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertUpload(db: Queryable, accountId: string, upload: NewUpload): Promise<void> {
  await db.query(
    `insert into uploads (account_id, id, token_hash, file_name, file_type, size, data, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      accountId,
      upload.id,
      upload.tokenHash,
      upload.fileName,
      upload.fileType,
      upload.data.length,
      upload.data,
      upload.createdAt,
      upload.expiresAt,
    ],
  );
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
     where account_id = $1 and token_hash = any($2::text[]) and expires_at > $3 and not attached`,
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
     where account_id = $1 and token_hash = any($2::text[]) and expires_at > $3`,
    [accountId, tokenHashes, now],
  );
  return new Map(rows.map(({ token_hash, ...info }) => [token_hash, info]));
}

export async function findUploadContent(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<{ file_name: string; file_type: string; data: Buffer } | null> {
  const { rows } = await db.query<{ file_name: string; file_type: string; data: Buffer }>(
    'select file_name, file_type, data from uploads where account_id = $1 and id = $2',
    [accountId, id],
  );
  return rows[0] ?? null;
}

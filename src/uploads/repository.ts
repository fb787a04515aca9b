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
    [accountId, upload.id, upload.tokenHash, upload.fileName, upload.fileType, upload.data.length, upload.data, upload.createdAt, upload.expiresAt],
  );
}

export interface UploadInfo {
  id: string;
  file_name: string;
  file_type: string;
  size: number;
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

import type { Queryable } from '../db/db.ts';
import { newId } from '../ids.ts';
import type { Tag } from './schema.ts';

export async function insertTag(db: Queryable, accountId: string, name: string): Promise<Tag> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
    'insert into tags (account_id, id, name) values ($1, $2, $3) returning id, name, created_at',
    [accountId, newId('tg'), name],
  );
  return { ...rows[0], created_at: rows[0].created_at.toISOString() };
}

export async function listTags(db: Queryable, accountId: string): Promise<Tag[]> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
    'select id, name, created_at from tags where account_id = $1 order by created_at, id',
    [accountId],
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** The ids among `ids` that are not tags of the account. */
export async function missingTagIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>('select id from tags where account_id = $1 and id = any($2::text[])', [accountId, ids]);
  const found = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

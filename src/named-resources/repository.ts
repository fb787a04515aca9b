import type { Queryable } from '../db/db.ts';
import { newId } from '../ids.ts';
import { GROUPS, TAGS, type NamedResource, type NamedResourceKind } from './schema.ts';

// `kind.plural` names the table: one of two constants, never caller input.

type Row = { id: string; name: string; created_at: Date };
const toRecord = (row: Row): NamedResource => ({ ...row, created_at: row.created_at.toISOString() });

export async function insertNamed(db: Queryable, kind: NamedResourceKind, accountId: string, name: string): Promise<NamedResource> {
  const { rows } = await db.query<Row>(
    `insert into ${kind.plural} (account_id, id, name) values ($1, $2, $3) returning id, name, created_at`,
    [accountId, newId(kind.prefix), name],
  );
  return toRecord(rows[0]);
}

export async function listNamed(db: Queryable, kind: NamedResourceKind, accountId: string): Promise<NamedResource[]> {
  const { rows } = await db.query<Row>(
    `select id, name, created_at from ${kind.plural} where account_id = $1 order by created_at, id`,
    [accountId],
  );
  return rows.map(toRecord);
}

/** Returns whether it existed. Records naming it keep the id; a group's memberships go with it (migration 095). */
export async function deleteNamed(db: Queryable, kind: NamedResourceKind, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`delete from ${kind.plural} where account_id = $1 and id = $2`, [accountId, id]);
  return rowCount === 1;
}

/**
 * The ids among `ids` that are not resources of the account. The ones found are
 * locked (key share) until the caller's transaction ends, so a concurrent delete
 * cannot remove what the caller is about to refer to.
 */
export async function missingNamedIds(db: Queryable, kind: NamedResourceKind, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `select id from ${kind.plural} where account_id = $1 and id = any($2::text[]) for key share`,
    [accountId, ids],
  );
  const found = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

/** The ids among `ids` that are not groups of the account. */
export function missingGroupIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  return missingNamedIds(db, GROUPS, accountId, ids);
}

/** The ids among `ids` that are not tags of the account. */
export function missingTagIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  return missingNamedIds(db, TAGS, accountId, ids);
}

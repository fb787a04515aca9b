import type { Queryable } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import { newId } from '../ids.ts';
import { GROUPS, type NamedResourceKind } from './kinds.ts';

// `kind.plural` names the table: one of two constants, never caller input.

export type NamedRow = Pick<Row<'groups' | 'tags'>, 'id' | 'name' | 'created_at'>;

export async function insertNamed(
  db: Queryable,
  kind: NamedResourceKind,
  accountId: string,
  name: string,
  createdAt: Date,
): Promise<NamedRow> {
  const { rows } = await db.query<NamedRow>(
    `insert into ${kind.plural} (account_id, id, name, created_at) values ($1, $2, $3, $4) returning id, name, created_at`,
    [accountId, newId(kind.prefix), name, createdAt],
  );
  return firstRow(rows);
}

export async function listNamed(db: Queryable, kind: NamedResourceKind, accountId: string): Promise<NamedRow[]> {
  const { rows } = await db.query<NamedRow>(
    `select id, name, created_at from ${kind.plural} where account_id = $1 order by created_at, id`,
    [accountId],
  );
  return rows;
}

/** Returns whether it existed. Records naming it keep the id; a group's memberships go with it (migration 095). */
export async function deleteNamed(db: Queryable, kind: NamedResourceKind, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`delete from ${kind.plural} where account_id = $1 and id = $2`, [accountId, id]);
  return rowCount === 1;
}

/**
 * SQL: the ids of the text array `ids` that are not resources of the account, in their order. The ones found
 * are locked (key share) until the caller's transaction ends, so a concurrent delete cannot remove what the
 * caller is about to refer to. The arguments name the query's parameters, so a larger query can embed it.
 */
export const missingNamedIdsSql = (kind: NamedResourceKind, account: string, ids: string) =>
  `array(select u.id from unnest(${ids}::text[]) with ordinality u (id, ord)
         where not exists (select 1 from ${kind.plural} r where r.account_id = ${account} and r.id = u.id for key share)
         order by u.ord)`;

/** The ids among `ids` that are not groups of the account (found ones locked, see missingNamedIdsSql). */
export async function missingGroupIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ missing: string[] }>(`select ${missingNamedIdsSql(GROUPS, '$1', '$2')} as missing`, [accountId, ids]);
  return firstRow(rows).missing;
}

/** Ids of the named `kind` rows, by name, creating the missing ones (`chat-service demo-data` reuses what exists). */
export async function ensureNamed(
  db: Queryable,
  kind: NamedResourceKind,
  accountId: string,
  names: readonly string[],
  createdAt: Date,
): Promise<Map<string, string>> {
  const { rows: existing } = await db.query<{ id: string; name: string }>(
    `select min(id) as id, name from ${kind.plural} where account_id = $1 and name = any($2::text[]) group by name`,
    [accountId, names],
  );
  const ids = new Map(existing.map((row) => [row.name, row.id]));
  const missing = names.filter((name) => !ids.has(name));
  for (const name of missing) ids.set(name, newId(kind.prefix));
  if (missing.length > 0) {
    await db.query(
      `insert into ${kind.plural} (account_id, id, name, created_at) select $1, n.id, n.name, $4 from unnest($2::text[], $3::text[]) as n (id, name)`,
      [accountId, missing.map((name) => ids.get(name)), missing, createdAt],
    );
  }
  return ids;
}

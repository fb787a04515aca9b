import type { Queryable } from '../db/db.ts';
import { SqlParams } from '../db/params.ts';
import { newId } from '../ids.ts';
import { firstRow, type Row } from '../db/rows.ts';

export type ContactRow = Pick<Row<'contacts'>, 'id' | 'email' | 'identity_id' | 'name' | 'phone' | 'created_at' | 'updated_at'>;

const COLUMNS = 'id, email, identity_id, name, phone, created_at, updated_at';

/** Null when the identity_id is taken (the unique index decides, so concurrent inserts cannot both win). */
export async function insertContact(
  db: Queryable,
  accountId: string,
  input: { email: string | null; identity_id: string | null; name: string | null; phone: string | null; created_at: Date },
): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>(
    `insert into contacts (account_id, id, email, identity_id, name, phone, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $7)
     on conflict (account_id, identity_id) where identity_id is not null do nothing
     returning ${COLUMNS}`,
    [accountId, newId('ct'), input.email, input.identity_id, input.name, input.phone, input.created_at],
  );
  return rows[0] ?? null;
}

export async function findContact(db: Queryable, accountId: string, id: string): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>(`select ${COLUMNS} from contacts where account_id = $1 and id = $2 and erasing_at is null`, [
    accountId,
    id,
  ]);
  return rows[0] ?? null;
}

/** The contact with this identity_id (the caller's own id for the person), or null. */
export async function findContactByIdentityId(db: Queryable, accountId: string, identityId: string): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>(
    `select ${COLUMNS} from contacts where account_id = $1 and identity_id = $2 and erasing_at is null`,
    [accountId, identityId],
  );
  return rows[0] ?? null;
}

/** SQL: whether the contact `id` names exists in the account (the arguments name the query's parameters). */
export const contactExistsSql = (account: string, id: string) =>
  `exists (select 1 from contacts where account_id = ${account} and id = ${id} and erasing_at is null)`;

/** SQL: the ids of the account's contacts being erased (docs/behaviour.md §4 "Erasure"), as an array (index contacts_erasing). */
export const erasingContactIdsSql = (account: string) =>
  `array(select id from contacts where account_id = ${account} and erasing_at is not null)`;

/** Case-insensitive match; of several, the most recently updated (index contacts_email). */
export async function findContactByEmail(db: Queryable, accountId: string, email: string): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>(
    `select ${COLUMNS} from contacts
     where account_id = $1 and lower(email) = lower($2) and erasing_at is null
     order by updated_at desc, created_at desc, id desc
     limit 1`,
    [accountId, email],
  );
  return rows[0] ?? null;
}

/** A contact of a list page, with its position for the next page's cursor: created_at as text to the microsecond. */
export type ListedContact = ContactRow & { position: string };

/**
 * Newest first, `limit` contacts of the account after (`afterCreatedAt`, `afterId`), those matching `q` when given
 * (docs/behaviour.md §4): a prefix of a word of the name or of the e-mail, case and diacritics ignored. `q` is
 * folded by the database (chat_fold) as the keys were; LIKE's wildcards in it are escaped or are punctuation.
 */
export async function listContacts(
  db: Queryable,
  accountId: string,
  q: string | undefined,
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<ListedContact[]> {
  const p = new SqlParams();
  const where = [`account_id = ${p.add(accountId)}`, 'erasing_at is null'];
  if (q !== undefined) {
    const name = p.add(q);
    const email = p.add(q.replace(/[\\%_]/g, (char) => `\\${char}`));
    // The name's words in q; none (q only punctuation) matches no name.
    const words = `btrim(regexp_replace(chat_fold(${name}), '[[:space:][:punct:]]+', ' ', 'g'))`;
    where.push(`((${words} <> '' and name_key like '% ' || ${words} || '%') or email_key like chat_fold(${email}) || '%')`);
  }
  if (after) where.push(`(created_at, id) < (${p.add(after.createdAt)}::timestamptz, ${p.add(after.id)}::text)`);
  const { rows } = await db.query<ListedContact>(
    `select ${COLUMNS}, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position
     from contacts where ${where.join(' and ')}
     order by created_at desc, id desc
     limit ${p.add(limit)}`,
    p.values,
  );
  return rows;
}

/** A contact of imported history (`chat-service demo-data`). */
export interface HistoryContact {
  id: string;
  email: string | null;
  identityId: string | null;
  name: string | null;
  phone: string | null;
  createdAt: Date;
}

/** Contacts of imported history, in one statement. */
export async function insertHistoryContacts(db: Queryable, accountId: string, contacts: readonly HistoryContact[]): Promise<void> {
  if (contacts.length === 0) return;
  await db.query(
    `insert into contacts (account_id, id, email, identity_id, name, phone, created_at, updated_at)
     select $1, c.id, c.email, c.identity_id, c.name, c.phone, c.created_at, c.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
       as c (id, email, identity_id, name, phone, created_at)`,
    [
      accountId,
      contacts.map((c) => c.id),
      contacts.map((c) => c.email),
      contacts.map((c) => c.identityId),
      contacts.map((c) => c.name),
      contacts.map((c) => c.phone),
      contacts.map((c) => c.createdAt),
    ],
  );
}

// ---------------------------------------------------------------- erasure (docs/behaviour.md §4 "Erasure")

/**
 * Marks the contact as being erased (once: a retry keeps the first mark). Null when it does not exist;
 * `started` says whether this call marked it.
 */
export async function markErasing(db: Queryable, accountId: string, id: string, now: Date): Promise<{ started: boolean } | null> {
  const { rows } = await db.query<{ started: boolean }>(
    `with before as (select erasing_at from contacts where account_id = $1 and id = $2 for update)
     update contacts c set erasing_at = coalesce(c.erasing_at, $3)
     from before where c.account_id = $1 and c.id = $2
     returning before.erasing_at is null as started`,
    [accountId, id, now],
  );
  return rows[0] ?? null;
}

/**
 * Deletes the contact, in the caller's transaction (its events first: src/contacts/erasure.ts). False when a
 * conversation of it still exists (one started while the batches ran): erase again.
 */
export async function deleteErasedContact(db: Queryable, accountId: string, contactId: string): Promise<boolean> {
  // The contact's row lock first: a conversation insert naming it (which holds a key share lock on it) finishes
  // before, so its conversation is seen below, and none starts after.
  await db.query('select 1 from contacts where account_id = $1 and id = $2 for update', [accountId, contactId]);
  const { rows } = await db.query<{ remaining: boolean }>(
    `select exists (select 1 from conversations where account_id = $1 and contact_id = $2) as remaining`,
    [accountId, contactId],
  );
  if (firstRow(rows).remaining) return false;
  await db.query('delete from contacts where account_id = $1 and id = $2', [accountId, contactId]);
  return true;
}

/** Contacts of every account marked erasing before `before` (a crashed or abandoned erasure), for the erasure job. */
export async function stalledErasures(db: Queryable, before: Date, limit: number): Promise<{ account_id: string; id: string }[]> {
  const { rows } = await db.query<{ account_id: string; id: string }>(
    `select account_id, id from contacts where erasing_at is not null and erasing_at < $1 order by erasing_at limit $2`,
    [before, limit],
  );
  return rows;
}

import type { Queryable } from '../db/db.ts';
import type { Row } from '../db/rows.ts';
import { contactExistsSql } from '../contacts/repository.ts';

/** A visitor's session as its token finds it, with the origins its account allows now. */
export type SessionRow = Pick<Row<'widget_sessions'>, 'account_id' | 'id' | 'contact_id' | 'last_seen_at'> &
  Pick<Row<'accounts'>, 'widget_origins'>;

/**
 * Inserts a session for a contact that still exists and is not being erased; false when it is (an erasure that
 * began after the contact was looked up), so no session outlives its contact.
 */
export async function insertSession(
  db: Queryable,
  session: { accountId: string; id: string; contactId: string; tokenHash: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into widget_sessions (account_id, id, contact_id, token_hash, created_at, last_seen_at)
     select $1, $2, $3, $4, $5, $5 where ${contactExistsSql('$1', '$3')}`,
    [session.accountId, session.id, session.contactId, session.tokenHash, session.at],
  );
  return rowCount === 1;
}

/** The session of a token hash whose contact still exists (not being erased), or null. */
export async function sessionByTokenHash(db: Queryable, tokenHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `select s.account_id, s.id, s.contact_id, s.last_seen_at, a.widget_origins
     from widget_sessions s join accounts a on a.account_id = s.account_id
     where s.token_hash = $1 and ${contactExistsSql('s.account_id', 's.contact_id')}`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function touchSession(db: Queryable, accountId: string, id: string, at: Date): Promise<void> {
  await db.query('update widget_sessions set last_seen_at = $3 where account_id = $1 and id = $2 and last_seen_at < $3', [
    accountId,
    id,
    at,
  ]);
}

export async function deleteSession(db: Queryable, accountId: string, id: string): Promise<void> {
  await db.query('delete from widget_sessions where account_id = $1 and id = $2', [accountId, id]);
}

/** Revokes every visitor token of the account (a rotated widget key). */
export async function deleteAccountSessions(db: Queryable, accountId: string): Promise<void> {
  await db.query('delete from widget_sessions where account_id = $1', [accountId]);
}

/** Everything stored for a contact's visits (its erasure, src/contacts/erasure.ts). */
export async function deleteContactVisits(db: Queryable, accountId: string, contactId: string): Promise<void> {
  await db.query('delete from widget_sessions where account_id = $1 and contact_id = $2', [accountId, contactId]);
  await db.query('delete from widget_writes where account_id = $1 and contact_id = $2', [accountId, contactId]);
}

/** A client id a visitor's write carries, within its scope: '' for a conversation's start, the conversation's id for a message. */
export interface ClientWrite {
  accountId: string;
  contactId: string;
  scope: string;
  clientId: string;
}

const WRITE_KEY = 'account_id = $1 and contact_id = $2 and scope = $3 and client_id = $4';
const keyParams = (write: ClientWrite) => [write.accountId, write.contactId, write.scope, write.clientId];

/** Takes the client id for a write; false when it was taken (a repeated write). */
export async function claimWrite(db: Queryable, write: ClientWrite, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    `insert into widget_writes (account_id, contact_id, scope, client_id, result_id, created_at) values ($1, $2, $3, $4, null, $5)
     on conflict do nothing returning 1`,
    [...keyParams(write), at],
  );
  return rows.length > 0;
}

/** What the write of the client id stored (null while the first request runs); undefined when there is none. */
export async function findWrite(db: Queryable, write: ClientWrite): Promise<string | null | undefined> {
  const { rows } = await db.query<Pick<Row<'widget_writes'>, 'result_id'>>(
    `select result_id from widget_writes where ${WRITE_KEY}`,
    keyParams(write),
  );
  return rows[0]?.result_id;
}

export async function settleWrite(db: Queryable, write: ClientWrite, resultId: string): Promise<void> {
  await db.query(`update widget_writes set result_id = $5 where ${WRITE_KEY}`, [...keyParams(write), resultId]);
}

/** Gives the client id up after a failed write, so a retry may run it again. */
export async function releaseWrite(db: Queryable, write: ClientWrite): Promise<void> {
  await db.query(`delete from widget_writes where ${WRITE_KEY} and result_id is null`, keyParams(write));
}

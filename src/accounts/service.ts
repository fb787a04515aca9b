import type { Db, Queryable } from '../db/db.ts';
import { newId, sha256 } from '../ids.ts';
import { generateApiKey } from '../auth/tokens.ts';
import { SCOPES } from '../auth/scopes.ts';
import { createToken } from '../tokens/service.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import type { Account, UpdateAccountBody } from './schema.ts';

export interface NewAccount {
  account_id: string;
  token: string;
  api_key: string;
}

/** A new tenant with an owner token holding every scope and a legacy apiKey. */
export async function createAccount(db: Db, input: { name?: string; timezone?: string } = {}): Promise<NewAccount> {
  return db.transaction(async (tx) => {
    const accountId = newId('ac');
    const apiKey = generateApiKey();
    await tx.query('insert into accounts (account_id, name, timezone, api_key_hash) values ($1, $2, $3, $4)', [
      accountId,
      input.name ?? 'My account',
      input.timezone ?? 'UTC',
      sha256(apiKey),
    ]);
    const owner = await createToken(tx, accountId, { name: 'owner', scopes: SCOPES });
    return { account_id: accountId, token: owner.token, api_key: apiKey };
  });
}

export async function countAccounts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('select count(*) as n from accounts');
  return rows[0].n;
}

export async function requireAccount(db: Queryable, accountId: string): Promise<void> {
  const { rows } = await db.query('select 1 from accounts where account_id = $1', [accountId]);
  if (rows.length === 0) throw notFound(`Account ${accountId}`);
}

/** The account a legacy apiKey belongs to, or null. */
export async function accountByApiKey(db: Queryable, apiKey: string): Promise<{ account_id: string; timezone: string } | null> {
  const { rows } = await db.query<{ account_id: string; timezone: string }>(
    'select account_id, timezone from accounts where api_key_hash = $1',
    [sha256(apiKey)],
  );
  return rows[0] ?? null;
}

const ACCOUNT_COLUMNS = 'account_id as id, name, timezone, created_at, updated_at';
type AccountRow = Omit<Account, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
const toAccount = (row: AccountRow): Account => ({ ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() });

export async function getAccount(db: Queryable, accountId: string): Promise<Account> {
  const { rows } = await db.query<AccountRow>(`select ${ACCOUNT_COLUMNS} from accounts where account_id = $1`, [accountId]);
  if (!rows[0]) throw notFound('Account');
  return toAccount(rows[0]);
}

/** Whether the database knows the zone, so SQL `at time zone` accepts every stored one. */
async function isKnownTimezone(db: Queryable, name: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from pg_timezone_names where name = $1', [name]);
  return rows.length > 0;
}

export async function updateAccount(db: Queryable, accountId: string, input: UpdateAccountBody): Promise<Account> {
  if (input.name === undefined && input.timezone === undefined) return getAccount(db, accountId);
  if (input.timezone !== undefined && !(await isKnownTimezone(db, input.timezone))) {
    throw invalidArgument('timezone', 'format', 'must be an IANA time zone name such as Europe/Paris');
  }
  const { rows } = await db.query<AccountRow>(
    `update accounts set name = coalesce($2, name), timezone = coalesce($3, timezone), updated_at = now()
     where account_id = $1
     returning ${ACCOUNT_COLUMNS}`,
    [accountId, input.name ?? null, input.timezone ?? null],
  );
  if (!rows[0]) throw notFound('Account');
  return toAccount(rows[0]);
}

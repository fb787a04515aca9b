import type { Queryable } from '../db/db.ts';
import type { Row } from '../db/rows.ts';
import type { Account } from './schema.ts';

const ACCOUNT_COLUMNS = 'account_id as id, name, timezone, created_at, updated_at';
/** The account's row, its key named `id` as the API names it. */
type AccountRow = Pick<Row<'accounts'>, 'name' | 'timezone' | 'created_at' | 'updated_at'> & { id: string };
const toAccount = (row: AccountRow): Account => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function insertAccount(
  db: Queryable,
  account: { accountId: string; name: string; timezone: string; apiKeyHash: string; at: Date },
): Promise<void> {
  await db.query(
    'insert into accounts (account_id, name, timezone, api_key_hash, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)',
    [account.accountId, account.name, account.timezone, account.apiKeyHash, account.at],
  );
}

export async function anyAccountExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts limit 1');
  return rows.length > 0;
}

export async function accountExists(db: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts where account_id = $1', [accountId]);
  return rows.length > 0;
}

export async function accountByApiKeyHash(db: Queryable, apiKeyHash: string): Promise<{ account_id: string; timezone: string } | null> {
  const { rows } = await db.query<{ account_id: string; timezone: string }>(
    'select account_id, timezone from accounts where api_key_hash = $1',
    [apiKeyHash],
  );
  return rows[0] ?? null;
}

export async function findAccount(db: Queryable, accountId: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>(`select ${ACCOUNT_COLUMNS} from accounts where account_id = $1`, [accountId]);
  return rows[0] ? toAccount(rows[0]) : null;
}

/** Sets the given fields (null keeps one); null when the account does not exist. */
export async function updateAccount(
  db: Queryable,
  accountId: string,
  change: { name: string | null; timezone: string | null; at: Date },
): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>(
    `update accounts set name = coalesce($2, name), timezone = coalesce($3, timezone), updated_at = $4
     where account_id = $1
     returning ${ACCOUNT_COLUMNS}`,
    [accountId, change.name, change.timezone, change.at],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

/** Replaces the account's apiKey hash; false when the account does not exist. */
export async function setApiKeyHash(db: Queryable, accountId: string, apiKeyHash: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update accounts set api_key_hash = $2, updated_at = $3 where account_id = $1', [
    accountId,
    apiKeyHash,
    at,
  ]);
  return (rowCount ?? 0) > 0;
}

/** The account's time zone; null when there is no such account. */
export async function accountTimezone(db: Queryable, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ timezone: string }>('select timezone from accounts where account_id = $1', [accountId]);
  return rows[0]?.timezone ?? null;
}

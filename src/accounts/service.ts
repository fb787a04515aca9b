import type { Db, Queryable } from '../db/db.ts';
import { newId, sha256 } from '../ids.ts';
import { generateApiKey } from '../auth/tokens.ts';
import { SCOPES } from '../auth/scopes.ts';
import { createToken } from '../tokens/service.ts';
import { notFound } from '../http/errors.ts';

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
  if (rows.length === 0) throw notFound('Account');
}

/** The account a legacy apiKey belongs to, or null. */
export async function accountByApiKey(db: Queryable, apiKey: string): Promise<{ account_id: string; timezone: string } | null> {
  const { rows } = await db.query<{ account_id: string; timezone: string }>(
    'select account_id, timezone from accounts where api_key_hash = $1',
    [sha256(apiKey)],
  );
  return rows[0] ?? null;
}

import type { Queryable } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import type { Scope } from '../auth/scopes.ts';

type TokenRow = Pick<Row<'api_tokens'>, 'id' | 'name' | 'created_at'> & { scopes: Scope[] };

export async function insertToken(
  db: Queryable,
  token: { accountId: string; id: string; name: string; scopes: Scope[]; tokenHash: string; at: Date },
): Promise<TokenRow> {
  const { rows } = await db.query<TokenRow>(
    `insert into api_tokens (account_id, id, name, scopes, token_hash, created_at) values ($1, $2, $3, $4, $5, $6)
     returning id, name, scopes, created_at`,
    [token.accountId, token.id, token.name, token.scopes, token.tokenHash, token.at],
  );
  return firstRow(rows);
}

export async function activeTokens(db: Queryable, accountId: string): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(
    'select id, name, scopes, created_at from api_tokens where account_id = $1 and revoked_at is null order by created_at, id',
    [accountId],
  );
  return rows;
}

/** Whether an active token was revoked now. */
export async function revokeToken(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update api_tokens set revoked_at = $3 where account_id = $1 and id = $2 and revoked_at is null', [
    accountId,
    id,
    at,
  ]);
  return rowCount === 1;
}

/**
 * The active token with this hash, of any account: the one lookup not filtered by account, since the token is
 * what names the account (src/auth/tokens.ts).
 */
export async function findActiveTokenByHash(
  db: Queryable,
  tokenHash: string,
): Promise<Pick<Row<'api_tokens'>, 'account_id' | 'id' | 'scopes'> | null> {
  const { rows } = await db.query<Pick<Row<'api_tokens'>, 'account_id' | 'id' | 'scopes'>>(
    'select account_id, id, scopes from api_tokens where token_hash = $1 and revoked_at is null',
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** Of the given (account, token id) pairs, those still active, as `account_id` and `id`. */
export async function stillActiveTokens(
  db: Queryable,
  tokens: readonly { accountId: string; tokenId: string }[],
): Promise<Pick<Row<'api_tokens'>, 'account_id' | 'id'>[]> {
  const { rows } = await db.query<Pick<Row<'api_tokens'>, 'account_id' | 'id'>>(
    `select t.account_id, t.id from unnest($1::text[], $2::text[]) as w (account_id, id)
     join api_tokens t on t.account_id = w.account_id and t.id = w.id
     where t.revoked_at is null`,
    [tokens.map((token) => token.accountId), tokens.map((token) => token.tokenId)],
  );
  return rows;
}

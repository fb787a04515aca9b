import type { Queryable } from '../db/db.ts';
import { newId, sha256 } from '../ids.ts';
import { generateToken, type Caller, type TokenVerifier } from '../auth/tokens.ts';
import type { Scope } from '../auth/scopes.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { TokenRecord } from './schema.ts';

/** The secret is returned here and never again: only its hash is stored. */
export async function createToken(
  db: Queryable,
  accountId: string,
  input: { name: string; scopes: readonly Scope[] },
): Promise<TokenRecord & { token: string }> {
  const token = generateToken();
  const { rows } = await db.query<{ id: string; name: string; scopes: Scope[]; created_at: Date }>(
    `insert into api_tokens (account_id, id, name, scopes, token_hash) values ($1, $2, $3, $4, $5)
     returning id, name, scopes, created_at`,
    [accountId, newId('tk'), input.name, [...new Set(input.scopes)], sha256(token)],
  );
  const row = rows[0];
  return { id: row.id, name: row.name, scopes: row.scopes, token, created_at: row.created_at.toISOString() };
}

/**
 * Management: a token may grant only scopes its creator holds, so a narrower
 * token cannot mint itself a wider one.
 */
export async function createTokenFor(db: Queryable, caller: Caller, input: { name: string; scopes: readonly Scope[] }) {
  const lacking = input.scopes.find((scope) => !caller.scopes.has(scope));
  if (lacking) throw new ApiError(403, 'forbidden', `Cannot grant scope ${lacking}: the calling token lacks it`);
  return createToken(db, caller.accountId, input);
}

export async function listTokens(db: Queryable, accountId: string): Promise<TokenRecord[]> {
  const { rows } = await db.query<{ id: string; name: string; scopes: Scope[]; created_at: Date }>(
    'select id, name, scopes, created_at from api_tokens where account_id = $1 and revoked_at is null order by created_at, id',
    [accountId],
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** Revokes at once on this instance (the cache entry is dropped), within a second on others. */
export async function revokeToken(
  deps: { db: Queryable; verifier: Pick<TokenVerifier, 'forget'> },
  accountId: string,
  id: string,
  at: Date,
): Promise<void> {
  const { rowCount } = await deps.db.query(
    'update api_tokens set revoked_at = $3 where account_id = $1 and id = $2 and revoked_at is null',
    [accountId, id, at],
  );
  if (rowCount !== 1) throw notFound(`Token ${id}`);
  deps.verifier.forget(accountId, id);
}

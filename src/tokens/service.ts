import type { Queryable } from '../db/db.ts';
import { newId, sha256 } from '../ids.ts';
import { generateToken, type Caller, type TokenVerifier } from '../auth/tokens.ts';
import type { Scope } from '../auth/scopes.ts';
import { ApiError, notFound } from '../http/errors.ts';
import * as repo from './repository.ts';
import type { TokenRecord } from './schema.ts';

/** The database (or an open transaction) and the clock; in the app, the verifier to tell of new tokens. */
interface TokenDeps {
  db: Queryable;
  now: () => Date;
  verifier?: Pick<TokenVerifier, 'created'>;
}

/** The secret is returned here and never again: only its hash is stored. */
export async function createToken(
  deps: TokenDeps,
  accountId: string,
  input: { name: string; scopes: readonly Scope[] },
): Promise<TokenRecord & { token: string }> {
  const token = generateToken();
  const row = await repo.insertToken(deps.db, {
    accountId,
    id: newId('tk'),
    name: input.name,
    scopes: [...new Set(input.scopes)],
    tokenHash: sha256(token),
    at: deps.now(),
  });
  deps.verifier?.created(token);
  return { id: row.id, name: row.name, scopes: row.scopes, token, created_at: row.created_at.toISOString() };
}

/**
 * Management: a token may grant only scopes its creator holds, so a narrower
 * token cannot mint itself a wider one.
 */
export async function createTokenFor(deps: TokenDeps, caller: Caller, input: { name: string; scopes: readonly Scope[] }) {
  const lacking = input.scopes.find((scope) => !caller.scopes.has(scope));
  if (lacking) throw new ApiError(403, 'forbidden', `Cannot grant scope ${lacking}: the calling token lacks it`);
  return createToken(deps, caller.accountId, input);
}

export async function listTokens(db: Queryable, accountId: string): Promise<TokenRecord[]> {
  const rows = await repo.activeTokens(db, accountId);
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}

/** Revokes at once on this instance (the cache entry is dropped), within a second on others. */
export async function revokeToken(
  deps: { db: Queryable; verifier: Pick<TokenVerifier, 'forget'> },
  accountId: string,
  id: string,
  at: Date,
): Promise<void> {
  if (!(await repo.revokeToken(deps.db, accountId, id, at))) throw notFound(`Token ${id}`);
  deps.verifier.forget(accountId, id);
}

import type { Queryable } from '../db/db.ts';
import { newId, sha256 } from '../ids.ts';
import { generateToken } from '../auth/tokens.ts';
import type { Scope } from '../auth/scopes.ts';

export interface TokenRecord {
  id: string;
  name: string;
  scopes: string[];
  created_at: string;
}

/** The secret is returned here and never again: only its hash is stored. */
export async function createToken(
  db: Queryable,
  accountId: string,
  input: { name: string; scopes: readonly Scope[] },
): Promise<TokenRecord & { token: string }> {
  const token = generateToken();
  const { rows } = await db.query<{ id: string; name: string; scopes: string[]; created_at: Date }>(
    `insert into api_tokens (account_id, id, name, scopes, token_hash) values ($1, $2, $3, $4, $5)
     returning id, name, scopes, created_at`,
    [accountId, newId('tk'), input.name, [...new Set(input.scopes)], sha256(token)],
  );
  const row = rows[0];
  return { id: row.id, name: row.name, scopes: row.scopes, token, created_at: row.created_at.toISOString() };
}

import type { Queryable } from '../db/db.ts';
import { randomString, sha256 } from '../ids.ts';

/** Who is calling: resolved from the bearer token on every authenticated request. */
export interface Caller {
  accountId: string;
  tokenId: string;
  scopes: ReadonlySet<string>;
}

export function generateToken(): string {
  return `cs_${randomString(40)}`;
}

export function generateApiKey(): string {
  return `ak_${randomString(32)}`;
}

const CACHE_TTL_MS = 1000;

/**
 * Resolves bearer tokens to callers. Lookups hit a unique index on the hash;
 * results are cached for at most one second, so a revoked token stops working
 * within a second on every instance.
 */
export class TokenVerifier {
  readonly #cache = new Map<string, { caller: Caller | null; expires: number }>();

  constructor(private readonly db: Queryable) {}

  async verify(token: string): Promise<Caller | null> {
    const hash = sha256(token);
    const now = Date.now();
    const cached = this.#cache.get(hash);
    if (cached && cached.expires > now) return cached.caller;
    // The only lookup not filtered by account: the token is what names the account.
    const { rows } = await this.db.query<{ account_id: string; id: string; scopes: string[] }>(
      'select account_id, id, scopes from api_tokens where token_hash = $1 and revoked_at is null',
      [hash],
    );
    const caller = rows[0] ? { accountId: rows[0].account_id, tokenId: rows[0].id, scopes: new Set(rows[0].scopes) } : null;
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(hash, { caller, expires: now + CACHE_TTL_MS });
    return caller;
  }

  /** Drops a revoked token from this instance's cache at once. */
  forget(accountId: string, tokenId: string): void {
    for (const [hash, entry] of this.#cache) {
      if (entry.caller?.accountId === accountId && entry.caller.tokenId === tokenId) this.#cache.delete(hash);
    }
  }
}

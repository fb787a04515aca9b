import type { Queryable } from '../db/db.ts';
import { randomString, sha256 } from '../ids.ts';
import type { AuthFailureLimiter } from './failures.ts';
import { findActiveTokenByHash } from '../tokens/repository.ts';

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

/** How long a lookup's answer is kept: a revoked token, or a just-created one on another instance, waits at most this long. */
const CACHE_TTL_MS = 1000;
/** Entries per cache; a full cache starts over (valid and invalid tokens apart, so a flood of bad ones cannot evict good ones). */
const CACHE_SIZE = 10_000;

/**
 * Resolves bearer tokens to callers. Lookups hit a unique index on the hash;
 * answers, valid and invalid, are cached for at most one second (docs/behaviour.md §1):
 * a revoked token stops working within a second on every instance, and a flood of one
 * bad token costs one lookup a second. Failed lookups count against the client's
 * address (AuthFailureLimiter), which once limited gets 429 before any lookup.
 */
export class TokenVerifier {
  readonly #valid = new Map<string, { caller: Caller; expires: number }>();
  /** Hashes found in no active token, until when. */
  readonly #invalid = new Map<string, number>();

  constructor(
    private readonly db: Queryable,
    readonly failures: AuthFailureLimiter,
    /** The clock of the cache, in milliseconds; tests may pass their own. */
    private readonly now: () => number = Date.now,
  ) {}

  /** The caller of `token`, sent from `ip`; null when it is unknown or revoked; 429 (ApiError) when `ip` is limited. */
  async verify(token: string, ip: string): Promise<Caller | null> {
    const hash = sha256(token);
    const now = this.now();
    const valid = this.#valid.get(hash);
    if (valid && valid.expires > now) return valid.caller;
    this.failures.check(ip, hash);
    const invalidUntil = this.#invalid.get(hash);
    if (invalidUntil !== undefined && invalidUntil > now) {
      this.failures.failed(ip, hash);
      return null;
    }
    const row = await findActiveTokenByHash(this.db, hash);
    if (!row) {
      remember(this.#invalid, hash, now + CACHE_TTL_MS);
      this.failures.failed(ip, hash);
      return null;
    }
    const caller = { accountId: row.account_id, tokenId: row.id, scopes: new Set(row.scopes) };
    remember(this.#valid, hash, { caller, expires: now + CACHE_TTL_MS });
    this.failures.succeeded(hash);
    return caller;
  }

  /**
   * A token created on this instance works here at once, even from a limited address. (A token's hash
   * is never looked up before it exists, as its value is random, so this is a precaution: no cached
   * "invalid" may outlive the creation. Other instances cache an invalid answer for at most a second.)
   */
  created(token: string): void {
    const hash = sha256(token);
    this.#invalid.delete(hash);
    this.failures.succeeded(hash);
  }

  /** Drops a revoked token from this instance's cache at once. */
  forget(accountId: string, tokenId: string): void {
    for (const [hash, entry] of this.#valid) {
      if (entry.caller.accountId === accountId && entry.caller.tokenId === tokenId) {
        this.#valid.delete(hash);
        this.failures.forget(hash);
      }
    }
  }
}

function remember<V>(cache: Map<string, V>, hash: string, value: V): void {
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(hash, value);
}

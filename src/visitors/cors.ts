import type { Queryable } from '../db/db.ts';
import { originAllowedAnywhere } from '../accounts/service.ts';

/** How long an origin's answer is kept per instance: a newly allowed origin gets CORS headers at most this late. */
const CACHE_MS = 5_000;
const CACHE_SIZE = 10_000;

/**
 * Whether an origin is on some account's widget list, cached briefly: the visitor API answers CORS (preflights,
 * and the headers that let a page read an answer, errors included) only to origins some account allows. Which
 * account's visitors an origin may act for is decided per request, uncached (src/visitors/service.ts).
 */
export class AllowedOrigins {
  readonly #cache = new Map<string, { allowed: boolean; until: number }>();

  constructor(private readonly db: Queryable) {}

  async allowed(origin: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.#cache.get(origin);
    if (cached && cached.until > now) return cached.allowed;
    const allowed = await originAllowedAnywhere(this.db, origin);
    if (this.#cache.size >= CACHE_SIZE) this.#cache.clear();
    this.#cache.set(origin, { allowed, until: now + CACHE_MS });
    return allowed;
  }
}

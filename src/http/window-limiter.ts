import { ApiError } from './errors.ts';

/** Keys counted at once per limiter; past it the oldest windows go first. */
const MAX_KEYS = 100_000;

/**
 * At most `limit` actions per key in a fixed window (from the key's first action), on this instance, with memory
 * bounded to MAX_KEYS keys: the failed authentications per client address (src/auth/failures.ts) and the visitor
 * API's limits on sessions per client address and messages per visitor (docs/widget.md "Limits").
 */
export class WindowLimiter {
  /** In the order their windows started, so expired ones are at the front. */
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** What the 429 of take() says is limited: "new visitor sessions from this address". */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The seconds (at least 1) until `key`'s window ends when it is full, else null. */
  retryAfter(key: string): number | null {
    const now = this.now();
    const entry = this.#windows.get(key);
    if (!entry || entry.resetAt <= now || entry.count < this.limit) return null;
    return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
  }

  /** Counts one action of `key`. */
  count(key: string): void {
    const now = this.now();
    const entry = this.#windows.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    // A new window goes to the back; expired windows (and, past the bound, the oldest) leave from the front.
    this.#windows.delete(key);
    for (const [oldest, { resetAt }] of this.#windows) {
      if (resetAt > now && this.#windows.size < MAX_KEYS) break;
      this.#windows.delete(oldest);
    }
    this.#windows.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  /**
   * Counts one action of `key`, or, when its window is full, refuses it with 429 `too_many_requests` and
   * Retry-After until the window ends.
   */
  take(key: string): void {
    const seconds = this.retryAfter(key);
    if (seconds !== null) {
      throw new ApiError(429, 'too_many_requests', `Too many ${this.what}: at most ${this.limit}; retry in ${seconds} s`, undefined, {
        'Retry-After': String(seconds),
      });
    }
    this.count(key);
  }
}

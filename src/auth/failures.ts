import ipaddr from 'ipaddr.js';
import { ApiError } from '../http/errors.ts';

/** How long a credential that authenticated on this instance still gets past a limited address (docs/behaviour.md §1). */
const RECENT_SUCCESS_MS = 24 * 60 * 60 * 1000;
/** Bounds on memory: addresses counted at once, credentials remembered as recently valid. */
const MAX_ADDRESSES = 100_000;
const MAX_RECENT = 10_000;

export interface AuthFailureOptions {
  /** Failed authentications an address may have per window before it gets 429. */
  limit: number;
  windowMs: number;
  /** The clock, in milliseconds; tests may pass their own. */
  now?: () => number;
}

/**
 * The key an address is counted under: an IPv4 address (IPv4-mapped IPv6 included) as itself, an
 * IPv6 address by its /64, as one site or host holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Failed authentications per client address, per instance (docs/behaviour.md §1): an unknown or
 * revoked bearer token, an unknown legacy apiKey. Once an address has `limit` of them in a window
 * (fixed, from its first failure), it gets 429 `too_many_requests` with Retry-After until the window
 * ends, decided before any lookup, for every credential except those that authenticated on this
 * instance within the last 24 hours: one client guessing from behind a shared address (an office's
 * NAT) does not lock its neighbours' working tokens out. Credentials are named by their SHA-256.
 */
export class AuthFailureLimiter {
  /** Per address key; in the order their windows started, so expired ones are at the front. */
  readonly #addresses = new Map<string, { count: number; resetAt: number }>();
  /** Credential hash → when it last authenticated; in that order. */
  readonly #recent = new Map<string, number>();
  readonly #now: () => number;

  constructor(private readonly options: AuthFailureOptions) {
    this.#now = options.now ?? Date.now;
  }

  /** Throws 429 when `ip` is limited, unless `credential` authenticated here lately. */
  check(ip: string, credential: string): void {
    const now = this.#now();
    const entry = this.#addresses.get(addressKey(ip));
    if (!entry || entry.resetAt <= now || entry.count < this.options.limit) return;
    const since = this.#recent.get(credential);
    if (since !== undefined && now - since < RECENT_SUCCESS_MS) return;
    const seconds = Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
    throw new ApiError(429, 'too_many_requests', `Too many failed authentications from this address; retry in ${seconds} s`, undefined, {
      'Retry-After': String(seconds),
    });
  }

  /** Counts a failed authentication of `ip`; the credential is no longer recently valid. */
  failed(ip: string, credential: string): void {
    this.#recent.delete(credential);
    const key = addressKey(ip);
    const now = this.#now();
    const entry = this.#addresses.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    // A new window goes to the back; expired windows (and, past the bound, the oldest) leave from the front.
    this.#addresses.delete(key);
    for (const [oldest, { resetAt }] of this.#addresses) {
      if (resetAt > now && this.#addresses.size < MAX_ADDRESSES) break;
      this.#addresses.delete(oldest);
    }
    this.#addresses.set(key, { count: 1, resetAt: now + this.options.windowMs });
  }

  /** Remembers that `credential` authenticated (or was just created) on this instance. */
  succeeded(credential: string): void {
    this.#recent.delete(credential);
    this.#recent.set(credential, this.#now());
    if (this.#recent.size > MAX_RECENT) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  /** Forgets a revoked credential. */
  forget(credential: string): void {
    this.#recent.delete(credential);
  }

  /**
   * `authenticate` under the limit, for credentials without a cache of their own (the legacy apiKey):
   * 429 before it runs when `ip` is limited; a 401 from it counts as a failure.
   */
  async guard<T>(ip: string, credential: string, authenticate: () => Promise<T>): Promise<T> {
    this.check(ip, credential);
    try {
      const result = await authenticate();
      this.succeeded(credential);
      return result;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.failed(ip, credential);
      throw error;
    }
  }
}

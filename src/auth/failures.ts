import ipaddr from 'ipaddr.js';
import { ApiError } from '../http/errors.ts';
import { WindowLimiter } from '../http/window-limiter.ts';

/** How long a credential that authenticated on this instance still gets past a limited address (docs/behaviour.md §1). */
const RECENT_SUCCESS_MS = 24 * 60 * 60 * 1000;
/** Bound on memory: credentials remembered as recently valid (WindowLimiter bounds the addresses counted at once). */
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
  /** Failures per address key. */
  readonly #addresses: WindowLimiter;
  /** Credential hash → when it last authenticated; in that order. */
  readonly #recent = new Map<string, number>();
  readonly #now: () => number;

  constructor(options: AuthFailureOptions) {
    this.#now = options.now ?? Date.now;
    this.#addresses = new WindowLimiter(options.limit, options.windowMs, 'failed authentications from this address', this.#now);
  }

  /** Throws 429 when `ip` is limited, unless `credential` authenticated here lately. */
  check(ip: string, credential: string): void {
    const seconds = this.#addresses.retryAfter(addressKey(ip));
    if (seconds === null) return;
    const since = this.#recent.get(credential);
    if (since !== undefined && this.#now() - since < RECENT_SUCCESS_MS) return;
    throw new ApiError(429, 'too_many_requests', `Too many failed authentications from this address; retry in ${seconds} s`, undefined, {
      'Retry-After': String(seconds),
    });
  }

  /** Counts a failed authentication of `ip`; the credential is no longer recently valid. */
  failed(ip: string, credential: string): void {
    this.#recent.delete(credential);
    this.#addresses.count(addressKey(ip));
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

import { randomBytes, createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Bytes from the system's CSPRNG, drawn a pool at a time: one randomBytes call costs as much as a few hundred
 * bytes of it (two calls were 3 % of a POST message's CPU), and every request takes an id. Each byte is handed out
 * once, as Node's own randomUUID does with its pool.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

function takeRandomBytes(length: number): Buffer {
  if (length > POOL_BYTES) return randomBytes(length);
  if (poolAt + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  const taken = pool.subarray(poolAt, poolAt + length);
  poolAt += length;
  return taken;
}

/** `length` URL-safe random characters (64-letter alphabet, so no modulo bias). */
export function randomString(length: number): string {
  let out = '';
  for (const byte of takeRandomBytes(length)) out += ALPHABET.charAt(byte & 63);
  return out;
}

export type IdPrefix = 'ct' | 'co' | 'ms' | 'bo' | 'gr' | 'tg' | 'wh' | 'up' | 'ac' | 'tk';

/** Opaque identifier: two-letter prefix plus 12 URL-safe random characters (docs/behaviour.md §1). */
export function newId(prefix: IdPrefix): string {
  return prefix + randomString(12);
}

/** Secrets (tokens, api keys) are stored only as this hash. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

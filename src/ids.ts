import { randomBytes, createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `length` URL-safe random characters (64-letter alphabet, so no modulo bias). */
export function randomString(length: number): string {
  let out = '';
  for (const byte of randomBytes(length)) out += ALPHABET.charAt(byte & 63);
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

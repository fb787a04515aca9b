import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../http/errors.ts';
import type { SignedIdentity } from './schema.ts';

/** A signed identity may expire at most this far ahead: a leaked one is worth a day at most (docs/widget.md). */
export const MAX_IDENTITY_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * The exact string a site signs (docs/widget.md "Identity verification"): the id, the name, the e-mail address
 * and the expiry (Unix seconds, decimal), joined by a line feed, a missing name or e-mail as an empty string. No
 * field may hold a line break (the schema refuses one), so no two identities share a string.
 */
export function canonicalIdentity(identity: Pick<SignedIdentity, 'id' | 'name' | 'email' | 'expires_at'>): string {
  return [identity.id, identity.name ?? '', identity.email ?? '', String(identity.expires_at)].join('\n');
}

/** The signature of an identity under `secret`: hex HMAC-SHA256 of its canonical string. */
export function signIdentity(secret: string, identity: Pick<SignedIdentity, 'id' | 'name' | 'email' | 'expires_at'>): string {
  return createHmac('sha256', secret).update(canonicalIdentity(identity), 'utf8').digest('hex');
}

const refused = (message: string) => new ApiError(401, 'invalid_identity', message);

/**
 * Checks a signed identity at `now` (docs/widget.md): signed with `secret` (compared in constant time), not
 * expired, not expiring more than a day ahead. Throws 401 `invalid_identity` otherwise.
 */
export function verifyIdentity(secret: string | null, identity: SignedIdentity, now: Date): void {
  if (secret === null) throw refused('This account has no identity secret: signed identities cannot be verified');
  const expected = Buffer.from(signIdentity(secret, identity), 'hex');
  const given = Buffer.from(identity.signature.toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused('The identity signature does not match');
  const seconds = Math.floor(now.getTime() / 1000);
  if (identity.expires_at <= seconds) throw refused('The signed identity has expired: sign a new one');
  if (identity.expires_at > seconds + MAX_IDENTITY_LIFETIME_SECONDS) {
    throw refused(`The signed identity expires too far ahead: at most ${MAX_IDENTITY_LIFETIME_SECONDS} seconds from now`);
  }
}

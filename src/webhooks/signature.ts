/**
 * Webhook signatures (docs/api.md#webhooks): the Standard Webhooks headers, which the
 * spec's libraries verify (https://www.standardwebhooks.com), and the legacy
 * X-Chat-Service-Hmac kept for existing receivers.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const LEGACY_SIGNATURE_HEADER = 'X-Chat-Service-Hmac';
export const SECRET_PREFIX = 'whsec_';
/** Random bytes of a generated secret (the spec asks for 24 to 64). */
const SECRET_BYTES = 32;
const BASE64_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

/** A new secret as the spec's libraries take it: `whsec_` and the base64 of 32 random bytes. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * The HMAC key of the Standard Webhooks signature: the bytes a `whsec_<base64>` secret
 * encodes (what the libraries decode it to); any other secret (one given at creation in
 * another form, or generated before version 2.7) is its own key, byte for byte (the
 * libraries' "raw" form).
 */
export function signingKey(secret: string): Buffer {
  const base64 = BASE64_SECRET.exec(secret)?.[1];
  return base64 ? Buffer.from(base64, 'base64') : Buffer.from(secret, 'utf8');
}

/** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Hex HMAC-SHA256 of the exact body bytes, keyed with the secret as text (legacy). */
export function legacySignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export interface Signing {
  /** The event id: one message id for every attempt, so receivers can drop a repeat. */
  eventId: number;
  body: string;
  /** This attempt's time (webhook-timestamp): a receiver refuses a delivery replayed outside its tolerance. */
  attemptedAt: Date;
  secret: string;
  /** The replaced secret while its rotation window lasts (null otherwise): signed with too. */
  previousSecret: string | null;
}

/** The signature headers of one delivery attempt. */
export function signatureHeaders({ eventId, body, attemptedAt, secret, previousSecret }: Signing): Record<string, string> {
  const id = String(eventId);
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const signatures = [secret, ...(previousSecret === null ? [] : [previousSecret])].map((key) =>
    standardSignature(key, id, timestamp, body),
  );
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
    [LEGACY_SIGNATURE_HEADER]: legacySignature(secret, body),
  };
}

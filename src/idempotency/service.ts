import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { randomString, sha256 } from '../ids.ts';
import { processIdempotencySecret } from './secret.ts';
import * as repo from './repository.ts';

/** How long a key's answer is kept and replayed (docs/behaviour.md §11). */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a request holds its key without a renewal; after that (its instance crashed) a retry may take it over.
 * While the request runs, its instance renews the hold every IDEMPOTENCY_RENEW_SECONDS, whatever it waits on.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 60;
export const IDEMPOTENCY_RENEW_SECONDS = 15;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Visible ASCII, no spaces (the document's pattern for the header). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]+$';

/** Answers from this status on are not kept: the key is freed so that a retry runs again. */
const FIRST_UNSTORED_STATUS = 500;

type IdempotencyDeps = Pick<Deps, 'db' | 'now'>;
type SecretDeps = IdempotencyDeps & { config: Pick<Deps['config'], 'idempotencySecret'> };

/** The key of the `Idempotency-Key` header: 1 to 255 visible ASCII characters (422 otherwise). */
export function checkKey(raw: string): string {
  const [code, problem] =
    raw.length === 0
      ? ['minLength', 'must not be empty']
      : raw.length > MAX_IDEMPOTENCY_KEY_LENGTH
        ? ['maxLength', `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`]
        : new RegExp(IDEMPOTENCY_KEY_PATTERN).test(raw)
          ? [null, null]
          : ['pattern', 'must be visible ASCII characters (no spaces)'];
  if (code === null) return raw;
  const message = `Idempotency-Key ${problem}`;
  throw new ApiError(422, 'invalid_arguments', `Invalid arguments: ${message}`, [
    { path: 'Idempotency-Key', code, message, location: 'header' },
  ]);
}

/**
 * What the database holds of a key: an HMAC of it. Answers carry secrets shown once (a new token, an upload token,
 * a webhook secret) that are otherwise stored only as hashes, so the answer is encrypted with a key derived (HKDF)
 * from both the Idempotency-Key, which only the client knows, and IDEMPOTENCY_SECRET, which the database never
 * holds: a dump of the table neither decrypts an answer nor confirms a guessed key (docs/behaviour.md §11).
 * Entries written under another secret (or before it existed) are never found: they count as expired.
 */
interface Keys {
  /** The key column: HMAC-SHA256(secret, account and key), hex. */
  stored: string;
  /** The answer's AES-256-GCM key. */
  answer: Buffer;
}

function keysOf(deps: SecretDeps, accountId: string, key: string): Keys {
  const secret = deps.config.idempotencySecret ?? processIdempotencySecret();
  const name = `${accountId}\n${key}`;
  return {
    stored: createHmac('sha256', secret).update(`idempotency-key\n${name}`).digest('hex'),
    answer: Buffer.from(hkdfSync('sha256', secret, 'chat-service idempotency answer', name, 32)),
  };
}
const IV_BYTES = 12;
const TAG_BYTES = 16;

function seal(key: Buffer, body: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function unseal(key: Buffer, stored: string): string {
  const bytes = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/**
 * Levels of a body the hash reads. The key is claimed before validation (src/http/pipeline.ts), so a body may be
 * nested far deeper than validation then allows (32 levels, MAX_NESTING): what lies deeper is hashed as one mark,
 * never walked (the walk would overflow the stack). Such a body is always refused, and a refused request's answer is
 * never stored, so two of them sharing a hash changes no answer.
 */
const HASHED_LEVELS = 64;

/** JSON with object keys sorted, so that one body sent with its keys in another order is the same request. */
function canonical(value: unknown, depth = 0): string {
  if (Buffer.isBuffer(value)) return JSON.stringify({ sha256: createHash('sha256').update(value).digest('hex') });
  if (value !== null && typeof value === 'object' && depth >= HASHED_LEVELS) return '"(deeper)"';
  if (Array.isArray(value)) return `[${value.map((element) => canonical(element, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same" under one key: the token that sent it, method, path with query, and body.
 * The token is part of it so that a stored answer (a new token, an upload token, a webhook secret) is replayed
 * only to the token whose request caused it: the handler's authorisation ran for that token only; any other
 * token gets 422 idempotency_key_reused (docs/behaviour.md §11).
 */
export function requestHash(tokenId: string, method: string, url: string, body: unknown): string {
  return sha256(`${tokenId}\n${method}\n${url}\n${canonical(body)}`);
}

/** A key this request holds: its answer is stored when sent. */
export interface HeldKey {
  accountId: string;
  /** The key column (never the client's key, which is not kept nor logged). */
  storedKey: string;
  /** The answer's encryption key. */
  answerKey: Buffer;
  lockId: string;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

export type Claim = { held: HeldKey } | { replay: StoredAnswer };

const inUse = () =>
  new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry when it has answered');
const reused = () =>
  new ApiError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was used with another request (token, method, path or body) in the last 24 hours; use a new key',
  );

/**
 * Claims `key` for a request (docs/behaviour.md §11): the first request with it
 * holds it and runs; a request while it runs gets 409 idempotency_key_in_use;
 * afterwards, the same request gets the stored answer again and another request
 * (token, method, path or body) 422 idempotency_key_reused, for 24 hours.
 */
export async function claimKey(deps: SecretDeps, accountId: string, key: string, hash: string): Promise<Claim> {
  const lockId = randomString(16);
  const keys = keysOf(deps, accountId, key);
  // Twice at most: the entry found standing may be freed (a 5xx) or expire between the two statements.
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = deps.now();
    const reserved = await repo.reserveKey(deps.db, {
      accountId,
      key: keys.stored,
      requestHash: hash,
      lockId,
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000),
      now,
      expiredBefore: new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_SECONDS * 1000),
    });
    if (reserved) return { held: { accountId, storedKey: keys.stored, answerKey: keys.answer, lockId } };
    const stored = await repo.findKey(deps.db, accountId, keys.stored);
    if (!stored) continue;
    if (stored.request_hash !== hash) throw reused();
    if (stored.status === null) throw inUse();
    return { replay: { status: stored.status, contentType: stored.content_type, body: unseal(keys.answer, stored.response_body ?? '') } };
  }
  throw inUse();
}

/** Stores the answer to a held key (any status below 500), or frees the key after a 5xx. */
export async function settleKey(deps: IdempotencyDeps, held: HeldKey, answer: StoredAnswer): Promise<void> {
  const key = held.storedKey;
  if (answer.status >= FIRST_UNSTORED_STATUS) return repo.releaseKey(deps.db, held.accountId, key, held.lockId);
  return repo.storeAnswer(deps.db, held.accountId, key, held.lockId, { ...answer, body: seal(held.answerKey, answer.body) });
}

/**
 * Frees a held key without storing an answer: its request was refused before it ran (validation, after the claim),
 * so the corrected request may use the key (docs/api.md#idempotency-keys).
 */
export async function releaseKey(deps: IdempotencyDeps, held: HeldKey): Promise<void> {
  await repo.releaseKey(deps.db, held.accountId, held.storedKey, held.lockId);
}

/**
 * Keeps the keys of running requests held (docs/behaviour.md §11): every renewal moves their locks to
 * IDEMPOTENCY_LOCK_SECONDS from now, in one statement for all of them, so that a request waiting on a lock,
 * a slow statement or a busy pool never loses its key to a retry while its instance lives.
 */
export async function renewHeldKeys(deps: IdempotencyDeps, held: Iterable<HeldKey>): Promise<number> {
  const keys = [...held];
  if (keys.length === 0) return 0;
  return repo.renewLocks(
    deps.db,
    { accountIds: keys.map((k) => k.accountId), keys: keys.map((k) => k.storedKey), lockIds: keys.map((k) => k.lockId) },
    new Date(deps.now().getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000),
  );
}

/** Keys deleted per statement; a pass repeats until fewer are left. */
const BATCH_SIZE = 1000;

/** One retention pass: deletes every account's keys older than 24 hours at deps.now(); returns how many. */
export async function deleteExpiredIdempotencyKeys(deps: IdempotencyDeps): Promise<number> {
  const expiredBefore = new Date(deps.now().getTime() - IDEMPOTENCY_KEY_TTL_SECONDS * 1000);
  let deleted = 0;
  for (;;) {
    const batch = await repo.deleteExpiredKeys(deps.db, expiredBefore, BATCH_SIZE);
    deleted += batch;
    if (batch < BATCH_SIZE) return deleted;
  }
}

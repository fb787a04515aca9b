import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Queryable } from '../db/db.ts';
import { itemAt } from '../arrays.ts';
import type { Deps } from '../deps.ts';
import { ApiError, invalidArgument, notFound } from '../http/errors.ts';
import { newId, randomString, sha256 } from '../ids.ts';
import * as repo from './repository.ts';

/** Largest accepted upload (docs/behaviour.md §5). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** How long an upload token can be used in attachments. */
export const UPLOAD_TOKEN_TTL_SECONDS = 24 * 60 * 60;

const DEFAULT_FILE_TYPE = 'application/octet-stream';

// type/subtype with optional parameters (RFC 9110 token characters).
const MIME_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

export const payloadTooLarge = () =>
  new ApiError(413, 'payload_too_large', `The file is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB upload limit`);

/** Where an upload's bytes can be downloaded (by a client of the same account); an `upload` attachment's `url`. */
export function uploadContentPath(id: string): string {
  return `/v2/uploads/${id}/content`;
}

/** The upload id of an `upload` attachment's `url` (uploadContentPath), or null for another URL. */
export function uploadIdOfPath(url: string): string | null {
  return /^\/v2\/uploads\/([^/]+)\/content$/.exec(url)?.[1] ?? null;
}

/**
 * The name to store: a client may send a full path (`C:\tmp\a.pdf`), only its
 * last segment is a file name; control characters are dropped.
 */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what we remove
  const name = (raw.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return name.slice(0, 255);
}

/** Whether `raw` is a well-formed MIME type, parameters allowed, exactly as written (at most 255 characters). */
export function isMimeType(raw: string): boolean {
  return raw.length <= 255 && MIME_TYPE.test(raw);
}

/** The sent Content-Type when it is a well-formed MIME type; otherwise application/octet-stream. */
export function cleanFileType(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  return value.length <= 255 && MIME_TYPE.test(value) ? value : DEFAULT_FILE_TYPE;
}

/** Whether a request's Content-Type is a well-formed multipart/form-data type (the body is then read as multipart). */
export function isMultipartType(raw: string): boolean {
  const value = raw.trim();
  return MIME_TYPE.test(value) && /^multipart\/form-data\s*(;|$)/i.test(value);
}

/** Images a browser may show in a page (docs/behaviour.md §11); every other file is served as a download. */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Types a browser renders as a page or runs, in any spelling (text/html, image/svg+xml, application/rss+xml, text/javascript, …). */
const ACTIVE_TYPE = /html|xml|svg|script/;

/**
 * The Content-Type a stored file is served with: its stored type, unless a browser
 * could render that as a page or run it (HTML, SVG, XML, scripts, any text/* but
 * text/plain and text/csv, any unusual top-level type): those are served as
 * application/octet-stream (docs/behaviour.md §11).
 */
export function servedFileType(fileType: string): string {
  const essence = itemAt(fileType.split(';'), 0).trim().toLowerCase();
  const topLevel = itemAt(essence.split('/'), 0);
  const passive =
    essence === 'text/plain' ||
    essence === 'text/csv' ||
    (['application', 'audio', 'font', 'image', 'video'].includes(topLevel) && !ACTIVE_TYPE.test(essence));
  return passive ? fileType : DEFAULT_FILE_TYPE;
}

/**
 * The Content-Disposition of a download (RFC 6266): `inline` for png, jpeg, gif and
 * webp images, `attachment` for every other file, with an ASCII fallback name and
 * the exact UTF-8 name. Path separators, control characters and the bidirectional
 * overrides that disguise an extension (`photo\u202Egpj.exe`) never reach the
 * browser; the fallback also drops quotes and `%` (some browsers percent-decode it).
 */
export function contentDisposition(fileName: string, servedType: string): string {
  const disposition = INLINE_IMAGE_TYPES.has(itemAt(servedType.split(';'), 0).trim().toLowerCase()) ? 'inline' : 'attachment';
  // eslint-disable-next-line no-control-regex -- control characters are what we remove
  const safeName = fileName.replace(/[\u0000-\u001f\u007f/\\\u202a-\u202e\u2066-\u2069]/g, '_');
  const fallback = safeName.replace(/[^\x20-\x7e]|["%]/g, '_');
  const encoded = encodeURIComponent(safeName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Bytes per stored chunk (upload_chunks, migration 170): a request holds about one chunk of its file at a time. */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

/** Chunks read per statement when a file is downloaded. */
const DOWNLOAD_CHUNKS_PER_READ = 4;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface UploadResult {
  token: string;
  file_name: string;
  file_type: string;
  size: number;
}

/** What a request says of its file before the bytes: the name and type as sent, and the body's length when known. */
export interface UploadStart {
  /** As sent (query or multipart part); undefined when neither names it. */
  fileName: string | undefined;
  fileType: string | undefined;
  /** A raw body's Content-Length: a file over a limit is refused before it is read. */
  declaredSize?: number;
}

/** An upload whose bytes are stored, not yet complete: completeUpload() or discardUpload() ends it. */
export interface StagedUpload {
  accountId: string;
  id: string;
  token: string;
  fileName: string;
  fileType: string;
  size: number;
  /** What the Idempotency-Key hashes: the file's name and type as sent, and the SHA-256 of its bytes. */
  requestBody: { fileName: string | undefined; fileType: string | undefined; data: { sha256: string } };
}

type UploadDeps = Pick<Deps, 'db' | 'now' | 'config'>;

/** "10 GiB", "20 MiB" for whole units, else the bytes. */
function bytesText(bytes: number): string {
  if (bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  return bytes % 1024 ** 2 === 0 ? `${bytes / 1024 ** 2} MiB` : `${bytes} bytes`;
}

const quotaExceeded = (status: 413 | 429, message: string, headers?: Record<string, string>) =>
  new ApiError(status, 'upload_quota_exceeded', message, undefined, headers);

/**
 * Whether `size` more bytes fit the account's upload quotas (docs/behaviour.md §11): UPLOAD_QUOTA_BYTES for every
 * stored upload (413, until files are deleted), UPLOAD_QUOTA_BYTES_PER_DAY for the uploads of the last 24 hours
 * (429 with Retry-After: when enough of them have left the window; 413 for a file larger than the whole day's quota).
 */
async function quotaRefusal(
  deps: UploadDeps,
  db: Queryable,
  accountId: string,
  usage: repo.UploadUsage,
  size: number,
): Promise<ApiError | null> {
  const { uploadQuotaBytes, uploadQuotaBytesPerDay } = deps.config;
  if (usage.total + size > uploadQuotaBytes) {
    return quotaExceeded(
      413,
      `The account's uploads would exceed its storage quota of ${bytesText(uploadQuotaBytes)} (${usage.total} bytes stored); ` +
        'an upload never attached to a message is deleted 24 hours after it was sent',
    );
  }
  if (size > uploadQuotaBytesPerDay) {
    return quotaExceeded(413, `The file is larger than the account's upload quota of ${bytesText(uploadQuotaBytesPerDay)} per 24 hours`);
  }
  if (usage.recent + size <= uploadQuotaBytesPerDay) return null;
  // The first moment enough of the last 24 hours' uploads have left the window for this file to fit.
  const now = deps.now();
  const needed = usage.recent + size - uploadQuotaBytesPerDay;
  let freed = 0;
  let fitsAt = now.getTime() + DAY_MS;
  for (const upload of await repo.uploadsSince(db, accountId, new Date(now.getTime() - DAY_MS))) {
    freed += Number(upload.size);
    if (freed >= needed) {
      fitsAt = new Date(upload.created_at).getTime() + DAY_MS;
      break;
    }
  }
  const seconds = Math.max(1, Math.ceil((fitsAt - now.getTime()) / 1000));
  return quotaExceeded(
    429,
    `The account's uploads of the last 24 hours would exceed its quota of ${bytesText(uploadQuotaBytesPerDay)} ` +
      `(${usage.recent} bytes uploaded); retry in ${seconds} s`,
    { 'Retry-After': String(seconds) },
  );
}

async function checkQuota(deps: UploadDeps, db: Queryable, accountId: string, size: number): Promise<void> {
  const usage = await repo.uploadUsage(db, accountId, new Date(deps.now().getTime() - DAY_MS));
  const refusal = await quotaRefusal(deps, db, accountId, usage, size);
  if (refusal) throw refusal;
}

/**
 * Stores a file's bytes as they arrive, in chunks of UPLOAD_CHUNK_BYTES (never the whole file in memory), as an
 * incomplete upload no reader sees. Refuses, before reading when it can and otherwise as soon as it knows: no file
 * name (422), a file over 20 MiB (413), over the account's quotas (413/429, docs/behaviour.md §11), an empty file
 * (422). A refused or broken upload leaves nothing stored. The caller stops reading the body when this throws.
 */
export async function stageUpload(
  deps: UploadDeps,
  accountId: string,
  start: UploadStart,
  bytes: AsyncIterable<Buffer>,
): Promise<StagedUpload> {
  if (start.fileName === undefined) {
    throw invalidArgument('file_name', 'required', 'is required: pass ?file_name= (or a file name in the multipart part)', 'query');
  }
  const fileName = cleanFileName(start.fileName);
  if (fileName === '') throw invalidArgument('file_name', 'minLength', 'must name a file', 'query');
  if (start.declaredSize !== undefined && start.declaredSize > MAX_UPLOAD_BYTES) throw payloadTooLarge();
  // What is stored already: a file that cannot fit is refused before a byte of it is read.
  const usage = await repo.uploadUsage(deps.db, accountId, new Date(deps.now().getTime() - DAY_MS));
  const refusal = await quotaRefusal(deps, deps.db, accountId, usage, start.declaredSize ?? 0);
  if (refusal) throw refusal;

  const token = `ut_${randomString(40)}`;
  const id = newId('up');
  const fileType = cleanFileType(start.fileType);
  const now = deps.now();
  await repo.insertIncompleteUpload(deps.db, accountId, {
    id,
    tokenHash: sha256(token),
    fileName,
    fileType,
    createdAt: now,
    // Past the end of any request (REQUEST_TIMEOUT_MS): what a crash leaves behind, the retention pass deletes then.
    expiresAt: new Date(now.getTime() + deps.config.requestTimeoutMs + 60 * 60 * 1000),
  });
  try {
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      let buffer = Buffer.concat(pending, pendingBytes);
      while (buffer.length >= UPLOAD_CHUNK_BYTES || (all && buffer.length > 0)) {
        await repo.insertUploadChunk(deps.db, accountId, id, seq++, buffer.subarray(0, UPLOAD_CHUNK_BYTES));
        buffer = buffer.subarray(UPLOAD_CHUNK_BYTES);
      }
      pending = buffer.length > 0 ? [buffer] : [];
      pendingBytes = buffer.length;
    };
    for await (const piece of bytes) {
      size += piece.length;
      if (size > MAX_UPLOAD_BYTES) throw payloadTooLarge();
      const over = size > (start.declaredSize ?? 0) ? await quotaRefusal(deps, deps.db, accountId, usage, size) : null;
      if (over) throw over;
      hash.update(piece);
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes >= UPLOAD_CHUNK_BYTES) await flush(false);
    }
    await flush(true);
    if (size === 0) throw invalidArgument('file', 'minLength', 'must not be empty');
    return {
      accountId,
      id,
      token,
      fileName,
      fileType,
      size,
      requestBody: { fileName: start.fileName, fileType: start.fileType, data: { sha256: hash.digest('hex') } },
    };
  } catch (error) {
    await repo.deleteIncompleteUpload(deps.db, accountId, id).catch(() => undefined);
    throw error;
  }
}

/** Deletes a staged upload and its bytes (a replayed or refused request). */
export async function discardUpload(deps: Pick<Deps, 'db'>, staged: StagedUpload): Promise<void> {
  await repo.deleteIncompleteUpload(deps.db, staged.accountId, staged.id);
}

/**
 * Completes a staged upload once the account's quotas, checked again with every other upload of the account
 * held back, still have room for it (otherwise it is deleted and refused), and hands out the token that
 * attaches it during the next 24 hours.
 */
export async function completeUpload(deps: UploadDeps, staged: StagedUpload): Promise<UploadResult> {
  try {
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      await repo.lockUploadQuota(tx, staged.accountId);
      await checkQuota(deps, tx, staged.accountId, staged.size);
      const done = await repo.completeUpload(tx, staged.accountId, staged.id, {
        size: staged.size,
        createdAt: now,
        expiresAt: new Date(now.getTime() + UPLOAD_TOKEN_TTL_SECONDS * 1000),
      });
      if (!done) throw new Error(`upload ${staged.id} vanished before it was completed`);
    });
  } catch (error) {
    await discardUpload(deps, staged).catch(() => undefined);
    throw error;
  }
  return { token: staged.token, file_name: staged.fileName, file_type: staged.fileType, size: staged.size };
}

/** A stored file as a download sends it: `body` is the bytes of a file stored before migration 170, else a stream reading its chunks a few at a time. */
export interface UploadContentBody {
  file_name: string;
  file_type: string;
  size: number;
  body: Buffer | Readable;
}

/** The stored file; 404 for unknown ids and other accounts' uploads. Downloads do not expire with the token. */
export async function getUploadContent(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<UploadContentBody> {
  const upload = await repo.findUploadContent(deps.db, accountId, id);
  if (!upload) throw notFound(`Upload ${id}`);
  const size = Number(upload.size);
  const body = upload.data ?? Readable.from(readChunks(deps, accountId, id, Math.ceil(size / UPLOAD_CHUNK_BYTES)));
  return { file_name: upload.file_name, file_type: upload.file_type, size, body };
}

async function* readChunks(deps: Pick<Deps, 'db'>, accountId: string, id: string, count: number): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < count;) {
    const chunks = await repo.readUploadChunks(deps.db, accountId, id, seq, DOWNLOAD_CHUNKS_PER_READ);
    if (chunks.length === 0) throw new Error(`upload ${id}: chunk ${seq} is missing`);
    for (const chunk of chunks) yield chunk;
    seq += chunks.length;
  }
}

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

/** Where an upload's bytes can be downloaded (by a client of the same account). */
export function uploadContentPath(id: string): string {
  return `/v2/uploads/${id}/content`;
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
  const essence = fileType.split(';')[0].trim().toLowerCase();
  const [topLevel] = essence.split('/');
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
  const disposition = INLINE_IMAGE_TYPES.has(servedType.split(';')[0].trim().toLowerCase()) ? 'inline' : 'attachment';
  // eslint-disable-next-line no-control-regex -- control characters are what we remove
  const safeName = fileName.replace(/[\u0000-\u001f\u007f/\\\u202a-\u202e\u2066-\u2069]/g, '_');
  const fallback = safeName.replace(/[^\x20-\x7e]|["%]/g, '_');
  const encoded = encodeURIComponent(safeName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export interface UploadedFile {
  /** As sent (query or multipart part); undefined when neither names it. */
  fileName: string | undefined;
  fileType: string | undefined;
  data: Buffer;
}

export interface UploadResult {
  token: string;
  file_name: string;
  file_type: string;
  size: number;
}

/** Stores the file for the account and hands out the token that attaches it during the next 24 hours. */
export async function createUpload(deps: Pick<Deps, 'db' | 'now'>, accountId: string, file: UploadedFile): Promise<UploadResult> {
  if (file.fileName === undefined) {
    throw invalidArgument('file_name', 'required', 'is required: pass ?file_name= (or a file name in the multipart part)', 'query');
  }
  const fileName = cleanFileName(file.fileName);
  if (fileName === '') throw invalidArgument('file_name', 'minLength', 'must name a file', 'query');
  if (file.data.length === 0) throw invalidArgument('file', 'minLength', 'must not be empty');
  if (file.data.length > MAX_UPLOAD_BYTES) throw payloadTooLarge();

  const token = `ut_${randomString(40)}`;
  const now = deps.now();
  const fileType = cleanFileType(file.fileType);
  await repo.insertUpload(deps.db, accountId, {
    id: newId('up'),
    tokenHash: sha256(token),
    fileName,
    fileType,
    data: file.data,
    createdAt: now,
    expiresAt: new Date(now.getTime() + UPLOAD_TOKEN_TTL_SECONDS * 1000),
  });
  return { token, file_name: fileName, file_type: fileType, size: file.data.length };
}

/** The stored file; 404 for unknown ids and other accounts' uploads. Downloads do not expire with the token. */
export async function getUploadContent(deps: Pick<Deps, 'db'>, accountId: string, id: string) {
  const upload = await repo.findUploadContent(deps.db, accountId, id);
  if (!upload) throw notFound(`Upload ${id}`);
  return upload;
}

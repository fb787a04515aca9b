import { Dicer } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { ApiError, invalidArgument } from '../http/errors.ts';
import { MAX_UPLOAD_BYTES, payloadTooLarge } from './service.ts';

const BOUNDARY = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i;

/**
 * The Content-Type header of the body's first form-data part, as sent (parameters
 * included), read by a second parser over the same bytes. @fastify/multipart reports
 * a part without a Content-Type as text/plain (RFC 7578's default) and drops the
 * parameters; an upload without a type is stored as application/octet-stream instead
 * (docs/behaviour.md §11), so the header itself is needed. The file part the upload
 * accepts is always the first form-data part: any other part before it is refused.
 */
function watchFirstPartType(request: FastifyRequest): { firstPartType: () => string | undefined; stop: () => void } {
  let firstPartType: string | undefined;
  const boundary = BOUNDARY.exec(request.headers['content-type'] ?? '');
  if (!boundary) return { firstPartType: () => undefined, stop: () => undefined }; // the multipart parser refuses the body
  const watcher = new Dicer({ boundary: boundary[1] ?? boundary[2] });
  let seenFormData = false;
  watcher.on('part', (part) => {
    part.on('header', (header: Record<string, string[] | undefined>) => {
      if (seenFormData || !/^\s*form-data/i.test(header['content-disposition']?.[0] ?? '')) return;
      seenFormData = true;
      firstPartType = header['content-type']?.[0];
    });
    part.on('error', () => undefined);
    part.resume(); // only the headers matter
  });
  watcher.on('error', () => undefined); // a malformed body is reported by the multipart parser
  request.raw.pipe(watcher);
  return {
    firstPartType: () => firstPartType,
    // Once the upload is read or refused, the rest of a body is not worth parsing.
    stop: () => {
      request.raw.unpipe(watcher);
      watcher.destroy();
    },
  };
}

/** The file part of a multipart body as it starts: its name and type as sent, and its bytes as they arrive. */
export interface MultipartFile {
  fileName: string | undefined;
  fileType: string | undefined;
  bytes: AsyncIterable<Buffer>;
}

/**
 * The one file of a multipart body, the part named `file`, handed to `store` as it arrives (its bytes are read
 * once, by `store`); any other part is refused, and what `store` returned is then handed to `discard`.
 */
export async function readMultipartFile<T>(
  request: FastifyRequest,
  store: (file: MultipartFile) => Promise<T>,
  discard: (stored: T) => Promise<void>,
): Promise<T> {
  let stored: { value: T } | undefined;
  const { firstPartType, stop } = watchFirstPartType(request);
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, parts: 20 } })) {
      if (part.type === 'file' && part.fieldname === 'file' && !stored) {
        // An empty filename="" names nothing: ?file_name= must then name the file.
        stored = { value: await store({ fileName: part.filename || undefined, fileType: firstPartType(), bytes: part.file }) };
        // Busboy stops a file at the size limit and marks it truncated.
        if (part.file.truncated) throw payloadTooLarge();
        continue;
      }
      if (part.type === 'file') part.file.resume(); // drain it, then refuse
      throw part.fieldname === 'file'
        ? invalidArgument(
            'file',
            part.type === 'file' ? 'maxItems' : 'type',
            part.type === 'file' ? 'must be a single file' : 'must be a file part',
          )
        : invalidArgument(part.fieldname, 'additionalProperties', 'is not an allowed part; send the file in a part named file');
    }
  } catch (error) {
    if (stored) await discard(stored.value).catch(() => undefined);
    if (error instanceof ApiError) throw error;
    const { code, message } = error as { code?: string; message: string };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge();
    if (code === 'FST_PARTS_LIMIT') throw new ApiError(413, 'payload_too_large', 'Too many multipart parts: send only the part named file');
    throw new ApiError(400, 'bad_request', `The multipart body is malformed: ${message}`);
  } finally {
    stop();
  }
  if (!stored) throw invalidArgument('file', 'required', 'is required: send the file in a multipart part named file');
  return stored.value;
}

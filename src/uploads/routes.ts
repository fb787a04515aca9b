import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { callerOf } from '../auth/family.ts';
import { bodyOf, type BodyReader } from '../http/pipeline.ts';
import { route } from '../http/route.ts';
import { IdParams } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { UploadBodies, UploadContent, UploadQuery, UploadResult } from './schema.ts';
import { readMultipartFile } from './multipart.ts';
import { ApiError } from '../http/errors.ts';
import type { Readable } from 'node:stream';
import {
  completeUpload,
  contentDisposition,
  discardUpload,
  getUploadContent,
  isMultipartType,
  payloadTooLarge,
  servedFileType,
  stageUpload,
  type StagedUpload,
  type UploadContentBody,
  type UploadStart,
} from './service.ts';

const tags = ['Uploads'];

/** Stores a request's file as it arrives: stageUpload, with the caller's account (and its own rules). */
export type StageUpload = (start: UploadStart, bytes: AsyncIterable<Buffer>) => Promise<StagedUpload>;

/**
 * The body reader of an upload route (config.readsBody): `stageFor` gives, for a request, how its file is stored
 * (the caller's account and rules; it may refuse before a byte is read).
 */
export type UploadBody = (stageFor: (request: FastifyRequest) => StageUpload) => BodyReader<StagedUpload>;

/**
 * `?file_name=`, read with the body, before validation (src/http/pipeline.ts: the file is read before the claim,
 * which comes before validation): a value that is not one string is left to validation, which refuses it.
 */
function fileNameOf(request: FastifyRequest): string | undefined {
  const fileName = (request.query as { file_name?: unknown } | undefined)?.file_name;
  return typeof fileName === 'string' ? fileName : undefined;
}

/**
 * Makes `app`, an encapsulated plugin, read upload bodies (docs/behaviour.md §5, §11): its body parsers (the
 * multipart parser and a raw catch-all, neither of which reads the body) apply to its routes only, so the rest of
 * the API keeps its JSON-only 1 MiB parsing. The returned function makes a route's body reader: the pipeline reads
 * the file with it before claiming the Idempotency-Key (the key covers the file), streaming it to storage as it
 * arrives, never holding it whole; the handler completes the staged upload (bodyOf()). POST /v2/uploads and the
 * visitor API's upload share it.
 */
export async function acceptUploads(app: FastifyInstance, deps: Deps): Promise<UploadBody> {
  // Any content type is a file here, JSON included.
  app.removeAllContentTypeParsers();
  await app.register(multipart);
  // The raw body is left unread here: the handler streams it.
  const rawBodies = new WeakMap<object, Readable>();
  app.addContentTypeParser('*', (request, payload, done) => {
    rawBodies.set(request, payload);
    done(null, undefined);
  });
  // A body is read as multipart only under a well-formed multipart/form-data type; any other body is the file itself,
  // and its type as sent (malformed or multi-valued ones included) is kept for cleanFileType() to judge. Fastify refuses
  // a malformed type with 415 before any parser runs, so it is shown a plain one instead (docs/api.md#uploads-and-attachments).
  const sentTypes = new WeakMap<object, string | undefined>();
  app.addHook('onRequest', async (request) => {
    const sent = request.headers['content-type'];
    sentTypes.set(request, sent);
    if (sent !== undefined && !isMultipartType(sent)) request.headers['content-type'] = 'application/octet-stream';
  });
  // A body refused by the parsers: its size past the file limit, a malformed multipart type. (A refusal before the
  // whole body was read closes the connection after the answer: the pipeline's error handler, for any such route.)
  const refused = (error: { statusCode?: number }) =>
    error.statusCode === 413
      ? payloadTooLarge()
      : error.statusCode === 415
        ? new ApiError(415, 'unsupported_media_type', 'The multipart/form-data Content-Type is malformed')
        : undefined;

  const readUpload = async (request: FastifyRequest, stage: StageUpload): Promise<StagedUpload> => {
    const fileName = fileNameOf(request);
    if (request.isMultipart()) {
      return readMultipartFile(
        request,
        (file) => stage({ ...file, fileName: fileName ?? file.fileName }, file.bytes),
        (file) => discardUpload(deps, file),
      );
    }
    const length = request.headers['content-length'];
    const body = rawBodies.get(request) ?? request.raw;
    return stage(
      {
        fileName,
        fileType: sentTypes.get(request),
        declaredSize: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
      },
      // Stopping early (a refusal) leaves the request stream alone, so the answer can still be sent.
      body.iterator({ destroyOnReturn: false }),
    );
  };

  return (stageFor) => ({
    async read(request) {
      const staged = await readUpload(request, stageFor(request));
      return { value: staged, hashed: staged.requestBody, discard: () => discardUpload(deps, staged) };
    },
    refused,
  });
}

/**
 * Sends an upload's bytes so that they can never run in a browser (docs/behaviour.md §11): a type a browser could
 * render or run is served as application/octet-stream, only passive images inline, nosniff and a sandboxing CSP.
 */
export function sendUploadContent(reply: FastifyReply, upload: UploadContentBody): FastifyReply {
  const fileType = servedFileType(upload.file_type);
  return (
    reply
      .header('Content-Type', fileType)
      .header('Content-Disposition', contentDisposition(upload.file_name, fileType))
      .header('X-Content-Type-Options', 'nosniff')
      // Even if a browser rendered it, the file could run nothing.
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-store')
      .header('Content-Length', String(upload.size))
      .send(upload.body)
  );
}

/** Uploads under /v2 (docs/behaviour.md §5, §11). */
export const uploadRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const uploadBody = await acceptUploads(app, deps);

  const uploadRoute = route({
    operationId: 'createUpload',
    summary: 'Upload a file',
    description:
      'Send the file as multipart/form-data in a part named `file`, or as the raw body with its Content-Type and `?file_name=`. ' +
      "At most 20 MiB, within the account's upload quotas (total and per 24 hours: 413 or 429 `upload_quota_exceeded`). " +
      'The returned token attaches the file (`{"type":"upload","token":...}`) in this account for 24 hours.',
    tags,
    scope: 'conversations:create',
    querystring: UploadQuery,
    documentedBody: UploadBodies,
    response: UploadResult,
    errors: [400, 413, 429],
  });
  app.post(
    '/uploads',
    {
      ...uploadRoute,
      config: {
        ...uploadRoute.config,
        readsBody: uploadBody((request) => (start, bytes) => stageUpload(deps, callerOf(request).accountId, start, bytes)),
      },
    },
    // The file is read and stored by the pipeline, before the Idempotency-Key is claimed on it; completed here.
    async (request) => completeUpload(deps, bodyOf<StagedUpload>(request)),
  );

  app.get(
    '/uploads/:id/content',
    route({
      operationId: 'downloadUpload',
      description:
        'The bytes of an upload of this account, with its stored Content-Type (`image/png`, `text/csv`, `application/pdf`, ...; a type a browser could render or run is served as application/octet-stream), `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy.',
      summary: 'Download an uploaded file',
      tags,
      scope: 'conversations:read',
      params: IdParams,
      response: UploadContent,
      errors: [404],
    }),
    async (request, reply) => sendUploadContent(reply, await getUploadContent(deps, callerOf(request).accountId, request.params.id)),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { callerOf } from '../auth/hook.ts';
import { claimIdempotencyKey, sendStoredAnswer } from '../idempotency/hook.ts';
import { route } from '../http/route.ts';
import { IdParams } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { UploadBodies, UploadContent, UploadQuery, UploadResult } from './schema.ts';
import { readMultipartFile } from './multipart.ts';
import { ApiError } from '../http/errors.ts';
import {
  MAX_UPLOAD_BYTES,
  contentDisposition,
  createUpload,
  getUploadContent,
  isMultipartType,
  payloadTooLarge,
  servedFileType,
} from './service.ts';

const tags = ['Uploads'];

/**
 * Uploads (docs/behaviour.md §5, §11). This plugin is encapsulated: its body parsers (the
 * multipart parser and a raw catch-all, both up to 20 MiB) apply to these routes
 * only, so the rest of the API keeps its JSON-only 1 MiB parsing.
 */
export const uploadRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Any content type is a file here, JSON included.
  app.removeAllContentTypeParsers();
  await app.register(multipart);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
  // A body is read as multipart only under a well-formed multipart/form-data type; any other body is the file itself,
  // and its type as sent (malformed or multi-valued ones included) is kept for cleanFileType() to judge. Fastify refuses
  // a malformed type with 415 before any parser runs, so it is shown a plain one instead (docs/api.md#uploads-and-attachments).
  const sentTypes = new WeakMap<object, string | undefined>();
  app.addHook('onRequest', async (request) => {
    const sent = request.headers['content-type'];
    sentTypes.set(request, sent);
    if (sent !== undefined && !isMultipartType(sent)) request.headers['content-type'] = 'application/octet-stream';
  });
  app.setErrorHandler((error) => {
    // Body over the parser limit: say what the limit is, then let the app's handler answer.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw payloadTooLarge();
    if (status === 415) throw new ApiError(415, 'unsupported_media_type', 'The multipart/form-data Content-Type is malformed');
    throw error;
  });

  const uploadRoute = route({
    operationId: 'createUpload',
    summary: 'Upload a file',
    description:
      'Send the file as multipart/form-data in a part named `file`, or as the raw body with its Content-Type and `?file_name=`. ' +
      'At most 20 MiB. The returned token attaches the file (`{"type":"upload","token":...}`) in this account for 24 hours.',
    tags,
    scope: 'conversations:create',
    querystring: UploadQuery,
    documentedBody: UploadBodies,
    response: UploadResult,
    errors: [400, 413],
  });
  app.post(
    '/uploads',
    // A multipart body is read in the handler: the Idempotency-Key is claimed there, on the file read.
    { bodyLimit: MAX_UPLOAD_BYTES, ...uploadRoute, config: { ...uploadRoute.config, idempotencyInHandler: true } },
    async (request, reply) => {
      const file = request.isMultipart()
        ? await readMultipartFile(request)
        : { fileName: undefined, fileType: sentTypes.get(request), data: (request.body as Buffer | undefined) ?? Buffer.alloc(0) };
      const upload = { ...file, fileName: request.query.file_name ?? file.fileName };
      const stored = await claimIdempotencyKey(deps, request, upload);
      if (stored) return sendStoredAnswer(reply, stored);
      return createUpload(deps, callerOf(request).accountId, upload);
    },
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
    async (request, reply) => {
      const upload = await getUploadContent(deps, callerOf(request).accountId, request.params.id);
      const fileType = servedFileType(upload.file_type);
      return (
        reply
          .header('Content-Type', fileType)
          .header('Content-Disposition', contentDisposition(upload.file_name, fileType))
          .header('X-Content-Type-Options', 'nosniff')
          // Even if a browser rendered it, the file could run nothing.
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          .header('Cache-Control', 'private, no-store')
          .send(upload.data)
      );
    },
  );
};

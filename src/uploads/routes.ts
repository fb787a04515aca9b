import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { callerOf } from '../auth/hook.ts';
import { ApiError, invalidArgument } from '../http/errors.ts';
import { route } from '../http/route.ts';
import { IdParams } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { UploadContent, UploadQuery, UploadResult } from './schema.ts';
import { MAX_UPLOAD_BYTES, createUpload, getUploadContent, payloadTooLarge, type UploadedFile } from './service.ts';

const tags = ['Uploads'];

/** The one file of a multipart body: the part named `file`; any other part is refused. */
async function readMultipartFile(request: FastifyRequest): Promise<UploadedFile> {
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, parts: 20 } })) {
      if (part.type === 'file' && part.fieldname === 'file' && !file) {
        // An empty filename="" names nothing: ?file_name= must then name the file.
        file = { fileName: part.filename || undefined, fileType: part.mimetype, data: await part.toBuffer() };
        continue;
      }
      if (part.type === 'file') await part.toBuffer().catch(() => undefined); // drain it, then refuse
      throw part.fieldname === 'file'
        ? invalidArgument('file', part.type === 'file' ? 'maxItems' : 'type', part.type === 'file' ? 'must be a single file' : 'must be a file part')
        : invalidArgument(part.fieldname, 'additionalProperties', 'is not an allowed part; send the file in a part named file');
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const { code, message } = error as { code?: string; message: string };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge();
    if (code === 'FST_PARTS_LIMIT') throw new ApiError(413, 'payload_too_large', 'Too many multipart parts: send only the part named file');
    throw new ApiError(400, 'bad_request', `The multipart body is malformed: ${message}`);
  }
  if (!file) throw invalidArgument('file', 'required', 'is required: send the file in a multipart part named file');
  return file;
}

/**
 * Uploads (docs/behaviour.md §5). This plugin is encapsulated: its body parsers (the
 * multipart parser and a raw catch-all, both up to 20 MiB) apply to these routes
 * only, so the rest of the API keeps its JSON-only 1 MiB parsing.
 */
export const uploadRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Any content type is a file here, JSON included.
  app.removeAllContentTypeParsers();
  await app.register(multipart);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error) => {
    // Body over the parser limit: say what the limit is, then let the app's handler answer.
    throw (error as { statusCode?: number }).statusCode === 413 ? payloadTooLarge() : error;
  });

  app.post(
    '/uploads',
    {
      bodyLimit: MAX_UPLOAD_BYTES,
      ...route({
        summary: 'Upload a file',
        description:
          'Send the file as multipart/form-data in a part named `file`, or as the raw body with its Content-Type and `?file_name=`. ' +
          'At most 20 MiB. The returned token attaches the file (`{"type":"upload","token":...}`) in this account for 24 hours.',
        tags,
        scope: 'conversations:create',
        querystring: UploadQuery,
        response: UploadResult,
        errors: [400, 413],
      }),
    },
    async (request) => {
      const file = request.isMultipart()
        ? await readMultipartFile(request)
        : { fileName: undefined, fileType: request.headers['content-type'], data: (request.body as Buffer | undefined) ?? Buffer.alloc(0) };
      return createUpload(deps, callerOf(request).accountId, { ...file, fileName: request.query.file_name ?? file.fileName });
    },
  );

  app.get(
    '/uploads/:id/content',
    route({
      summary: 'Download an uploaded file',
      tags,
      scope: 'conversations:read',
      params: IdParams,
      response: UploadContent,
      errors: [404],
    }),
    async (request, reply) => {
      const upload = await getUploadContent(deps, callerOf(request).accountId, request.params.id);
      return reply
        .header('Content-Type', upload.file_type)
        .header('Content-Disposition', contentDisposition(upload.file_name))
        .header('X-Content-Type-Options', 'nosniff')
        // Even if a browser rendered it, the file could run nothing.
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, no-store')
        .send(upload.data);
    },
  );
};

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';

export const UploadQuery = Type.Object(
  {
    file_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Name of the file; required for a raw body, overrides the multipart part file name',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UploadResult = Type.Object(
  {
    token: Type.String({ description: 'Use as `token` of an `upload` attachment in this account, within 24 hours' }),
    file_name: Type.String({ description: 'The stored file name (last path segment of the given name)' }),
    file_type: Type.String({
      description: 'MIME type as sent (the part or request Content-Type); application/octet-stream when missing or malformed',
    }),
    size: Type.Integer({ description: 'Bytes' }),
  },
  { title: 'upload' },
);

/** The bytes of an upload, as served by the download route. */
export const UploadContent = Type.Unsafe<Buffer | Readable>({
  description:
    'The stored bytes with nosniff and a sandboxing CSP; png, jpeg, gif and webp inline, every other file as an attachment; ' +
    'a type a browser could render or run (HTML, SVG, XML, scripts) is served as application/octet-stream',
  // Served with the stored type (image/png, text/csv, application/pdf, ...), whatever was uploaded: any media type. A
  // JSON file is said apart, as for the upload: validators read an application/json body as JSON, never as a string.
  content: {
    'application/json': { schema: { description: 'A JSON file, served byte for byte as it was uploaded' } },
    '*/*': { schema: { type: 'string', format: 'binary' } },
  },
  headers: {
    'content-disposition': { type: 'string', description: '`inline` (png, jpeg, gif, webp) or `attachment`, with the file name' },
    'x-content-type-options': { type: 'string', enum: ['nosniff'], description: 'Always nosniff' },
    'content-security-policy': { type: 'string', description: "`default-src 'none'; sandbox`: the file can run nothing" },
    'cache-control': { type: 'string', description: '`private, no-store`' },
  },
});

const FileBytes = Type.Unsafe<Blob>({ type: 'string', format: 'binary', description: 'The file, at most 20 MiB' });

/** The two bodies POST /uploads reads itself (no schema validates them): documented for clients. */
export const UploadBodies = {
  'multipart/form-data': Type.Object(
    { file: FileBytes },
    { description: 'The file in a part named `file` (its filename and Content-Type name it); no other part' },
  ),
  // Said apart because a JSON body is read as JSON by validators (Prism among them), never as the string */* declares.
  'application/json': Type.Unknown({ description: 'A JSON file, stored byte for byte as sent; name it with `?file_name=`' }),
  '*/*': { ...FileBytes, description: 'The raw file, with its Content-Type; name it with `?file_name=`' },
};

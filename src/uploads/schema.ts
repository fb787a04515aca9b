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
    file_type: Type.String({ description: 'MIME type as sent (the part or request Content-Type); application/octet-stream when missing' }),
    size: Type.Integer({ description: 'Bytes' }),
  },
  { title: 'upload' },
);

/** The bytes of an upload, as served by the download route. */
export const UploadContent = Type.Unsafe<Buffer>({
  description: 'The stored bytes, with the upload Content-Type and a Content-Disposition attachment header',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
});

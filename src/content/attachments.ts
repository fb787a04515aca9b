import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../db/db.ts';

const Action = Type.Object(
  {
    type: Type.String({ enum: ['open_url'] }),
    title: Type.String(),
    value: Type.String({ format: 'uri', pattern: '^https?://' }),
  },
  { additionalProperties: false },
);

const CarouselItem = Type.Object(
  {
    title: Type.String({ maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    price: Type.Optional(Type.String({ maxLength: 32, description: 'Pre-formatted by the caller, not computed' })),
    image: Type.Optional(Type.String()),
    actions: Type.Array(Action, { minItems: 1, maxItems: 1 }),
  },
  { additionalProperties: false },
);

/** An attachment as a request carries it (SPEC section 2, DECISIONS 5). */
export const AttachmentInput = Type.Object(
  {
    type: Type.String({ enum: ['image', 'file', 'upload', 'template'], description: 'attachment_type' }),
    layout: Type.Optional(Type.String({ enum: ['carousel'] })),
    items: Type.Optional(Type.Array(CarouselItem, { minItems: 1, maxItems: 10 })),
    url: Type.Optional(Type.String()),
    token: Type.Optional(Type.String({ description: 'From POST /v2/uploads; required for type upload' })),
    file_name: Type.Optional(Type.String({ description: 'When missing, the last path segment of url' })),
    file_type: Type.Optional(Type.String({ description: 'MIME type' })),
  },
  { additionalProperties: false },
);
export type AttachmentInput = Static<typeof AttachmentInput>;

/** An attachment as stored on a message and returned in responses. */
export type StoredAttachment = Record<string, unknown> & { type: string };

/**
 * Checks the rules the schema cannot (url scheme, token validity, allowed
 * extensions) and returns what to store. Throws ApiError 422
 * invalid_attachment_data (or invalid_arguments) naming `${path}[i]`.
 * PLACEHOLDER until the uploads work lands.
 */
export async function resolveAttachments(
  _db: Queryable,
  _accountId: string,
  attachments: AttachmentInput[],
  _now: Date,
  _path: string,
): Promise<StoredAttachment[]> {
  return attachments.map((a) => ({ ...a }));
}

import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../http/schemas.ts';
import { Conversation, Message, Path } from '../conversations/schema.ts';

export const Contact = Type.Object(
  {
    id: Type.String({ description: '`ct` + 12 characters', examples: ['ctH2vN8sLq0Yw5'] }),
    email: Nullable(Type.String({ description: 'E-mail address; null when not given' })),
    identity_id: Nullable(Type.String({ description: "The caller's own id for this person, unique per account" })),
    name: Nullable(Type.String({ description: 'Name; null when not given' })),
    phone: Nullable(Type.String({ description: 'Phone number, as given; null when not given' })),
    created_at: Timestamp,
    updated_at: { ...Timestamp, description: 'Last change; decides which of several e-mail matches /contacts/find returns' },
  },
  { title: 'contact', description: 'A person who chats with the account, as GET /v2/contacts/{id} returns it' },
);
export type Contact = Static<typeof Contact>;

export const CreateContactBody = Type.Object(
  {
    email: Type.Optional(
      Nullable(Type.String({ format: 'email', maxLength: 254, description: 'A valid address (422 code `format` otherwise)' })),
    ),
    identity_id: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'Unique per account (a second use: 422 code `unique`)' })),
    ),
    name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Name' }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'Phone number, stored as given' }))),
  },
  { additionalProperties: false },
);
export type CreateContactBody = Static<typeof CreateContactBody>;

export const FindContactQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Matched case-insensitively; the most recently updated match wins' })),
  },
  { additionalProperties: false },
);

export const ListContactsQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: 256,
        description: 'A prefix of a word of the name, or of the e-mail address; case and diacritics ignored (`nova` finds Nováková)',
      }),
    ),
    size: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page' }),
    after: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'The `after` of the previous page, sent with the same `q`' }),
    ),
  },
  { additionalProperties: false },
);
export type ListContactsQuery = Static<typeof ListContactsQuery>;

export const ContactPage = Type.Object(
  {
    items: Type.Array(Contact, { description: 'Newest first' }),
    after: Nullable(Type.String({ description: 'Pass as `after` (with the same `q`) for the next page; null on the last page' })),
  },
  { title: 'contacts_page' },
);
export type ContactPage = Static<typeof ContactPage>;

const ExportedUpload = Type.Object(
  {
    id: Type.String({ description: 'Upload id (`up` + 12 characters)' }),
    file_name: Type.String({ description: 'File name' }),
    file_type: Type.String({ description: 'MIME type as stored' }),
    size: Type.Integer({ description: 'Bytes' }),
    created_at: Timestamp,
    url: Type.String({ description: 'Download link: GET it with a `conversations:read` token' }),
  },
  { title: 'exported_upload' },
);
export type ExportedUpload = Static<typeof ExportedUpload>;

const ExportedConversation = Type.Object(
  {
    ...Conversation.properties,
    messages: Type.Array(Message, { description: 'Every message, oldest first' }),
    paths: Type.Array(Path, { description: 'Every path, oldest first' }),
    uploads: Type.Array(ExportedUpload, { description: 'The uploads its messages attach' }),
  },
  { title: 'exported_conversation' },
);
export type ExportedConversation = Static<typeof ExportedConversation>;

export const ContactExport = Type.Object(
  {
    exported_at: Timestamp,
    contact: Contact,
    conversations: Type.Array(ExportedConversation, {
      description: 'Every conversation of the contact (its rating, variables and tags included), in id order',
    }),
  },
  { title: 'contact_export', description: 'Everything stored about the contact (GDPR articles 15 and 20)' },
);

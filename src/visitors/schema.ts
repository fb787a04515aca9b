import { Type, type Static } from '@sinclair/typebox';
import { At, Nullable, PATTERN_MESSAGE, StringEnum } from '../http/schemas.ts';
import { StoredAttachment } from '../content/attachments.ts';
import { ConversationStatus, LastMessage, Variables } from '../conversations/schema.ts';

/** Longest message text a visitor may send, in characters; longer is 422 code `maxLength` (docs/widget.md "Limits"). */
export const MAX_VISITOR_TEXT = 5000;

/** One line: the canonical string of a signed identity joins its fields with newlines (src/visitors/identity.ts). */
const ONE_LINE = { pattern: '^[^\\n\\r]*$', [PATTERN_MESSAGE]: 'must not contain a line break' };

export const SignedIdentity = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 255,
      ...ONE_LINE,
      description: "The site's own id of the signed-in visitor (the contact's identity_id)",
    }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 255, ...ONE_LINE, description: 'Their name; null or absent: none' }))),
    email: Type.Optional(Nullable(Type.String({ maxLength: 254, ...ONE_LINE, description: 'Their e-mail address; null or absent: none' }))),
    expires_at: Type.Integer({
      minimum: 0,
      maximum: 99_999_999_999,
      description: 'Unix time in seconds after which the signature is refused; at most 24 hours ahead',
    }),
    signature: Type.String({
      pattern: '^[0-9a-fA-F]{64}$',
      [PATTERN_MESSAGE]: 'must be 64 hexadecimal digits (HMAC-SHA256)',
      description: 'Hex HMAC-SHA256, keyed with the identity secret, of `id\\nname\\nemail\\nexpires_at` (docs/widget.md)',
    }),
  },
  {
    title: 'signed_identity',
    additionalProperties: false,
    description: 'Who the visitor is, as the site signed it on its server (docs/widget.md "Identity verification")',
  },
);
export type SignedIdentity = Static<typeof SignedIdentity>;

export const SessionBody = Type.Object(
  {
    widget_key: Type.String({ minLength: 1, maxLength: 64, description: "The account's public widget key (`data-key` of the script tag)" }),
    token: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'The visitor token from an earlier session: resumes it when still valid' }),
    ),
    identity: Type.Optional(SignedIdentity),
  },
  { additionalProperties: false },
);
export type SessionBody = Static<typeof SessionBody>;

export const VisitorSession = Type.Object(
  {
    token: Type.String({
      description: 'The visitor token (`vt_` + 43 characters): `Authorization: Bearer <token>` on the other /widget/v1 operations',
    }),
    contact_id: Type.String({ description: 'The contact the visitor chats as' }),
  },
  { title: 'visitor_session' },
);
export type VisitorSession = Static<typeof VisitorSession>;

export const VisitorConversation = Type.Object(
  {
    id: Type.String({ description: 'Conversation id' }),
    status: ConversationStatus,
    rating_value: Nullable(Type.Integer({ description: "The visitor's rating, 1, 3 or 5; null when not rated" })),
    rating_text: Nullable(Type.String({ description: "The rating's comment" })),
    last_message: LastMessage('The latest message; null before any'),
    created_at: At('When it started'),
    updated_at: At('When it last changed'),
    finished_at: Nullable(At('When it was closed; null while open')),
  },
  { title: 'visitor_conversation', description: "A conversation as its visitor sees it: no agents' internal fields" },
);
export type VisitorConversation = Static<typeof VisitorConversation>;

export const VisitorConversationList = Type.Object(
  { items: Type.Array(VisitorConversation, { description: "The visitor's conversations, newest first (at most 100)" }) },
  { title: 'visitor_conversation_list' },
);

export const VisitorMessage = Type.Object(
  {
    id: Type.String({ description: 'Message id' }),
    conversation_id: Type.String({ description: 'The conversation it belongs to' }),
    sub_type: StringEnum(['contact', 'agent', 'bot', 'trigger'] as const, {
      description: 'Who wrote it: `contact` (the visitor), `agent`, `bot` or `trigger`',
    }),
    text: Nullable(Type.String({ description: 'Plain text' })),
    html: Nullable(Type.String({ description: 'Sanitised HTML (only a and br), or null' })),
    attachments: Type.Array(StoredAttachment, { description: 'Attachments' }),
    is_offline: Type.Boolean({
      description: "The visitor's message was sent while no agent (of its group) was available: the widget shows its offline notice",
    }),
    created_at: At('When it was written'),
  },
  { title: 'visitor_message', description: 'A message as the visitor sees it: notes and system records are never shown' },
);
export type VisitorMessage = Static<typeof VisitorMessage>;

export const VisitorMessagePage = Type.Object(
  {
    items: Type.Array(VisitorMessage, { description: 'Newest first' }),
    after: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page' })),
    total: Type.Integer({ description: 'Messages in the conversation the visitor can see' }),
  },
  { title: 'visitor_messages_page' },
);

const VisitorText = Type.String({
  minLength: 1,
  maxLength: MAX_VISITOR_TEXT,
  description: `Plain text, 1 to ${MAX_VISITOR_TEXT} characters (longer: 422 code \`maxLength\`)`,
});

/** A client-generated id that makes a visitor's write idempotent (docs/widget.md "Operations"). */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9_-]{8,64}$';
const ClientId = (description: string) =>
  Type.String({ pattern: CLIENT_ID_PATTERN, [PATTERN_MESSAGE]: 'must be 8 to 64 letters, digits, - or _', description });

export const StartConversationBody = Type.Object(
  {
    text: VisitorText,
    client_id: Type.Optional(
      ClientId(
        'An id the widget makes up for this start (a UUID): a repeated start with the same id answers the first conversation ' +
          '(a double click starts one). The Idempotency-Key header does the same.',
      ),
    ),
    variables: Type.Optional(Variables),
  },
  { additionalProperties: false },
);
export type StartConversationBody = Static<typeof StartConversationBody>;

export const VisitorAttachment = Type.Object(
  {
    type: StringEnum(['upload'] as const, { description: 'Always `upload`: a file the visitor sent with POST /widget/v1/uploads' }),
    token: Type.String({ minLength: 1, maxLength: 128, description: 'The `token` POST /widget/v1/uploads answered, valid 24 hours' }),
  },
  { title: 'visitor_attachment', additionalProperties: false },
);

export const VisitorMessageBody = Type.Object(
  {
    text: Type.Optional(VisitorText),
    attachments: Type.Optional(
      Type.Array(VisitorAttachment, { maxItems: 5, description: 'Files to attach, at most 5; text, attachments or both are required' }),
    ),
    client_id: Type.Optional(
      ClientId(
        'An id the widget makes up for this message (a UUID), sent again on a retry: a repeated message with the same id in ' +
          'this conversation answers the first one, stored once. The Idempotency-Key header does the same.',
      ),
    ),
  },
  { additionalProperties: false },
);
export type VisitorMessageBody = Static<typeof VisitorMessageBody>;

export const VisitorTypingBody = Type.Object(
  {
    is_typing: Type.Boolean({ description: 'true while the visitor types (send again every few seconds); false when they stop or send' }),
  },
  { additionalProperties: false },
);

export const VisitorWriteHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: CLIENT_ID_PATTERN,
      description: 'Same as `client_id` (which wins when both are sent): a repeated request answers what the first one stored',
    }),
  ),
});

export const VisitorEventQuery = Type.Object(
  {
    last_event_id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Resume after this event id (the Last-Event-ID header wins when both are sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The 200 answer is a stream, described for the OpenAPI document only. */
export const VisitorEventStream = Type.Unsafe<string>({
  description:
    "Server-Sent Events of the visitor's conversations: per event `id:` (the event id), `event:` (its type) and `data:` " +
    '(JSON `{id, event, timestamp, data}`; docs/widget.md lists what `data` holds for each type); `: keep-alive` comments every 15 s.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});

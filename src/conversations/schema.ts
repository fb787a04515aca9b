import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';
import { AttachmentInput, StoredAttachment } from '../content/attachments.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });

/** Flat object of string keys to string/number/boolean values (DECISIONS 5). */
export const Variables = Type.Unsafe<Record<string, string | number | boolean>>({
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 64 },
  additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 1024 },
  description: 'variables: at most 50 keys of at most 64 characters; values strings (at most 1024 characters), numbers or booleans',
});
export type Variables = Static<typeof Variables>;

const Attachments = Type.Array(AttachmentInput, { maxItems: 5 });

const ImportedContent = Type.Object(
  {
    type: StringEnum<'text'>(['text'], { default: 'text' }),
    text: Type.Optional(Nullable(Type.String())),
    html: Type.Optional(Nullable(Type.String({ description: 'Only a and br survive; links only http, https, mailto' }))),
  },
  { additionalProperties: false },
);

export const ImportedMessage = Type.Object(
  {
    sub_type: StringEnum(['contact', 'bot'] as const, { description: 'Imported messages come from a contact or a bot' }),
    content: ImportedContent,
    attachments: Type.Optional(Attachments),
    created_at: Type.Optional(Type.String({ format: 'date-time', description: 'Not in the future; missing: now' })),
  },
  { additionalProperties: false },
);
export type ImportedMessage = Static<typeof ImportedMessage>;

export const CreateConversationBody = Type.Object(
  {
    contact_id: Id,
    assigned_ids: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    group_id: Type.Optional(Nullable(Id)),
    ext_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    variables: Type.Optional(Variables),
    tags: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    text: Type.Optional(Type.String({ description: 'Plain text of a single message' })),
    html: Type.Optional(Type.String({ description: 'HTML of a single message; sanitised to a and br' })),
    messages: Type.Optional(Type.Array(ImportedMessage, { minItems: 1, maxItems: 1000, description: 'Messages to import' })),
  },
  { additionalProperties: false },
);
export type CreateConversationBody = Static<typeof CreateConversationBody>;

export const UpdateConversationBody = Type.Object(
  {
    group_id: Type.Optional(Nullable(Id)),
    tags: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    variables: Type.Optional(Variables),
    ext_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  },
  { additionalProperties: false },
);
export type UpdateConversationBody = Static<typeof UpdateConversationBody>;

export const AssignBody = Type.Object(
  {
    agent_id: Type.String({ minLength: 1, maxLength: 64, description: 'The acting agent' }),
    assignee_id: Type.String({ minLength: 1, maxLength: 64, description: 'The agent being assigned' }),
  },
  { additionalProperties: false },
);

export const UnassignBody = Type.Object(
  {
    agent_id: Type.String({ minLength: 1, maxLength: 64, description: 'The acting agent' }),
    unassignee_id: Type.String({ minLength: 1, maxLength: 64, description: 'The agent being unassigned' }),
  },
  { additionalProperties: false },
);

export const NewMessageBody = Type.Object(
  {
    sub_type: StringEnum(['contact', 'agent', 'bot'] as const),
    agent_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'Required for sub_type agent' }))),
    type: Type.Optional(StringEnum<'message' | 'note'>(['message', 'note'], { default: 'message' })),
    text: Type.Optional(Nullable(Type.String())),
    html: Type.Optional(Nullable(Type.String())),
    attachments: Type.Optional(Attachments),
    created_at: Type.Optional(
      Type.String({ format: 'date-time', description: "For importing history: not in the future, not before the conversation's latest message" }),
    ),
  },
  { additionalProperties: false },
);
export type NewMessageBody = Static<typeof NewMessageBody>;

export const NewPathBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://[^/?#\\s]+', description: 'http(s) URL of the page' }),
    title: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  },
  { additionalProperties: false },
);

export const RatingBody = Type.Object(
  {
    value: Type.Unsafe<1 | 3 | 5>({ type: 'integer', enum: [1, 3, 5], description: '1, 3 or 5' }),
    text: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  },
  { additionalProperties: false },
);

export const FindQuery = Type.Object({ ext_id: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });

export const GetConversationQuery = Type.Object(
  {
    messages: Type.Boolean({ default: false, description: 'Include the last 200 messages, oldest first' }),
    paths: Type.Boolean({ default: false, description: 'Include the last 200 paths, oldest first' }),
    statistics: Type.Boolean({ default: false, description: 'Include the conversation statistics' }),
  },
  { additionalProperties: false },
);

export const PageQuery = Type.Object(
  {
    size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'The `after` of the previous page' })),
  },
  { additionalProperties: false },
);

// ---- responses ----

const OpenObject = Type.Object({}, { additionalProperties: true });

export const Message = Type.Object(
  {
    id: Type.String(),
    conversation_id: Type.String(),
    type: StringEnum(['message', 'note', 'event'] as const),
    sub_type: StringEnum(['contact', 'agent', 'bot', 'trigger', 'system'] as const),
    agent_id: Nullable(Type.String()),
    trigger_id: Nullable(Type.String()),
    content: Type.Object(
      {
        type: Type.String({ description: '`text`, or for event messages the event (`agent_assigned`, `agent_unassigned`)' }),
        text: Nullable(Type.String()),
        html: Type.Optional(Nullable(Type.String())),
        data: Type.Optional(OpenObject),
      },
      { additionalProperties: false },
    ),
    attachments: Type.Array(StoredAttachment),
    is_reply: Type.Boolean(),
    is_first_reply: Type.Boolean(),
    is_offline: Type.Boolean(),
    is_offline_reply: Type.Boolean(),
    response_time: Nullable(Type.Number({ description: 'Seconds from the earliest unanswered contact message' })),
    created_at: Timestamp,
  },
  { title: 'message' },
);
export type Message = Static<typeof Message>;

export const Path = Type.Object(
  { url: Type.String(), title: Nullable(Type.String()), created_at: Timestamp },
  { title: 'path' },
);
export type Path = Static<typeof Path>;

export const ConversationStatistics = Type.Object(
  {
    messages_count: Type.Integer(),
    contact_messages_count: Type.Integer(),
    agent_messages_count: Type.Integer(),
    first_response_time: Nullable(Type.Number()),
    avg_response_time: Nullable(Type.Number()),
    duration: Nullable(Type.Number({ description: 'finished_at - created_at in seconds; null while not closed' })),
  },
  { title: 'conversation_statistics' },
);
export type ConversationStatistics = Static<typeof ConversationStatistics>;

export const ConversationStatus = StringEnum(['pending', 'open', 'served', 'closed'] as const);
export type ConversationStatus = Static<typeof ConversationStatus>;

const conversationFields = {
  id: Type.String(),
  ext_id: Nullable(Type.String()),
  status: ConversationStatus,
  channel: Type.Object({ type: Type.Literal('default'), id: Type.Null() }),
  contact_id: Type.String(),
  group_id: Nullable(Type.String()),
  domain: Nullable(Type.String({ description: 'Host of the first path recorded' })),
  assigned_ids: Type.Array(Type.String()),
  agent_ids: Type.Array(Type.String({ description: 'Agents who have written in it' })),
  tags: Type.Array(Type.String()),
  variables: OpenObject,
  rating_value: Nullable(Type.Integer()),
  rating_text: Nullable(Type.String()),
  rated_at: Nullable(Timestamp),
  is_offline: Type.Boolean({ description: 'Its first contact message was offline' }),
  is_served: Type.Boolean(),
  unread: Type.Integer({ description: 'Contact messages after the last agent message' }),
  last_message: Nullable(Type.Object({ text: Nullable(Type.String()), created_at: Timestamp })),
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Nullable(Timestamp),
  close_type: Nullable(StringEnum(['agent', 'contact', 'inactivity'] as const)),
};

export const Conversation = Type.Object(conversationFields, { title: 'conversation' });
export interface Conversation {
  id: string;
  ext_id: string | null;
  status: ConversationStatus;
  channel: { type: 'default'; id: null };
  contact_id: string;
  group_id: string | null;
  domain: string | null;
  assigned_ids: string[];
  agent_ids: string[];
  tags: string[];
  variables: Record<string, unknown>;
  rating_value: number | null;
  rating_text: string | null;
  rated_at: string | null;
  is_offline: boolean;
  is_served: boolean;
  unread: number;
  last_message: { text: string | null; created_at: string } | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  close_type: 'agent' | 'contact' | 'inactivity' | null;
}

export const ConversationWithDetails = Type.Object(
  {
    ...conversationFields,
    messages: Type.Optional(Type.Array(Message, { description: 'The last 200, oldest first' })),
    paths: Type.Optional(Type.Array(Path, { description: 'The last 200, oldest first' })),
    statistics: Type.Optional(ConversationStatistics),
  },
  { title: 'conversation_details' },
);

export const MessagePage = Type.Object(
  {
    items: Type.Array(Message, { description: 'Newest first' }),
    after: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page' })),
    total: Type.Integer(),
  },
  { title: 'messages_collection' },
);

export const PathPage = Type.Object(
  {
    items: Type.Array(Path, { description: 'Newest first' }),
    after: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page' })),
    total: Type.Integer(),
  },
  { title: 'paths_collection' },
);

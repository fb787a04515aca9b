import { Type, type Static } from '@sinclair/typebox';
import { At, Nullable, PATTERN_MESSAGE, StringEnum } from '../http/schemas.ts';
import { AttachmentInput, StoredAttachment } from '../content/attachments.ts';
import { MAX_HTML_LENGTH } from '../content/html.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });

/** Flat object of string keys to string/number/boolean values (docs/behaviour.md §5). */
export const Variables = Type.Unsafe<Record<string, string | number | boolean>>({
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 64 },
  additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 1024 },
  description: 'variables: at most 50 keys of at most 64 characters; values strings (at most 1024 characters), numbers or booleans',
});
export type Variables = Static<typeof Variables>;

const GroupId = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Routes it to (makes it visible only to) agents of this group; unknown: 422 group_not_found',
  }),
);
const ExtId = Nullable(
  Type.String({ minLength: 1, maxLength: 255, description: "The caller's own id, unique per account, for GET /conversations/find" }),
);
const Tags = Type.Array(Id, { maxItems: 100, description: 'Tag ids (unknown: 422 tag_not_found)' });

/** Message HTML: bounded, so sanitising a request takes a bounded time (docs/behaviour.md §9). */
const MessageHtml = Type.String({
  maxLength: MAX_HTML_LENGTH,
  description: `HTML (at most ${MAX_HTML_LENGTH} characters), sanitised: only a and br survive; links only http, https, mailto`,
});

const Attachments = Type.Array(AttachmentInput, { maxItems: 5, description: 'At most 5 attachments' });

const ImportedContent = Type.Object(
  {
    type: StringEnum<'text'>(['text'], { default: 'text', description: 'Always `text` (the default)' }),
    text: Type.Optional(Nullable(Type.String({ description: 'Plain text; text or html is required' }))),
    html: Type.Optional(Nullable(MessageHtml)),
  },
  { additionalProperties: false, description: 'The message content' },
);

export const ImportedMessage = Type.Object(
  {
    sub_type: StringEnum(['contact', 'bot'] as const, { description: 'Imported messages come from a contact or a bot' }),
    content: ImportedContent,
    attachments: Type.Optional(Attachments),
    created_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'When it was written (RFC 3339 with a zone); not in the future; missing: now' }),
    ),
  },
  { additionalProperties: false },
);
export type ImportedMessage = Static<typeof ImportedMessage>;

export const CreateConversationBody = Type.Object(
  {
    contact_id: Type.String({ ...Id, description: 'The contact it is with (unknown: 422 contact_not_found)' }),
    assigned_ids: Type.Optional(
      Type.Array(Id, { maxItems: 100, description: 'Agents assigned at creation (unknown: 422 agent_not_found)' }),
    ),
    group_id: Type.Optional(GroupId),
    ext_id: Type.Optional(ExtId),
    variables: Type.Optional(Variables),
    tags: Type.Optional(Tags),
    text: Type.Optional(Type.String({ description: 'Plain text of a single message' })),
    html: Type.Optional({
      ...MessageHtml,
      description: `HTML of a single message (at most ${MAX_HTML_LENGTH} characters); sanitised to a and br`,
    }),
    messages: Type.Optional(Type.Array(ImportedMessage, { minItems: 1, maxItems: 1000, description: 'Messages to import' })),
  },
  { additionalProperties: false },
);
export type CreateConversationBody = Static<typeof CreateConversationBody>;

export const UpdateConversationBody = Type.Object(
  {
    group_id: Type.Optional(GroupId),
    tags: Type.Optional(Tags),
    variables: Type.Optional(Variables),
    ext_id: Type.Optional(ExtId),
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
    sub_type: StringEnum(['contact', 'agent', 'bot'] as const, { description: 'Who writes it' }),
    agent_id: Type.Optional(
      Nullable(
        Type.String({ minLength: 1, maxLength: 64, description: 'The writing agent: required for sub_type agent, not allowed otherwise' }),
      ),
    ),
    type: Type.Optional(
      StringEnum<'message' | 'note'>(['message', 'note'], {
        default: 'message',
        description: '`note`: internal, neither asks nor answers',
      }),
    ),
    text: Type.Optional(Nullable(Type.String({ description: 'Plain text; text, html or an attachment is required' }))),
    html: Type.Optional(Nullable(MessageHtml)),
    attachments: Type.Optional(Attachments),
    created_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "For importing history: not in the future, not before the conversation's latest message nor its created_at",
      }),
    ),
  },
  { additionalProperties: false },
);
export type NewMessageBody = Static<typeof NewMessageBody>;

export const NewPathBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      pattern: '^[hH][tT][tT][pP][sS]?://[^/?#\\s]+',
      [PATTERN_MESSAGE]: 'must be an http or https URL with a host',
      description: 'http(s) URL of the page',
    }),
    title: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'Title of the page' }))),
  },
  { additionalProperties: false },
);

export const RatingBody = Type.Object(
  {
    value: Type.Unsafe<1 | 3 | 5>({ type: 'integer', enum: [1, 3, 5], description: '1, 3 or 5' }),
    text: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: "The contact's comment" }))),
  },
  { additionalProperties: false },
);

export const TypingBody = Type.Object(
  {
    agent_id: Type.String({ minLength: 1, maxLength: 64, description: 'The agent typing (unknown: 422 agent_not_found)' }),
    is_typing: Type.Boolean({ description: 'true while the agent types (send again every few seconds); false when they stop or send' }),
  },
  { additionalProperties: false },
);

export const FindQuery = Type.Object(
  { ext_id: Type.String({ minLength: 1, maxLength: 255, description: 'The ext_id given on create or update' }) },
  { additionalProperties: false },
);

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
    size: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Items per page' }),
    after: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,18}$',
        [PATTERN_MESSAGE]: 'must be the `after` of a previous page',
        description: 'The `after` of the previous page',
      }),
    ),
  },
  { additionalProperties: false },
);

// ---- responses ----

/** A response timestamp (ISO-8601 UTC with milliseconds) saying what it is. */

export const Message = Type.Object(
  {
    id: Type.String({ description: 'Message id (`ms` + 12 characters)' }),
    conversation_id: Type.String({ description: 'The conversation it belongs to' }),
    type: StringEnum(['message', 'note', 'event'] as const, {
      description: '`message`; `note` (internal); `event` (a system record such as an assignment)',
    }),
    sub_type: StringEnum(['contact', 'agent', 'bot', 'trigger', 'system'] as const, { description: 'Who wrote it; `system` for events' }),
    agent_id: Nullable(Type.String({ description: 'The writing agent, or for events the acting agent' })),
    trigger_id: Nullable(Type.String({ description: 'The bot trigger that sent it, for trigger messages' })),
    content: Type.Object(
      {
        type: Type.String({ description: '`text`, or for event messages the event (`agent_assigned`, `agent_unassigned`)' }),
        text: Nullable(Type.String({ description: 'Plain text (derived from html when only html was given); null for events' })),
        html: Type.Optional(Nullable(Type.String({ description: 'Sanitised HTML, or null' }))),
        data: Type.Optional(
          Type.Object({}, { additionalProperties: true, description: 'Events: `{agent_id}` of the agent assigned or unassigned' }),
        ),
      },
      { additionalProperties: false, description: '`{type: "text", text, html}`; events `{type, text: null, data}`' },
    ),
    attachments: Type.Array(StoredAttachment, { description: 'Attachments as stored' }),
    is_reply: Type.Boolean({ description: 'An agent message answering one or more unanswered contact messages' }),
    is_first_reply: Type.Boolean({ description: "The conversation's first reply" }),
    is_offline: Type.Boolean({ description: 'A contact message sent while no agent (of the group) was available' }),
    is_offline_reply: Type.Boolean({ description: 'A reply whose unanswered contact messages include an offline one' }),
    response_time: Nullable(Type.Number({ description: 'Replies: seconds from the earliest unanswered contact message; otherwise null' })),
    created_at: At('When it was written'),
  },
  { title: 'message' },
);
export type Message = Static<typeof Message>;

export const Path = Type.Object(
  {
    url: Type.String({ description: 'URL of the page visited' }),
    title: Nullable(Type.String({ description: 'Title of the page' })),
    created_at: At('When it was recorded'),
  },
  { title: 'path' },
);
export type Path = Static<typeof Path>;

export const ConversationStatistics = Type.Object(
  {
    messages_count: Type.Integer({ description: 'Messages of every sub_type (not notes or events)' }),
    contact_messages_count: Type.Integer({ description: 'Messages from the contact' }),
    agent_messages_count: Type.Integer({ description: 'Messages from agents' }),
    first_response_time: Nullable(Type.Number({ description: 'response_time of the first reply, seconds; null before one' })),
    avg_response_time: Nullable(Type.Number({ description: 'Mean response_time of the replies, seconds; null before one' })),
    duration: Nullable(Type.Number({ description: 'finished_at - created_at in seconds; null while not closed' })),
  },
  { title: 'conversation_statistics', description: 'Counts and times of the conversation (statistics=true)' },
);
export type ConversationStatistics = Static<typeof ConversationStatistics>;

export const ConversationStatus = StringEnum(['pending', 'open', 'served', 'closed'] as const, {
  description: '`pending` (no contact message), `open` (waiting for an agent), `served` (an agent assigned or replied), `closed`',
});
export type ConversationStatus = Static<typeof ConversationStatus>;

/** A conversation's latest message, as its lists show it (an agent's and its visitor's). */
export const LastMessage = (description: string) =>
  Nullable(
    Type.Object({ text: Nullable(Type.String({ description: 'Its plain text' })), created_at: At('When it was written') }, { description }),
  );

const conversationFields = {
  id: Type.String({ description: 'Conversation id (`co` + 12 characters)' }),
  ext_id: Nullable(Type.String({ description: "The caller's own id, unique per account" })),
  status: ConversationStatus,
  channel: Type.Object(
    { type: Type.Literal('default', { description: 'Always `default`' }), id: Type.Null({ description: 'Always null' }) },
    { description: 'The channel it came through' },
  ),
  contact_id: Type.String({ description: 'The contact it is with' }),
  group_id: Nullable(Type.String({ description: 'The group it is routed to, or null' })),
  domain: Nullable(Type.String({ description: 'Host of the first path recorded; null before any' })),
  assigned_ids: Type.Array(Type.String(), { description: 'Agents assigned to it' }),
  agent_ids: Type.Array(Type.String(), { description: 'Agents who have written in it' }),
  tags: Type.Array(Type.String(), { description: 'Tag ids' }),
  variables: Type.Object({}, { additionalProperties: true, description: 'Flat object of string keys to string, number or boolean values' }),
  rating_value: Nullable(Type.Integer({ description: 'The rating, 1, 3 or 5; null when not rated' })),
  rating_text: Nullable(Type.String({ description: "The rating's comment" })),
  rated_at: Nullable(At('When it was last rated')),
  is_offline: Type.Boolean({ description: 'Its first contact message was offline' }),
  is_served: Type.Boolean({ description: 'An agent has been assigned or has replied' }),
  unread: Type.Integer({ description: 'Contact messages after the last agent message' }),
  last_message: LastMessage('The latest message (not notes or events); null before any'),
  created_at: At('When it started (its earliest message, or its creation)'),
  updated_at: At('When it last changed'),
  finished_at: Nullable(At('When it was closed; null while not closed')),
  close_type: Nullable(StringEnum(['agent', 'contact', 'inactivity'] as const, { description: 'Who closed it; null while not closed' })),
};

export const Conversation = Type.Object(conversationFields, { title: 'conversation' });
export type Conversation = Static<typeof Conversation>;

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
    total: Type.Integer({ description: 'Messages in the conversation' }),
  },
  { title: 'messages_collection' },
);

export const PathPage = Type.Object(
  {
    items: Type.Array(Path, { description: 'Newest first' }),
    after: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page' })),
    total: Type.Integer({ description: 'Paths in the conversation' }),
  },
  { title: 'paths_collection' },
);

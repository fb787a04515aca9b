import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../http/schemas.ts';
import { Conversation, ConversationStatus } from '../conversations/schema.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });

/** The longest `query` accepted: a search is words, not a document (docs/behaviour.md §9). */
export const MAX_QUERY_LENGTH = 256;

const TimeRange = (what: string) =>
  Type.Object(
    {
      from: Type.Optional(Type.String({ format: 'date-time', description: `Earliest ${what}, included (RFC 3339)` })),
      to: Type.Optional(Type.String({ format: 'date-time', description: `Latest ${what}, excluded (RFC 3339)` })),
    },
    { additionalProperties: false, description: `Only conversations whose ${what} lies in [from, to)` },
  );

export const SEARCH_SORTS = ['updated_at', 'created_at', 'relevance'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SearchBody = Type.Object(
  {
    status: Type.Optional(Type.Array(ConversationStatus, { minItems: 1, maxItems: 4, description: 'Any of these statuses' })),
    assigned: Type.Optional(
      Nullable(
        Type.Array(Id, {
          minItems: 1,
          maxItems: 100,
          description: 'Assigned to any of these agents; `null`: assigned to nobody',
        }),
      ),
    ),
    group_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'Routed to this group; `null`: to none' }))),
    contact_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'With this contact' })),
    tags: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 100, description: 'Tagged with any of these tag ids' })),
    created_at: Type.Optional(TimeRange('creation time (`created_at`)')),
    updated_at: Type.Optional(TimeRange('last change (`updated_at`)')),
    unread: Type.Optional(
      Type.Boolean({ description: '`true`: only conversations with unread contact messages (`unread` > 0); `false`: only without' }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_QUERY_LENGTH,
        description:
          `Words to find in message text and the contact's name and e-mail (at most ${MAX_QUERY_LENGTH} characters), ` +
          'case and diacritics ignored, whole words; web-search syntax: `"a phrase"`, `or`, `-word` to exclude. ' +
          'Operators of tsquery (`&`, `|`, `!`, `:*`) are just punctuation',
      }),
    ),
    sort: Type.Optional(
      StringEnum(SEARCH_SORTS, {
        description: 'Newest first by `updated_at` (the default) or `created_at`; `relevance` (needs `query`): best match first',
      }),
    ),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (default 20)' })),
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'The `after` of the previous page, sent with the same filters, query and sort',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchBody = Static<typeof SearchBody>;

export const Snippet = Type.Object(
  {
    text: Type.String({ description: 'Plain text around the match from the best matching message (never HTML)' }),
    matches: Type.Array(
      Type.Array(Type.Integer({ minimum: 0 }), {
        minItems: 2,
        maxItems: 2,
        description: '[start, end): offsets in `text` in Unicode code points, end excluded',
      }),
      { description: 'The matched words, in order' },
    ),
  },
  { description: 'Where the query matched' },
);
export type Snippet = Static<typeof Snippet>;

export const SearchHit = Type.Object(
  {
    ...Conversation.properties,
    snippet: Type.Optional(
      Nullable({
        ...Snippet,
        description: "With a `query`: the best matching message around the match; null when only the contact's name or e-mail matched",
      }),
    ),
  },
  { title: 'conversation_search_hit' },
);
export type SearchHit = Static<typeof SearchHit>;

export const SearchPage = Type.Object(
  {
    items: Type.Array(SearchHit, { description: 'In the order asked for' }),
    after: Nullable(Type.String({ description: 'Pass as `after` (with the same body) for the next page; null on the last page' })),
  },
  { title: 'conversation_search_page' },
);
export type SearchPage = Static<typeof SearchPage>;

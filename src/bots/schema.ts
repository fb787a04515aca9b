import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';

export const TRIGGER_EVENTS = ['conversation_opened', 'page_visit', 'idle'] as const;

export const Bot = Type.Object(
  {
    id: Type.String({ description: '`bo` + 12 characters', examples: ['boX1mK0pQ7aZ2c'] }),
    name: Type.String({ description: 'Display name' }),
    created_at: Timestamp,
  },
  { title: 'bot' },
);
export type Bot = Static<typeof Bot>;

export const BotList = Type.Object({ bots: Type.Array(Bot, { description: "The account's bots, oldest first" }) }, { title: 'bot_list' });

/** Free-form matching rules of a trigger, kept as given. */
const Conditions = Type.Object(
  {},
  { additionalProperties: true, maxProperties: 50, description: 'Conditions the trigger matches on (free-form object)' },
);

export const BotTrigger = Type.Object(
  {
    bot_id: Type.String({ description: 'The bot this trigger belongs to' }),
    name: Type.String({ description: 'The bot name' }),
    active: Type.Boolean({ description: 'Whether the trigger fires' }),
    event: StringEnum(TRIGGER_EVENTS, { description: 'What fires the trigger' }),
    conditions: Conditions,
    content: Type.Object(
      {
        text: Nullable(Type.String({ description: 'Plain text of the message' })),
        html: Nullable(Type.String({ description: 'Sanitised HTML of the message (only `a` and `br`)' })),
      },
      { description: 'The message the trigger sends' },
    ),
    updated_at: { ...Timestamp, description: 'Last change of the trigger' },
  },
  { title: 'bot_trigger' },
);
export type BotTrigger = Static<typeof BotTrigger>;

const TriggerText = Nullable(Type.String({ maxLength: 4096, description: 'Plain text of the message the trigger sends' }));
const TriggerHtml = Nullable(
  Type.String({
    maxLength: 16384,
    description: 'Sanitised like message HTML: only `a` and `br` survive; `text` defaults to its plain text',
  }),
);

export const TriggerInput = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'Default true' })),
    event: Type.Optional(StringEnum(TRIGGER_EVENTS, { description: 'Default `conversation_opened`' })),
    conditions: Type.Optional(Conditions),
    // The message either flat (text, html) or as GET …/trigger returns it (content), so a trigger read can be sent back.
    content: Type.Optional(
      Type.Object(
        { text: Type.Optional(TriggerText), html: Type.Optional(TriggerHtml) },
        { additionalProperties: false, description: 'The message as `GET /v2/bots/{id}/trigger` returns it; not with `text` or `html`' },
      ),
    ),
    text: Type.Optional(TriggerText),
    html: Type.Optional(TriggerHtml),
  },
  { additionalProperties: false },
);

export const CreateBotBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Display name' }),
    trigger: Type.Optional({ ...TriggerInput, description: 'The bot’s one trigger; every field optional' }),
  },
  { additionalProperties: false },
);
export type CreateBotBody = Static<typeof CreateBotBody>;

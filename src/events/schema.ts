import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from './outbox.ts';

export const EventStreamQuery = Type.Object(
  {
    last_event_id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Resume after this event id (the Last-Event-ID header wins when both are sent); 0 replays the whole outbox',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: `Comma-separated event types to receive (default: all): ${EVENT_TYPES.join(', ')}`,
        examples: ['conversation.opened,conversation.closed'],
      }),
    ),
  },
  { additionalProperties: false },
);

const escaped = EVENT_TYPES.map((type) => type.replace(/\./g, '\\.')).join('|');

/** The query as documented: `types` names event types (checked by parseEventTypes, whose 422 names the unknown one). */
export const DocumentedEventStreamQuery = Type.Object(
  {
    ...EventStreamQuery.properties,
    types: Type.Optional(
      Type.String({
        ...EventStreamQuery.properties.types,
        pattern: `^\\s*(?:${escaped})\\s*(?:,\\s*(?:${escaped})\\s*)*$`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** Last-Event-ID, as an EventSource sends it when it reconnects; a malformed one is a 400 (streamStart). */
export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: '^\\s*[0-9]{1,15}\\s*$',
      description: 'Resume after this event id (an EventSource sends the last id it saw when it reconnects); wins over `last_event_id`',
    }),
  ),
});

/** The 200 answer is a stream, described for the OpenAPI document only. */
export const EventStream = Type.Unsafe<string>({
  description:
    'Server-Sent Events: per event an `id:` line (the event id), an `event:` line (its type) and a `data:` line ' +
    '(JSON `{id, event, timestamp, account_id, data}`); `: keep-alive` comments every 15 s.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});

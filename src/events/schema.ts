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

/** The 200 answer is a stream, described for the OpenAPI document only. */
export const EventStream = Type.Unsafe<string>({
  description:
    'Server-Sent Events: per event an `id:` line (the event id), an `event:` line (its type) and a `data:` line ' +
    '(JSON `{id, event, timestamp, account_id, data}`); `: keep-alive` comments every 15 s.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
});

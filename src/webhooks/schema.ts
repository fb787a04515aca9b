import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../http/schemas.ts';
import { EVENT_TYPES } from '../events/outbox.ts';

const EventTypes = Type.Array(Type.String({ enum: [...EVENT_TYPES] }), {
  minItems: 1,
  uniqueItems: true,
  description: 'Event types to send; null or absent: every type',
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'http:// or https:// URL receiving POSTs' }),
    events: Type.Optional(Nullable(EventTypes)),
    secret: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: 'HMAC key; generated when absent (and shown once)' })),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

/** The body as documented: the url's scheme, which the service checks itself (a 422 `format` on `url`). */
export const DocumentedCreateWebhookBody = Type.Object(
  {
    ...CreateWebhookBody.properties,
    url: Type.String({ ...CreateWebhookBody.properties.url, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' }),
  },
  { additionalProperties: false },
);

const webhookFields = {
  id: Type.String({ description: '`wh` + 12 characters', examples: ['whK3mS0q9ZbX1a'] }),
  url: Type.String({ description: 'Where the events are POSTed' }),
  events: Nullable(EventTypes),
  created_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { title: 'webhook' });
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Object(
  { ...webhookFields, secret: Type.String({ description: 'Shown here only: verify X-Chat-Service-Hmac with it' }) },
  { title: 'created_webhook' },
);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookList = Type.Object(
  { webhooks: Type.Array(Webhook, { description: "The account's webhooks, oldest first; secrets are never listed" }) },
  { title: 'webhook_list' },
);

export const DeliveryAttempt = Type.Object(
  {
    event_id: Type.Integer({ description: 'The delivered event (its `id` in the envelope)' }),
    event: Type.String({ description: 'The event type' }),
    attempt: Type.Integer({ description: '1 for the first try of this event, 2 for its first retry, ...' }),
    status_code: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when none came" })),
    error: Nullable(Type.String({ description: 'Why no status came (refused, timed out, ...)' })),
    duration: Type.Number({ description: 'Seconds from sending to the response status (or the failure)' }),
    attempted_at: Timestamp,
    next_attempt_at: Nullable(Timestamp),
  },
  { title: 'webhook_delivery_attempt' },
);
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

export const DeliveryAttemptList = Type.Object(
  { deliveries: Type.Array(DeliveryAttempt, { description: 'The 100 most recent attempts, newest first (kept 7 days)' }) },
  { title: 'webhook_delivery_attempt_list' },
);

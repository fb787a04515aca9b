import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';
import { DELIVERY_ERRORS } from './sender.ts';
import { EVENT_TYPES } from '../events/outbox.ts';

const EventTypes = Type.Array(Type.String({ enum: [...EVENT_TYPES] }), {
  minItems: 1,
  uniqueItems: true,
  description: 'Event types to send; null or absent: every type',
});

const WebhookSecret = Type.String({
  minLength: 16,
  maxLength: 256,
  description:
    'Signing secret; generated when absent (`whsec_` + base64 of 32 random bytes, shown once). Give one of that form ' +
    '(24 to 64 bytes) for the Standard Webhooks libraries to take as it is; any other is their "raw" key',
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'http:// or https:// URL receiving POSTs' }),
    events: Type.Optional(Nullable(EventTypes)),
    secret: Type.Optional(WebhookSecret),
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

const ShownSecret = Type.String({
  description: 'Shown here only: verify webhook-signature (Standard Webhooks) or the legacy X-Chat-Service-Hmac with it',
});

export const CreatedWebhook = Type.Object({ ...webhookFields, secret: ShownSecret }, { title: 'created_webhook' });
export type CreatedWebhook = Static<typeof CreatedWebhook>;

/** One day: time to deploy the new secret to every receiver. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;

export const RotateWebhookSecretBody = Type.Object(
  {
    secret: Type.Optional(WebhookSecret),
    overlap_seconds: Type.Integer({
      minimum: 0,
      maximum: 7 * 86_400,
      default: DEFAULT_ROTATION_OVERLAP_SECONDS,
      description:
        'How long the replaced secret keeps signing deliveries beside the new one (0: not at all; at most 7 days). ' +
        'X-Chat-Service-Hmac is signed with the new secret at once',
    }),
  },
  { additionalProperties: false },
);
export type RotateWebhookSecretBody = Static<typeof RotateWebhookSecretBody>;

export const RotatedWebhookSecret = Type.Object(
  {
    ...webhookFields,
    secret: ShownSecret,
    previous_secret_expires_at: Nullable({
      ...Timestamp,
      description: 'Until when the replaced secret signs too (webhook-signature carries both); null with overlap_seconds 0',
    }),
  },
  { title: 'rotated_webhook_secret' },
);
export type RotatedWebhookSecret = Static<typeof RotatedWebhookSecret>;

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
    error: Nullable(
      StringEnum(DELIVERY_ERRORS, {
        description:
          'Why the attempt failed, null when a 2xx came: timeout, refused_address (the host does not resolve or resolves to a non-public address), connection_refused, connection_reset, network_unreachable, tls, protocol (not HTTP), http_status (a status other than 2xx), other',
      }),
    ),
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

import type { AttemptRow, WebhookRow } from './repository.ts';
import type { DeliveryAttempt, Webhook } from './schema.ts';

export function toWebhook(row: WebhookRow): Webhook {
  return { id: row.id, url: row.url, events: row.event_types, created_at: row.created_at.toISOString() };
}

export function toDeliveryAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    event_id: row.event_id,
    event: row.event_type,
    attempt: row.attempt,
    status_code: row.status_code,
    error: row.error,
    duration: row.duration_ms / 1000,
    attempted_at: row.attempted_at.toISOString(),
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  };
}

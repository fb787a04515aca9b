-- Webhook secret rotation (issue 20 §3, docs/api.md#webhooks): after POST /v2/webhooks/{id}/secret/rotate the
-- replaced secret keeps signing deliveries beside the new one (two `v1,` signatures in webhook-signature) until
-- previous_secret_expires_at, so a receiver can switch secrets without refusing a delivery.
alter table webhooks add column previous_secret text;
alter table webhooks add column previous_secret_expires_at timestamptz;

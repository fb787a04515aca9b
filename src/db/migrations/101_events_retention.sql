-- Event retention (src/events/retention.ts): events older than
-- EVENT_RETENTION_DAYS are deleted unless a webhook still has to deliver them.

-- The retention pass finds old events by age.
create index events_created_at on events (created_at);

-- "Does a webhook still have to deliver this event?" by (account, event), whatever the webhook.
create index webhook_deliveries_event on webhook_deliveries (account_id, event_id);

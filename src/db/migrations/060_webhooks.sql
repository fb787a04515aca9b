-- Webhooks (docs/behaviour.md §8): each receives the account's outbox events, signed,
-- retried for 24 hours, in order per conversation. See src/webhooks/delivery.ts.

create table webhooks (
  account_id text not null references accounts (account_id),
  id text not null,
  url text not null,
  -- Event types sent; null sends every type, including types added later.
  event_types text[],
  -- Key of the HMAC-SHA256 signature of every delivery; shown once, at creation.
  secret text not null,
  -- Outbox cursor: every event up to this id is queued below (or filtered out).
  -- Starts at the account's last event, so a new webhook gets only later events.
  queued_through_event_id bigint not null,
  created_at timestamptz not null default now(),
  primary key (account_id, id)
);

-- Deliveries not yet made. A row leaves when its event is delivered or given up.
create table webhook_deliveries (
  account_id text not null,
  webhook_id text not null,
  event_id bigint not null,
  -- Deliveries of one lane go out one at a time, in event order: the event's
  -- conversation, or '' for account-level events (contact.created, agent.updated).
  lane text not null,
  -- When the lane's first delivery is tried next; null while an earlier
  -- delivery of the same lane is still pending.
  next_attempt_at timestamptz,
  -- Set while an instance is sending it: nobody else claims it before then,
  -- and a crashed instance's claim expires on its own.
  leased_until timestamptz,
  -- Attempts started; also the fencing token of the current claim.
  attempts integer not null default 0,
  -- Retries stop 24 hours after this.
  queued_at timestamptz not null,
  primary key (account_id, webhook_id, event_id),
  foreign key (account_id, webhook_id) references webhooks (account_id, id) on delete cascade
);
create index webhook_deliveries_lane on webhook_deliveries (account_id, webhook_id, lane, event_id);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where next_attempt_at is not null;
create index webhook_deliveries_leased on webhook_deliveries (account_id, webhook_id) where leased_until is not null;

-- One row per HTTP attempt, for GET /v2/webhooks/{id}/deliveries; pruned after a week.
create table webhook_attempts (
  account_id text not null,
  webhook_id text not null,
  seq bigint generated always as identity,
  event_id bigint not null,
  event_type text not null,
  attempt integer not null,
  status_code integer,
  error text,
  duration_ms integer not null,
  attempted_at timestamptz not null,
  -- When the event is tried again; null once delivered or given up.
  next_attempt_at timestamptz,
  primary key (account_id, webhook_id, seq),
  foreign key (account_id, webhook_id) references webhooks (account_id, id) on delete cascade
);
create index webhook_attempts_age on webhook_attempts (attempted_at);

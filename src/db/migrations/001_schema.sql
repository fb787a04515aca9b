-- The whole data model. Every table carries account_id and leads its primary key
-- and indexes with it, so every query can filter by tenant and the schema can be
-- distributed by account later.

create table accounts (
  account_id text primary key,
  name text not null,
  timezone text not null default 'UTC',
  -- sha256 of the legacy statistics apiKey; the key itself is shown once.
  api_key_hash text not null unique,
  -- Last event id handed out; incremented under a row lock so event ids are
  -- gap-free and commit in order per account (see src/events/outbox.ts).
  last_event_id bigint not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table api_tokens (
  account_id text not null references accounts (account_id),
  id text not null,
  name text not null,
  scopes text[] not null,
  -- sha256 of the bearer token; unique across accounts because it identifies the account.
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  primary key (account_id, id)
);

-- Agent ids are numeric strings (docs/behaviour.md §1), unique across accounts.
create sequence agent_number_seq start 100001;

create table agents (
  account_id text not null references accounts (account_id),
  id text not null default nextval('agent_number_seq')::text,
  email text not null,
  full_name text,
  nickname text,
  role text not null default 'agent' check (role in ('agent', 'admin', 'owner')),
  status text not null default 'offline' check (status in ('online', 'offline')),
  last_ping_at timestamptz,
  created_at timestamptz not null default now(),
  -- Deleted agents keep their rows: their messages and statistics still name them.
  deleted_at timestamptz,
  primary key (account_id, id)
);
create unique index agents_email on agents (account_id, lower(email)) where deleted_at is null;

create table groups (
  account_id text not null references accounts (account_id),
  id text not null,
  name text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, id)
);

create table agent_groups (
  account_id text not null,
  agent_id text not null,
  group_id text not null,
  primary key (account_id, agent_id, group_id),
  foreign key (account_id, agent_id) references agents (account_id, id),
  foreign key (account_id, group_id) references groups (account_id, id)
);
create index agent_groups_group on agent_groups (account_id, group_id);

create table tags (
  account_id text not null references accounts (account_id),
  id text not null,
  name text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, id)
);

create table bots (
  account_id text not null references accounts (account_id),
  id text not null,
  name text not null,
  trigger_active boolean not null default true,
  trigger_event text not null default 'conversation_opened'
    check (trigger_event in ('conversation_opened', 'page_visit', 'idle')),
  trigger_conditions jsonb not null default '{}',
  trigger_text text,
  trigger_html text,
  trigger_updated_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  primary key (account_id, id)
);

create table contacts (
  account_id text not null references accounts (account_id),
  id text not null,
  email text,
  identity_id text,
  name text,
  phone text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (account_id, id)
);
create unique index contacts_identity on contacts (account_id, identity_id) where identity_id is not null;
create index contacts_email on contacts (account_id, lower(email), updated_at desc) where email is not null;

create table conversations (
  account_id text not null references accounts (account_id),
  id text not null,
  ext_id text,
  status text not null check (status in ('pending', 'open', 'served', 'closed')),
  contact_id text not null,
  group_id text,
  domain text,
  assigned_ids text[] not null default '{}',
  agent_ids text[] not null default '{}',
  tags text[] not null default '{}',
  variables jsonb not null default '{}',
  rating_value integer check (rating_value in (1, 3, 5)),
  rating_text text,
  rated_at timestamptz,
  is_offline boolean not null default false,
  is_served boolean not null default false,
  unread integer not null default 0,
  last_message_text text,
  last_message_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  close_type text check (close_type in ('agent', 'contact', 'inactivity')),
  primary key (account_id, id),
  foreign key (account_id, contact_id) references contacts (account_id, id)
);
create unique index conversations_ext_id on conversations (account_id, ext_id) where ext_id is not null;
create index conversations_created on conversations (account_id, created_at);
create index conversations_finished on conversations (account_id, finished_at) where finished_at is not null;
create index conversations_idle on conversations (last_message_at) where status <> 'closed';

create table messages (
  account_id text not null,
  id text not null,
  conversation_id text not null,
  -- Tie-breaker for messages with the same created_at: insertion order.
  seq bigint generated always as identity,
  type text not null check (type in ('message', 'note', 'event')),
  sub_type text not null check (sub_type in ('contact', 'agent', 'bot', 'trigger', 'system')),
  agent_id text,
  trigger_id text,
  content jsonb not null,
  text text,
  html text,
  attachments jsonb not null default '[]',
  is_reply boolean not null default false,
  is_first_reply boolean not null default false,
  is_offline boolean not null default false,
  is_offline_reply boolean not null default false,
  response_time double precision,
  -- The conversation's group when the message was stored, for statistics filters.
  group_id text,
  created_at timestamptz not null,
  primary key (account_id, id),
  foreign key (account_id, conversation_id) references conversations (account_id, id)
);
create index messages_conversation on messages (account_id, conversation_id, created_at, seq);
create index messages_created on messages (account_id, created_at);

create table paths (
  account_id text not null,
  conversation_id text not null,
  seq bigint generated always as identity,
  url text not null,
  title text,
  created_at timestamptz not null default now(),
  primary key (account_id, conversation_id, seq),
  foreign key (account_id, conversation_id) references conversations (account_id, id)
);

create table uploads (
  account_id text not null references accounts (account_id),
  id text not null,
  -- sha256 of the upload token handed to the client.
  token_hash text not null,
  file_name text not null,
  file_type text not null,
  size integer not null,
  data bytea not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (account_id, id)
);
create unique index uploads_token on uploads (account_id, token_hash);

-- Durable outbox of events (docs/behaviour.md §8), written in the transaction of the change.
create table events (
  account_id text not null references accounts (account_id),
  id bigint not null,
  type text not null,
  conversation_id text,
  data jsonb not null,
  created_at timestamptz not null default now(),
  primary key (account_id, id)
);

-- Visitors (issue 25, docs/widget.md): an account's public widget key, the origins its widget may run on, the secret
-- of signed identities and whether it requires one; a visitor's session (its token stored as a hash only) and the
-- conversations it started by a client-generated id (a double click starts one).
alter table accounts
  add column widget_key text,
  add column widget_origins text[] not null default '{}',
  add column widget_identity_secret text,
  add column widget_identity_required boolean not null default false;
-- Existing accounts get a key here; new ones get theirs from the service (src/accounts/service.ts). The key is
-- public (it sits in the host page), so md5 of random is enough: it must only be unguessable enough not to collide.
update accounts set widget_key = 'wk_' || substr(md5(random()::text || account_id || clock_timestamp()::text), 1, 24);
alter table accounts alter column widget_key set not null;
-- accounts' primary key is account_id: the key needs only its index (the lookup names no account, as the apiKey's).
create index accounts_widget_key on accounts (widget_key);
-- The preflight asks whether any account allows an origin (src/visitors/cors.ts).
create index accounts_widget_origins on accounts using gin (widget_origins);

create table widget_sessions (
  account_id text not null references accounts (account_id),
  id text not null,
  contact_id text not null,
  token_hash text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (account_id, id),
  foreign key (account_id, contact_id) references contacts (account_id, id)
);
create unique index widget_sessions_account_token_hash on widget_sessions (account_id, token_hash);
-- A visitor's request names no account: the lookup by hash alone, as api_tokens' (migration 200).
create index widget_sessions_token_hash on widget_sessions (token_hash);
create index widget_sessions_contact on widget_sessions (account_id, contact_id);

create table widget_starts (
  account_id text not null references accounts (account_id),
  contact_id text not null,
  client_id text not null,
  conversation_id text,
  created_at timestamptz not null,
  primary key (account_id, contact_id, client_id),
  foreign key (account_id, contact_id) references contacts (account_id, id)
);

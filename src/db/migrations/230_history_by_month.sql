-- History by month (issue 21 §3, docs/operations.md "Partitions"): messages, paths, the event outbox and the webhook
-- delivery queue become PostgreSQL declarative partitioned tables, one partition per calendar month (UTC) of their
-- time column, plus a default partition that takes any row whose month has no partition yet, so a write never fails.
-- Retention then drops whole months (src/db/partitions.ts) instead of deleting rows.
--
-- Keys (docs/scaling.md "History by month"):
--   messages, paths  created_at: statistics, search and the conversation's history read time ranges; old months
--                    are what message retention drops.
--   events           created_at: retention is by age. The Last-Event-ID resume (account_id, id > $2 order by id)
--                    reads each partition's primary key (account_id, id, created_at) in a merge of a handful of
--                    short index scans: the months kept (EVENT_RETENTION_DAYS) plus the few created ahead.
--   webhook_deliveries queued_at: queue rows live a day or so; an emptied month is dropped whole, which also sheds
--                    the dead rows and index bloat a queue table accumulates. Every queue statement reads by account,
--                    webhook and event (or by due time) through the partitions' own indexes.
--
-- A primary key must include the partition key, so each gains its time column. What it then no longer enforces
-- across months: a message's id and an event's id per account (messages have no ext_id; conversations, which keep
-- theirs unique, are not partitioned). Both are made in one place only, in the statement that inserts them (a
-- message id is 72 random bits from src/ids.ts, an event id is the column default next_event_id(), migration 156):
-- no API accepts one; src/events/fanout.test.ts fails when a writer names an event id, and src/db/partitions.test.ts
-- checks that a repeated message id is refused within a month.

-- Creates the partition of `parent` for the UTC month holding `month`, unless it exists; rows of that month in the
-- default partition move into it first (PostgreSQL refuses a partition whose rows sit in the default one). Returns
-- whether it created one. The one definition of a month partition: this migration and the service's partition job
-- (src/db/partitions.ts) call it. Callers hold the partition lock (an advisory transaction lock).
create function chat_month_partition(parent text, month timestamptz) returns boolean
language plpgsql as $$
declare
  low timestamp := date_trunc('month', month at time zone 'UTC');
  partition_name text := parent || '_p' || to_char(low, 'YYYYMM');
  key_column text;
  column_list text;
  bounds text;
begin
  if to_regclass(partition_name) is not null then
    return false;
  end if;
  select a.attname into key_column
  from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
  where p.partrelid = parent::regclass;
  select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into column_list
  from pg_attribute a where a.attrelid = parent::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = '';
  bounds := format('%I >= %L and %I < %L', key_column, low at time zone 'UTC', key_column, (low + interval '1 month') at time zone 'UTC');
  execute format('create temporary table chat_month_rows as select %s from %I where %s', column_list, parent || '_default', bounds);
  execute format('delete from %I where %s', parent || '_default', bounds);
  execute format('create table %I partition of %I for values from (%L) to (%L)', partition_name, parent,
                 low at time zone 'UTC', (low + interval '1 month') at time zone 'UTC');
  execute format('insert into %I (%s) overriding system value select %s from chat_month_rows', parent, column_list, column_list);
  drop table chat_month_rows;
  return true;
end $$;

-- The old tables step aside under another name (their sequences, indexes and constraints too, whose names the new
-- ones take).
alter table messages rename to messages_before_230;
alter sequence messages_seq_seq rename to messages_before_230_seq;
alter index messages_pkey rename to messages_before_230_pkey;
alter index messages_attachments rename to messages_before_230_attachments;
alter index messages_conversation rename to messages_before_230_conversation;
alter index messages_created rename to messages_before_230_created;
alter index messages_first_replies rename to messages_before_230_first_replies;
alter index messages_replies rename to messages_before_230_replies;
alter index messages_text_search rename to messages_before_230_text_search;
alter table messages_before_230 rename constraint messages_type_check to messages_before_230_type_check;
alter table messages_before_230 rename constraint messages_sub_type_check to messages_before_230_sub_type_check;
alter table messages_before_230 rename constraint messages_account_id_conversation_id_fkey to messages_before_230_fkey;
alter table paths rename to paths_before_230;
alter sequence paths_seq_seq rename to paths_before_230_seq;
alter index paths_pkey rename to paths_before_230_pkey;
alter table paths_before_230 rename constraint paths_account_id_conversation_id_fkey to paths_before_230_fkey;
alter table events rename to events_before_230;
-- The event ids' sequence outlives the old table (src/events/outbox.ts, src/events/horizon.ts read it by name).
alter sequence events_id_seq owned by none;
alter index events_pkey rename to events_before_230_pkey;
alter index events_conversation rename to events_before_230_conversation;
alter index events_created_at rename to events_before_230_created_at;
alter index events_id rename to events_before_230_id;
alter table events_before_230 rename constraint events_account_id_fkey to events_before_230_fkey;
alter table webhook_deliveries rename to webhook_deliveries_before_230;
alter index webhook_deliveries_pkey rename to webhook_deliveries_before_230_pkey;
alter index webhook_deliveries_due rename to webhook_deliveries_before_230_due;
alter index webhook_deliveries_event rename to webhook_deliveries_before_230_event;
alter index webhook_deliveries_lane rename to webhook_deliveries_before_230_lane;
alter index webhook_deliveries_leased rename to webhook_deliveries_before_230_leased;
alter table webhook_deliveries_before_230 rename constraint webhook_deliveries_account_id_webhook_id_fkey
  to webhook_deliveries_before_230_fkey;

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
  -- Search (migration 220).
  text_search tsvector generated always as (to_tsvector('chat_search'::regconfig, left(coalesce(text, ''), 100000))) stored,
  primary key (account_id, id, created_at),
  foreign key (account_id, conversation_id) references conversations (account_id, id)
) partition by range (created_at);

create table paths (
  account_id text not null,
  conversation_id text not null,
  seq bigint generated always as identity,
  url text not null,
  title text,
  created_at timestamptz not null,
  primary key (account_id, conversation_id, seq, created_at),
  foreign key (account_id, conversation_id) references conversations (account_id, id)
) partition by range (created_at);

-- Durable outbox of events (docs/behaviour.md §8), written in the transaction of the change.
create table events (
  account_id text not null references accounts (account_id),
  -- Taken by next_event_id() (migration 156): the transaction id first, then events_id_seq.
  id bigint not null default next_event_id(),
  type text not null,
  conversation_id text,
  data jsonb not null,
  created_at timestamptz not null,
  primary key (account_id, id, created_at)
) partition by range (created_at);
alter sequence events_id_seq owned by events.id;

-- Deliveries not yet made (migration 060 describes the columns). A row leaves when its event is delivered or given up.
create table webhook_deliveries (
  account_id text not null,
  webhook_id text not null,
  event_id bigint not null,
  lane text not null,
  next_attempt_at timestamptz,
  leased_until timestamptz,
  attempts integer not null default 0,
  queued_at timestamptz not null,
  primary key (account_id, webhook_id, event_id, queued_at),
  foreign key (account_id, webhook_id) references webhooks (account_id, id) on delete cascade
) partition by range (queued_at);

create table messages_default partition of messages default;
create table paths_default partition of paths default;
create table events_default partition of events default;
create table webhook_deliveries_default partition of webhook_deliveries default;

-- A partition for every month from the oldest stored row through three months ahead (what the partition job keeps
-- ahead, src/db/partitions.ts), so the rows below go straight to their months.
do $$
declare
  source record;
  month timestamp;
  last_month timestamp := date_trunc('month', now() at time zone 'UTC') + interval '3 months';
begin
  for source in select * from (values ('messages', 'created_at'), ('paths', 'created_at'), ('events', 'created_at'),
                                      ('webhook_deliveries', 'queued_at')) as s (parent, key_column) loop
    execute format('select date_trunc(''month'', least(min(%I), now()) at time zone ''UTC'') from %I',
                   source.key_column, source.parent || '_before_230') into month;
    while month <= last_month loop
      perform chat_month_partition(source.parent, month at time zone 'UTC');
      month := month + interval '1 month';
    end loop;
  end loop;
end $$;

insert into messages (account_id, id, conversation_id, seq, type, sub_type, agent_id, trigger_id, content, text, html,
                      attachments, is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at)
overriding system value
select account_id, id, conversation_id, seq, type, sub_type, agent_id, trigger_id, content, text, html,
       attachments, is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at
from messages_before_230;
select setval(pg_get_serial_sequence('messages', 'seq'), coalesce((select max(seq) from messages_before_230), 0) + 1, false);

insert into paths (account_id, conversation_id, seq, url, title, created_at) overriding system value
select account_id, conversation_id, seq, url, title, created_at from paths_before_230;
select setval(pg_get_serial_sequence('paths', 'seq'), coalesce((select max(seq) from paths_before_230), 0) + 1, false);

insert into events (account_id, id, type, conversation_id, data, created_at)
select account_id, id, type, conversation_id, data, created_at from events_before_230;

insert into webhook_deliveries (account_id, webhook_id, event_id, lane, next_attempt_at, leased_until, attempts, queued_at)
select account_id, webhook_id, event_id, lane, next_attempt_at, leased_until, attempts, queued_at
from webhook_deliveries_before_230;

drop table messages_before_230;
drop table paths_before_230;
drop table events_before_230;
drop table webhook_deliveries_before_230;

-- The indexes of before, on the partitioned tables (each partition gets its own).
create index messages_conversation on messages (account_id, conversation_id, created_at, seq);
create index messages_created on messages (account_id, created_at);
create index messages_replies on messages (account_id, created_at)
  include (response_time, agent_id, group_id) where is_reply;
create index messages_first_replies on messages (account_id, created_at)
  include (response_time, agent_id, group_id) where is_first_reply;
create index messages_text_search on messages using gin (text_search);
create index messages_attachments on messages using gin (attachments jsonb_path_ops) where attachments <> '[]'::jsonb;

create index events_created_at on events (created_at);
create index events_id on events (id);
create index events_conversation on events (account_id, conversation_id) where conversation_id is not null;

create index webhook_deliveries_lane on webhook_deliveries (account_id, webhook_id, lane, event_id);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where next_attempt_at is not null;
create index webhook_deliveries_leased on webhook_deliveries (account_id, webhook_id) where leased_until is not null;
create index webhook_deliveries_event on webhook_deliveries (account_id, event_id);

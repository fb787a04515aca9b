-- POST /statistics (docs/behaviour.md §6) reads, per account and time range, only the
-- replies (response_time) or only the first replies (first_response_time).
-- Partial indexes holding just those messages, and covering what the endpoint
-- reads of them (time, value and the fields dashboards group by), let it scan
-- a month of replies as an index-only range instead of visiting every message
-- of the month in the table.
create index messages_replies on messages (account_id, created_at)
  include (response_time, agent_id, group_id) where is_reply;
create index messages_first_replies on messages (account_id, created_at)
  include (response_time, agent_id, group_id) where is_first_reply;

-- conversation_ratings counts conversations by rated_at.
create index conversations_rated on conversations (account_id, rated_at) where rated_at is not null;

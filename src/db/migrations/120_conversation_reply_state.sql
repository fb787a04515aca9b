-- The reply state of a conversation (src/conversations/flags.ts), kept on its row so storing a message reads it with
-- the row lock instead of a query over the conversation's messages. `unread` already counts the unanswered messages.
alter table conversations
  add column unanswered_since timestamptz,
  add column unanswered_offline boolean not null default false,
  add column has_reply boolean not null default false,
  add column has_contact_message boolean not null default false,
  add column latest_message_at timestamptz;

with last_agent as (
  select distinct on (account_id, conversation_id) account_id, conversation_id, created_at, seq
  from messages where type = 'message' and sub_type = 'agent'
  order by account_id, conversation_id, created_at desc, seq desc
),
unanswered as (
  select m.account_id, m.conversation_id, min(m.created_at) as since, bool_or(m.is_offline) as offline
  from messages m left join last_agent l on l.account_id = m.account_id and l.conversation_id = m.conversation_id
  where m.type = 'message' and m.sub_type = 'contact' and (l.seq is null or (m.created_at, m.seq) > (l.created_at, l.seq))
  group by m.account_id, m.conversation_id
),
facts as (
  select account_id, conversation_id, bool_or(is_reply) as has_reply,
         bool_or(type = 'message' and sub_type = 'contact') as has_contact_message, max(created_at) as latest_message_at
  from messages group by account_id, conversation_id
)
update conversations c
set unanswered_since = u.since,
    unanswered_offline = coalesce(u.offline, false),
    has_reply = f.has_reply,
    has_contact_message = f.has_contact_message,
    latest_message_at = f.latest_message_at
from facts f left join unanswered u on u.account_id = f.account_id and u.conversation_id = f.conversation_id
where c.account_id = f.account_id and c.id = f.conversation_id;

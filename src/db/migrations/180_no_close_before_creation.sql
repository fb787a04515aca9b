-- Issue 18.4: a message imported into a new pending conversation could be older than the conversation, and the
-- inactivity close then set finished_at (last message + timeout) before created_at: negative durations in
-- statistics. New writes can no longer do this (src/conversations/service.ts, repository.ts); conversations
-- stored that way close at their creation, so no stored duration is negative.
update conversations set finished_at = created_at where finished_at < created_at;

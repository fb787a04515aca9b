-- Erasing a person (DELETE /v2/contacts/{id}, docs/behaviour.md §4 "Erasure"). The contact is first marked
-- erasing_at in one transaction: from then on it is gone from every read and no conversation can be started with
-- it; its conversations, messages, paths, uploads and events are then deleted in batches of their own transactions,
-- and the contact row last. A failure part-way leaves the mark, and a retry (or the erasure job) finishes the job.
alter table contacts add column erasing_at timestamptz;
create index contacts_erasing on contacts (account_id, id) where erasing_at is not null;

-- An erased conversation's events (and through them its pending webhook deliveries), found per batch.
create index events_conversation on events (account_id, conversation_id) where conversation_id is not null;

-- Which messages name an upload: an upload attached in an erased conversation is deleted unless a message of
-- another contact's conversation attaches it too (upload tokens are reusable for 24 hours). Only messages with
-- attachments are indexed.
create index messages_attachments on messages using gin (attachments jsonb_path_ops) where attachments <> '[]'::jsonb;

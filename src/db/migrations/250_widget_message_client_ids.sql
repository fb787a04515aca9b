-- A visitor's message takes a client-generated id too, as a conversation's start does (docs/widget.md): a message
-- sent again after a lost answer is stored once. widget_starts becomes widget_writes, one row per client id a
-- visitor's write claimed within its scope: '' for a conversation's start, the conversation's id for a message in
-- it, so the same id on another conversation (or by another visitor) is another write. result_id is what the write
-- stored (the conversation, the message), null while the first request runs.
alter table widget_starts rename to widget_writes;
alter table widget_writes rename column conversation_id to result_id;
alter table widget_writes add column scope text not null default '';
alter table widget_writes alter column scope drop default;
alter table widget_writes drop constraint widget_starts_pkey;
alter table widget_writes add primary key (account_id, contact_id, scope, client_id);

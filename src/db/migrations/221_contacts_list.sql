-- GET /v2/contacts (docs/behaviour.md §4): newest first, `q` a prefix of a word of the name or of the e-mail,
-- case and diacritics ignored (chat_fold, migration 220).
-- name_key: the folded name as words (punctuation and spaces become one space) after a leading space, so a word
-- prefix is `like '% ' || q || '%'`; email_key: the folded address, a prefix is `like q || '%'`. Trigram GIN
-- indexes serve both patterns from three characters on; the list itself reads contacts_created.
alter table contacts
  add column name_key text generated always as (' ' || regexp_replace(chat_fold(coalesce(name, '')), '[[:space:][:punct:]]+', ' ', 'g')) stored,
  add column email_key text generated always as (chat_fold(coalesce(email, ''))) stored;
create index contacts_name_key on contacts using gin (name_key gin_trgm_ops);
create index contacts_email_key on contacts using gin (email_key gin_trgm_ops);
create index contacts_created on contacts (account_id, created_at, id);

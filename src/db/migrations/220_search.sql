-- Search (POST /v2/conversations/search, docs/behaviour.md §5 "Search"): full text over message text and the
-- contact's name and e-mail, with PostgreSQL's own text search on both engines.
--
-- Text search configuration `chat_search`: a copy of `simple` (no stemming, no stop words: the seed's users write
-- Czech, for which PostgreSQL 15 has no stemmer, and any language must match word for word) whose word tokens go
-- through the `unaccent` dictionary first, so `prilis` finds `příliš` and case never matters.
-- PGlite loads unaccent and pg_trgm in src/db/pglite-worker.mjs; on PostgreSQL they come with contrib (both are
-- trusted extensions: a database owner may create them).
create extension if not exists unaccent;
create extension if not exists pg_trgm;

create text search configuration chat_search (copy = simple);
alter text search configuration chat_search
  alter mapping for asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart,
    email, url, host, url_path, file
  with unaccent, simple;

-- Lower case without diacritics, as an immutable function (unaccent() alone is only stable: it looks its dictionary
-- up by name), for generated columns and indexes: the contacts list's prefix match (migration 221).
create function chat_fold(value text) returns text language sql immutable strict parallel safe
  as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;

-- The words of a message, computed once when it is stored (the insert statement needs no change: a generated
-- column), read by the GIN index and by ranking without recomputation at search time. Only the first 100,000
-- characters count: a tsvector holds at most 1 MB, which a megabyte of distinct words would exceed and fail the insert.
alter table messages
  add column text_search tsvector generated always as (to_tsvector('chat_search'::regconfig, left(coalesce(text, ''), 100000))) stored;
create index messages_text_search on messages using gin (text_search);

-- The contact's name and e-mail, the address also split at its punctuation so `novak` finds jan.novak@example.com.
alter table contacts
  add column text_search tsvector generated always as (
    to_tsvector('chat_search'::regconfig,
      coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || translate(coalesce(email, ''), '@.-_+', '     '))
  ) stored;
create index contacts_text_search on contacts using gin (text_search);

-- The search's default order (newest change first, keyset on (updated_at, id)), and a contact's conversations
-- (the contact_id filter, erasure, export).
create index conversations_updated on conversations (account_id, updated_at, id);
create index conversations_contact on conversations (account_id, contact_id, id);

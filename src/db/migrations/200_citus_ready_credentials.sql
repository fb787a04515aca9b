-- Citus-ready (docs/scaling.md, src/db/citus-ready.test.ts): every unique index of a tenant table includes
-- account_id, since Citus enforces uniqueness within a shard only and refuses to distribute a table whose unique
-- index leaves the distribution column out. The token and apiKey hashes were unique across all accounts.
--
-- Decision: account-qualified uniqueness, not a reference table. A hash is SHA-256 of a secret of 240 random bits
-- (tokens) or 192 (apiKeys): two equal hashes do not happen, so global uniqueness guarded nothing the secret's
-- randomness does not. The lookup by hash alone (authentication: the caller names no account) keeps a plain index;
-- on Citus it is the one statement every request makes across shards (an index probe per shard, cached a second
-- per instance, src/auth/), and docs/scaling.md says when it should become a lookup in a reference table.
alter table api_tokens drop constraint api_tokens_token_hash_key;
create unique index api_tokens_account_token_hash on api_tokens (account_id, token_hash);
create index api_tokens_token_hash on api_tokens (token_hash);

-- accounts' primary key is account_id: any unique key including it is unique already; the hash needs only its index.
alter table accounts drop constraint accounts_api_key_hash_key;
create index accounts_api_key_hash on accounts (api_key_hash);

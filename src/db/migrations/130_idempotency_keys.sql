-- Idempotency keys (src/idempotency/, docs/behaviour.md §11): the first answer to
-- a POST sent with an Idempotency-Key header, per account, kept 24 hours so a
-- retry gets it again on any instance and after a restart.
create table idempotency_keys (
  account_id text not null references accounts (account_id),
  -- Not the client's Idempotency-Key but an HMAC of it (and the account) under IDEMPOTENCY_SECRET, in hex
  -- (keysOf in src/idempotency/service.ts). The key itself is never stored: with the secret it decrypts response_body.
  key text not null,
  -- sha256 of the token id, method, path with query, and the canonical body (requestHash in
  -- src/idempotency/service.ts): another body, or another token, under one key is refused.
  request_hash text not null,
  -- Set while the first request runs (the lock); a crashed instance's lock is taken over after locked_until.
  lock_id text,
  locked_until timestamptz,
  -- The stored answer; null while the request runs. response_body is encrypted (AES-256-GCM) with a key
  -- derived from the client's Idempotency-Key and IDEMPOTENCY_SECRET (docs/behaviour.md §11).
  status integer,
  content_type text,
  response_body text,
  created_at timestamptz not null,
  primary key (account_id, key)
);

-- The retention pass finds expired keys by age.
create index idempotency_keys_created_at on idempotency_keys (created_at);

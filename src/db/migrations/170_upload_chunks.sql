-- Uploads streamed to storage (issue 18.13, src/uploads/storage.ts): a file's bytes arrive in rows of
-- upload_chunks (at most UPLOAD_CHUNK_BYTES each, in order of seq) as the body is read, so no request holds a
-- whole file in memory. Files stored before this migration keep their bytes in uploads.data; new ones leave it null.
alter table uploads alter column data drop not null;

-- An upload is written first as incomplete (complete = false, its expires_at the end of the request at the latest),
-- then completed in one transaction with the per-account quota check. An incomplete upload is invisible to every
-- reader and counts for no quota; a refused or broken one is deleted at once, and one left behind by a crash is
-- deleted by the retention pass when its expires_at passes.
alter table uploads add column complete boolean not null default true;

create table upload_chunks (
  account_id text not null,
  upload_id text not null,
  seq integer not null,
  data bytea not null,
  primary key (account_id, upload_id, seq),
  foreign key (account_id, upload_id) references uploads (account_id, id) on delete cascade
);
-- Files are mostly compressed already (images, pdf, archives): do not spend CPU trying again.
alter table upload_chunks alter column data set storage external;

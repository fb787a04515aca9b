-- Upload retention (src/uploads/retention.ts): an upload is kept for good once a
-- stored message references it; one never attached is deleted after its token
-- expires (it can never be attached then). resolveAttachments() sets `attached`
-- in the transaction that stores the message; it is never reset (messages are
-- never deleted).
alter table uploads add column attached boolean not null default false;

-- Uploads attached before this column existed: every `upload` attachment stored
-- on a message names its upload by the download path /v2/uploads/<id>/content.
update uploads u set attached = true
from (
  select distinct m.account_id, a ->> 'url' as url
  from messages m
  cross join lateral jsonb_array_elements(m.attachments) a
  where m.attachments <> '[]'::jsonb and a ->> 'type' = 'upload'
) r
where r.account_id = u.account_id and r.url = '/v2/uploads/' || u.id || '/content';

-- What the retention pass looks for: unattached uploads by expiry.
create index uploads_unattached_expiry on uploads (expires_at) where not attached;

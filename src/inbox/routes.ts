/**
 * The agent inbox: static files under /inbox (docs/inbox.md), read once at start-up and served from memory with an
 * ETag. The page itself is public; every data call carries the agent's token to the public /v2 API.
 */
import { fileURLToPath } from 'node:url';
import { sameOriginPolicy, staticPages } from '../http/static-files.ts';

export const inboxRoutes = staticPages({
  prefix: '/inbox',
  dir: fileURLToPath(new URL('./public/', import.meta.url)),
  // Attachments are shown from `blob:` URLs (downloaded with the token, as `<img>` cannot send it).
  contentSecurityPolicy: sameOriginPolicy(['data:', 'blob:']),
  label: 'Inbox',
});

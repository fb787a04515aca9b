/**
 * The agent inbox: static files under /inbox (docs/inbox.md), read once at start-up and served from memory with an
 * ETag. The page itself is public; every data call carries the agent's token to the public /v2 API.
 */
import { fileURLToPath } from 'node:url';
import { staticPages } from '../http/static-files.ts';

/**
 * Everything comes from this origin, and the token can only be sent back here. Attachments are shown from `blob:`
 * URLs (downloaded with the token, as `<img>` cannot send it).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const inboxRoutes = staticPages({
  prefix: '/inbox',
  dir: fileURLToPath(new URL('./public/', import.meta.url)),
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  label: 'Inbox',
});

/**
 * The embeddable chat widget's script, `GET /widget.js` (docs/widget.md): one hand-written file, no build step,
 * served from memory, compressed, cacheable by browsers and CDNs for a few minutes and then revalidated by ETag, so
 * an upgrade reaches every site within minutes and a repeat visit costs a 304 at most. Public: the visitor API it
 * talks to checks the key and the page's origin.
 */
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { fileURLToPath } from 'node:url';
import { matches, staticFile } from '../http/static-files.ts';

/** Fresh for five minutes, then served stale for a day while the browser revalidates in the background. */
export const WIDGET_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

export async function widgetScriptRoutes(app: FastifyInstance): Promise<void> {
  const file = staticFile(fileURLToPath(new URL('./public/widget.js', import.meta.url)));
  await app.register(compress, { encodings: ['br', 'gzip'] });
  app.get('/widget.js', { schema: { hide: true } }, (request, reply) => {
    reply
      .header('Cache-Control', WIDGET_CACHE_CONTROL)
      .header('ETag', file.etag)
      .header('X-Content-Type-Options', 'nosniff')
      // Loadable by pages of any origin, including those that require it (Cross-Origin-Embedder-Policy).
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (matches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  });
}

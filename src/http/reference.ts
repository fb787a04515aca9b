import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import scalar from '@scalar/fastify-api-reference';

/** The product's name, as the page title and the document's `info.title`. */
export const PRODUCT_TITLE = 'Chat Service API';

/** The bundled script (4.3 MB, about 1 MB compressed) changes only with the package: browsers keep it a day. */
const SCRIPT_CACHE = 'public, max-age=86400';
/** The page itself is small and carries the configuration: revalidated on every visit. */
const PAGE_CACHE = 'no-cache';

/**
 * The interactive API reference under /docs (Scalar), for a self-hosted product: it
 * loads everything from this server (no fonts, telemetry, AI agent or MCP from
 * Scalar's hosts, no button that sends the document to a hosted service) and its
 * files go out compressed with cache headers. Encapsulated: compression applies to
 * these routes only, the API answers as before.
 */
export async function referencePage(app: FastifyInstance, { documentUrl }: { documentUrl: string }): Promise<void> {
  await app.register(compress, { encodings: ['br', 'gzip'] });
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 200) reply.header('Cache-Control', request.url.endsWith('.js') ? SCRIPT_CACHE : PAGE_CACHE);
  });
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: {
      url: documentUrl,
      pageTitle: PRODUCT_TITLE,
      title: PRODUCT_TITLE,
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
      // The sidebar lists every operation (about fifty) rather than only the first section's.
      defaultOpenAllTags: true,
      // Shows each operationId: the method name of generated clients (clients/typescript).
      showOperationId: true,
    },
  });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/hook.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { EventStream, EventStreamQuery } from './schema.ts';
import { resolveStreamStart } from './service.ts';
import { streamEvents } from './stream.ts';
import type { EventHub } from './hub.ts';

export const eventRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; events: EventHub }> = async (app, { deps, events }) => {
  // Open streams, ended when the server closes: before it waits for open
  // connections (preClose), or app.close() would wait for them forever.
  const openStreams = new Map<AbortController, Promise<void>>();
  app.addHook('preClose', async () => {
    for (const controller of openStreams.keys()) controller.abort();
    await Promise.all(openStreams.values());
  });

  app.get(
    '/events',
    route({
      operationId: 'streamEvents',
      summary: 'Live event stream',
      description:
        "The account's events as they commit, as Server-Sent Events. Reconnect with `Last-Event-ID` (or `?last_event_id=`) " +
        'to resume exactly after that event; without either, the stream starts with events committed after connecting.',
      tags: ['Events'],
      scope: 'events:read',
      querystring: EventStreamQuery,
      response: EventStream,
      errors: [400],
    }),
    async (request, reply) => {
      const { accountId, tokenId } = callerOf(request);
      const start = await resolveStreamStart(deps, {
        lastEventIdHeader: request.headers['last-event-id'],
        lastEventIdQuery: request.query.last_event_id,
        types: request.query.types,
      });

      reply.hijack();
      // Headers set so far by hooks (rate limit) go out too; hijacking bypasses Fastify's sending.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // One response per connection: ending the stream frees the socket at once.
        connection: 'close',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      // HEAD (which Fastify answers with this handler) gets the headers only.
      if (request.method === 'HEAD') {
        reply.raw.end();
        return;
      }
      // Reconnect after 2 s; the comment flushes the headers so clients see the stream open.
      reply.raw.write('retry: 2000\n: connected\n\n');

      const controller = new AbortController();
      // The response closes when the client disconnects (or once the stream has ended).
      reply.raw.once('close', () => controller.abort());
      deps.metrics.eventStreamsOpen.inc();
      const done = streamEvents(deps, events, reply.raw, { accountId, tokenId, ...start, signal: controller.signal })
        .catch((error) => request.log.error({ err: error }, 'event stream failed'))
        .finally(() => {
          openStreams.delete(controller);
          deps.metrics.eventStreamsOpen.dec();
        });
      openStreams.set(controller, done);
      await done;
    },
  );
};

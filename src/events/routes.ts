import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { DocumentedEventStreamQuery, EventStream, EventStreamHeaders, EventStreamQuery } from './schema.ts';
import { parseEventTypes, streamStart } from './service.ts';
import { sendEventStream } from './http.ts';
import type { EventHub } from './hub.ts';

export const eventRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; events: EventHub }> = async (app, { deps, events }) => {
  app.get(
    '/events',
    route({
      operationId: 'streamEvents',
      summary: 'Live event stream',
      description:
        "The account's events as they commit, as Server-Sent Events. Reconnect with `Last-Event-ID` (or `?last_event_id=`) " +
        'to resume exactly after that event; without either, the stream starts with events committed after connecting. ' +
        'A token, an account and an instance hold a limited number of streams at once (429 past them).',
      tags: ['Events'],
      scope: 'events:read',
      querystring: EventStreamQuery,
      documentedQuery: DocumentedEventStreamQuery,
      headers: EventStreamHeaders,
      response: EventStream,
      errors: [400],
    }),
    async (request, reply) => {
      const { accountId, tokenId } = callerOf(request);
      const types = parseEventTypes(request.query.types);
      const afterId = await streamStart(deps, events, {
        lastEventIdHeader: request.headers['last-event-id'],
        lastEventIdQuery: request.query.last_event_id,
      });
      await sendEventStream(deps, events, request, reply, {
        filter: { accountId, types },
        afterId,
        holder: { key: `token:${tokenId}`, limit: deps.config.eventStreamsPerToken, name: 'token' },
        tokenId,
      });
    },
  );
};

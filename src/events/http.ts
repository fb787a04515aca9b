import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import type { EventFilter } from './filter.ts';
import type { EventHub, StreamHolder, Subscription } from './hub.ts';
import { streamEvents } from './stream.ts';
import type { EventRow } from './repository.ts';

/** The `retry:` of a stream: 1 to 5 s, uniformly (EventSource waits that long before reconnecting). */
export function reconnectDelayMs(): number {
  return 1000 + Math.floor(Math.random() * 4000);
}

/** One stream to send: which events, from where, and who holds it. */
export interface EventStreamRequest {
  filter: EventFilter;
  /** From streamStart (src/events/service.ts). */
  afterId: number;
  /** Whose limit it counts against (besides the account's and the instance's). */
  holder: StreamHolder;
  /** An API token whose revocation ends the stream. */
  tokenId?: string;
  /** Called with the stream's hub subscription once open (StreamOptions.onSubscribed: add conversations to a narrowed stream). */
  onSubscribed?: (subscription: Subscription) => void;
  /** What the client sees of an event, or null to leave it out (StreamOptions.present); default toEventBody. */
  present?: (row: EventRow) => object | null;
}

/**
 * Answers with a Server-Sent Events stream of the filter's events, for any route
 * that streams events (GET /v2/events; the widget's visitor stream builds on it too):
 * takes the stream's place on the instance (a 429 past a limit, before anything is
 * sent), sends the headers, then the events until the client goes away, the server
 * closes or the token is revoked. Resolves once the stream has ended.
 */
export async function sendEventStream(
  deps: Pick<Deps, 'db' | 'metrics'>,
  hub: EventHub,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: EventStreamRequest,
): Promise<void> {
  const slot = hub.reserveStream(stream.filter.accountId, stream.holder);
  try {
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
    // HEAD (which Fastify answers with the GET handler) gets the headers only.
    if (request.method === 'HEAD') {
      reply.raw.end();
      return;
    }
    // Reconnect after 1 to 5 s, each stream its own delay, so that the clients of a restarted instance do not all
    // come back in the same second; the comment flushes the headers so clients see the stream open.
    reply.raw.write(`retry: ${reconnectDelayMs()}\n: connected\n\n`);
    // The response closes when the client disconnects (or once the stream has ended).
    reply.raw.once('close', () => slot.end('closed'));
    deps.metrics.eventStreamsOpen.inc();
    try {
      await streamEvents(deps, hub, reply.raw, {
        filter: stream.filter,
        afterId: stream.afterId,
        tokenId: stream.tokenId,
        onSubscribed: stream.onSubscribed,
        present: stream.present,
        slot,
      });
    } catch (error) {
      request.log.error({ err: error }, 'event stream failed');
    } finally {
      deps.metrics.eventStreamsOpen.dec();
    }
  } finally {
    slot.release();
  }
}

import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Deps } from '../deps.ts';
import { eventsAfter, toEventBody, type EventRow } from './repository.ts';
import type { EventHub, StreamSlot } from './hub.ts';
import { matchesFilter, type EventFilter } from './filter.ts';

/** A comment line this often keeps proxies and clients from timing out an idle stream. */
const KEEP_ALIVE_MS = 15_000;
const BATCH_SIZE = 500;

export interface StreamOptions {
  /** Which events it sends. */
  filter: EventFilter;
  /** It sends the matching events with ids above this one (src/events/service.ts, streamStart). */
  afterId: number;
  /** An API token whose revocation ends the stream; streams opened without one (the widget's visitors) have none. */
  tokenId?: string;
  /** Its place on the instance (EventHub.reserveStream): the stream ends when the slot's signal fires. */
  slot: StreamSlot;
}

/** Messages already formatted: the streams of an account share the rows of one read (below). */
const formatted = new WeakMap<EventRow, string>();

/** One Server-Sent Events message; JSON has no raw newlines, so `data` is one line. */
export function formatEvent(row: EventRow): string {
  let message = formatted.get(row);
  if (message === undefined) {
    message = `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(toEventBody(row))}\n\n`;
    formatted.set(row, message);
  }
  return message;
}

/** Reads in flight, per database, by account, cursor and horizon. */
const readsInFlight = new WeakMap<object, Map<string, Promise<EventRow[]>>>();

/**
 * `eventsAfter`, shared: the open streams of an account wake together with the same
 * cursor and horizon, so one query (and one formatting of each event) serves them
 * all, however many streams are open (docs/benchmarks.md, events).
 */
function sharedEventsAfter(db: Deps['db'], accountId: string, afterId: number, throughId: number): Promise<EventRow[]> {
  let reads = readsInFlight.get(db);
  if (!reads) readsInFlight.set(db, (reads = new Map()));
  const key = `${accountId}\u0000${afterId}\u0000${throughId}`;
  let read = reads.get(key);
  if (!read) {
    read = eventsAfter(db, accountId, { afterId, throughId }, BATCH_SIZE).finally(() => reads.delete(key));
    reads.set(key, read);
  }
  return read;
}

/**
 * Sends the filter's events as they commit. The instance's hub wakes the stream
 * when events of its account have settled (src/events/hub.ts); the stream then
 * reads the outbox up to the settled horizon, so moving its cursor past each
 * event read never skips a later commit, on any instance. No query while idle.
 * Returns when the slot's signal fires (the client went away, the hub closes, the
 * token was revoked) or the database fails, after ending the response.
 */
export async function streamEvents(deps: Pick<Deps, 'db'>, hub: EventHub, response: ServerResponse, options: StreamOptions): Promise<void> {
  const { filter, slot } = options;
  const signal = slot.signal;
  const stopWatching = options.tokenId ? hub.watchToken(filter.accountId, options.tokenId, () => slot.end('revoked')) : () => undefined;
  let cursor = options.afterId;
  let lastWriteAt = Date.now();
  // Subscribed before the first read, so no event settles unseen in between.
  let woken = true;
  let wakeUp: (() => void) | undefined;
  const unsubscribe = hub.subscribe(filter.accountId, () => {
    woken = true;
    wakeUp?.();
  });
  try {
    while (!signal.aborted) {
      while (woken) {
        woken = false;
        const batch = await sharedEventsAfter(deps.db, filter.accountId, cursor, hub.settled);
        for (const row of batch) {
          cursor = row.id;
          if (!matchesFilter(filter, row)) continue;
          lastWriteAt = Date.now();
          // A slow reader: wait for its buffer to drain rather than pile up memory.
          if (!response.write(formatEvent(row))) await once(response, 'drain', { signal });
        }
        if (batch.length === BATCH_SIZE) woken = true;
      }
      if (Date.now() - lastWriteAt >= KEEP_ALIVE_MS) {
        lastWriteAt = Date.now();
        response.write(': keep-alive\n\n');
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wakeUp = undefined;
          resolve();
        };
        const timer = setTimeout(done, KEEP_ALIVE_MS - (Date.now() - lastWriteAt));
        signal.addEventListener('abort', done);
        wakeUp = done;
        if (woken || signal.aborted) done();
      });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    unsubscribe();
    stopWatching();
    // A client that reconnects with a revoked token gets a 401.
    response.end(signal.reason === 'revoked' ? ': token revoked\n\n' : undefined);
  }
}

import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Deps } from '../deps.ts';
import { eventsAfter, toEventBody, type EventRow } from './repository.ts';
import type { EventHub, SettledBatch, StreamSlot, Subscription } from './hub.ts';
import { matchesFilter, type EventFilter } from './filter.ts';

/** A comment line after this long without a write keeps proxies and clients from timing out an idle stream (checked every HEARTBEAT_MS). */
const KEEP_ALIVE_MS = 15_000;
const BATCH_SIZE = 500;
/**
 * Batches a stream keeps while its client reads slowly; past this it drops them and
 * reads the outbox from its cursor instead once the client has caught up, so a slow
 * reader holds no more memory than this many shared batches.
 */
const MAX_QUEUED_BATCHES = 64;

export interface StreamOptions {
  /** Which events it sends. */
  filter: EventFilter;
  /** It sends the matching events with ids above this one (src/events/service.ts, streamStart). */
  afterId: number;
  /** An API token whose revocation ends the stream; streams opened without one (the widget's visitors) have none. */
  tokenId?: string;
  /** Its place on the instance (EventHub.reserveStream): the stream ends when the slot's signal fires. */
  slot: StreamSlot;
  /**
   * Called once the stream has subscribed, with its subscription: a stream narrowed to some conversations
   * grows with `subscription.addConversation(id)` (a visitor who starts a new conversation).
   */
  onSubscribed?: (subscription: Subscription) => void;
  /**
   * What the client sees of an event (the JSON of its `data:` line), or null to leave the event out: a visitor
   * sees less than an API token (src/visitors/presenter.ts). Default toEventBody, formatted once per row for all streams.
   */
  present?: (row: EventRow) => object | null;
}

/** Messages already formatted: the streams of an account share the rows of one read (below) and of the hub's batches. */
const formatted = new WeakMap<EventRow, string>();

/** One Server-Sent Events message of `row` carrying `body`; JSON has no raw newlines, so `data` is one line. */
function sseMessage(row: EventRow, body: object): string {
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(body)}\n\n`;
}

/** The message of an event as an API token's stream sends it. */
function formatEvent(row: EventRow): string {
  let message = formatted.get(row);
  if (message === undefined) {
    message = sseMessage(row, toEventBody(row));
    formatted.set(row, message);
  }
  return message;
}

/** Reads in flight, per database, by account, cursor and horizon. */
const readsInFlight = new WeakMap<object, Map<string, Promise<EventRow[]>>>();

/**
 * A page of the outbox for a stream catching up (after opening, or after dropping batches
 * while its client read slowly). An account-wide read is shared: streams opened together
 * (a reconnect storm) start from the same cursor and horizon, so one query (and one
 * formatting of each event) serves them all. A stream narrowed to some conversations
 * reads only theirs (by the events_conversation index), however many events its account has.
 */
function readPage(db: Deps['db'], filter: EventFilter, afterId: number, throughId: number): Promise<EventRow[]> {
  const range = { afterId, throughId, conversationIds: filter.conversationIds && [...filter.conversationIds] };
  if (range.conversationIds) return eventsAfter(db, filter.accountId, range, BATCH_SIZE);
  let reads = readsInFlight.get(db);
  if (!reads) readsInFlight.set(db, (reads = new Map()));
  const key = `${filter.accountId}\u0000${afterId}\u0000${throughId}`;
  let read = reads.get(key);
  if (!read) {
    read = eventsAfter(db, filter.accountId, range, BATCH_SIZE).finally(() => reads.delete(key));
    reads.set(key, read);
  }
  return read;
}

/**
 * Sends the filter's events as they commit. The stream subscribes to the instance's
 * hub (src/events/hub.ts), reads what it missed from the outbox after its cursor up to
 * where the hub's batches begin (waking no other stream), then sends the batches the hub
 * hands it: events read once for all the streams they concern, up to the settled
 * horizon, so moving its cursor past each batch never skips a later commit, on any
 * instance. No query while idle, no timer or listener per event: the hub's one timer
 * calls its heartbeat. Returns when the slot's signal fires (the client went away, the
 * hub closes, the token was revoked) or the database fails, after ending the response.
 */
export async function streamEvents(deps: Pick<Deps, 'db'>, hub: EventHub, response: ServerResponse, options: StreamOptions): Promise<void> {
  const { slot } = options;
  const signal = slot.signal;
  const stopWatching = options.tokenId
    ? hub.watchToken(options.filter.accountId, options.tokenId, () => slot.end('revoked'))
    : () => undefined;
  // The hub grows this set (Subscription.addConversation); matchesFilter reads it.
  const conversationIds = options.filter.conversationIds && new Set(options.filter.conversationIds);
  const filter: EventFilter = { ...options.filter, conversationIds };
  let cursor = options.afterId;
  let lastWriteAt = Date.now();
  let queued: SettledBatch[] = [];
  /** Read the outbox after the cursor up to here before taking queued batches (the subscription's fromId, below). */
  let readThrough = 0;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  };
  // Subscribed before the first read, so no event settles unseen in between.
  const subscription = hub.subscribe(
    { accountId: filter.accountId, conversationIds },
    {
      deliver(batch) {
        if (queued.length < MAX_QUEUED_BATCHES) queued.push(batch);
        else {
          queued = [];
          readThrough = Math.max(readThrough, batch.throughId);
        }
        wake();
      },
      heartbeat() {
        if (Date.now() - lastWriteAt < KEEP_ALIVE_MS || response.writableNeedDrain) return;
        lastWriteAt = Date.now();
        response.write(': keep-alive\n\n');
      },
    },
  );
  readThrough = Math.max(readThrough, subscription.fromId);
  signal.addEventListener('abort', wake);
  options.onSubscribed?.(subscription);

  const send = async (rows: readonly EventRow[]) => {
    for (const row of rows) {
      if (row.id <= cursor) continue;
      cursor = row.id;
      if (!matchesFilter(filter, row)) continue;
      const body = options.present ? options.present(row) : undefined;
      if (body === null) continue;
      const message = body ? sseMessage(row, body) : formatEvent(row);
      lastWriteAt = Date.now();
      // A slow reader: wait for its buffer to drain rather than pile up memory.
      if (!response.write(message)) await once(response, 'drain', { signal });
    }
  };
  try {
    while (!signal.aborted) {
      if (cursor < readThrough) {
        const throughId = readThrough;
        const page = await readPage(deps.db, filter, cursor, throughId);
        await send(page);
        if (page.length < BATCH_SIZE) cursor = Math.max(cursor, throughId);
        continue;
      }
      const batch = queued.shift();
      if (batch) {
        await send(batch.rows);
        cursor = Math.max(cursor, batch.throughId);
        continue;
      }
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        if (signal.aborted) wake();
      });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', wake);
    subscription.close();
    stopWatching();
    // A client that reconnects with a revoked token gets a 401.
    response.end(signal.reason === 'revoked' ? ': token revoked\n\n' : undefined);
  }
}

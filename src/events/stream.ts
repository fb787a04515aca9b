import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import { eventsAfter, toEventBody, type EventRow } from './repository.ts';

/** How often an open stream looks for new events in the outbox. */
const POLL_INTERVAL_MS = 300;
/** A comment line this often keeps proxies and clients from timing out an idle stream. */
const KEEP_ALIVE_MS = 15_000;
const BATCH_SIZE = 500;

export interface StreamOptions {
  accountId: string;
  /** The stream sends events with ids above this one. */
  afterId: number;
  /** Event types to send; null sends every type. */
  types: ReadonlySet<string> | null;
  /** Ends the stream: the client went away or the server is closing. */
  signal: AbortSignal;
}

/** One Server-Sent Events message; JSON has no raw newlines, so `data` is one line. */
export function formatEvent(row: EventRow): string {
  return `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(toEventBody(row))}\n\n`;
}

/**
 * Sends the account's events as they commit, by polling the outbox: every
 * instance on one database sees every event, and ids commit in order per
 * account, so moving a cursor past each event read never skips a later commit.
 * Returns when the signal fires (or the database fails), after ending the response.
 */
export async function streamEvents(deps: Pick<Deps, 'db'>, response: ServerResponse, options: StreamOptions): Promise<void> {
  const { signal } = options;
  let cursor = options.afterId;
  let lastWriteAt = Date.now();
  try {
    while (!signal.aborted) {
      const batch = await eventsAfter(deps.db, options.accountId, cursor, BATCH_SIZE);
      for (const row of batch) {
        cursor = row.id;
        if (options.types && !options.types.has(row.type)) continue;
        lastWriteAt = Date.now();
        // A slow reader: wait for its buffer to drain rather than pile up memory.
        if (!response.write(formatEvent(row))) await once(response, 'drain', { signal });
      }
      if (batch.length === BATCH_SIZE) continue;
      if (Date.now() - lastWriteAt >= KEEP_ALIVE_MS) {
        lastWriteAt = Date.now();
        response.write(': keep-alive\n\n');
      }
      await sleep(POLL_INTERVAL_MS, undefined, { signal });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    response.end();
  }
}

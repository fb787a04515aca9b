import type { Deps } from '../deps.ts';
import { ApiError, invalidArgument } from '../http/errors.ts';
import { EVENT_TYPES } from './outbox.ts';
import { newestEventId } from './horizon.ts';
import type { EventHub } from './hub.ts';

/** Where a client asks its stream to start: EventSource's `Last-Event-ID` header, or a query parameter. */
export interface StreamPosition {
  /** The `Last-Event-ID` header, sent by EventSource clients when they reconnect. */
  lastEventIdHeader: string | string[] | undefined;
  lastEventIdQuery: number | undefined;
}

/**
 * The id after which a stream starts. The header wins over the query: an
 * EventSource reconnecting keeps its original URL but sends the newest id it saw.
 * Without either, the stream starts with the events committed after this call.
 * A malformed header is a 400.
 */
export async function streamStart(deps: Pick<Deps, 'db'>, hub: EventHub, position: StreamPosition): Promise<number> {
  const header = position.lastEventIdHeader;
  if (header !== undefined) {
    if (typeof header !== 'string' || !/^\s*\d{1,15}\s*$/.test(header)) {
      throw new ApiError(400, 'bad_request', 'The Last-Event-ID header must be one event id (a non-negative integer)');
    }
    return resumeAfter(deps, hub, Number(header));
  }
  if (position.lastEventIdQuery !== undefined) return resumeAfter(deps, hub, position.lastEventIdQuery);
  return hub.settledNow();
}

/**
 * A resume id this database never handed out (a client of a database since
 * restored from a backup, or a made-up id) would keep the stream silent until ids
 * caught up: such a stream starts at the newest event instead, as if no id was
 * given (docs/behaviour.md §10).
 */
async function resumeAfter(deps: Pick<Deps, 'db'>, hub: EventHub, lastEventId: number): Promise<number> {
  if (lastEventId <= (await newestEventId(deps.db))) return lastEventId;
  return hub.settledNow();
}

/** `?types=` of a stream: a comma-separated list of event types; an unknown one is a 422 naming the query parameter. */
export function parseEventTypes(list: string | undefined, parameter = 'types'): ReadonlySet<string> | undefined {
  if (list === undefined) return undefined;
  const types = list.split(',').map((type) => type.trim());
  const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw invalidArgument(parameter, 'enum', `must be a comma-separated list of: ${EVENT_TYPES.join(', ')} (got "${unknown}")`, 'query');
  }
  return new Set(types);
}

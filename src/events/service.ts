import type { Deps } from '../deps.ts';
import { ApiError, invalidArgument } from '../http/errors.ts';
import { EVENT_TYPES } from './outbox.ts';
import { newestEventId, settledEventId } from './horizon.ts';

export interface StreamRequest {
  /** The `Last-Event-ID` header, sent by EventSource clients when they reconnect. */
  lastEventIdHeader: string | string[] | undefined;
  lastEventIdQuery: number | undefined;
  /** Comma-separated event types. */
  types: string | undefined;
}

export interface StreamStart {
  afterId: number;
  types: ReadonlySet<string> | null;
}

/**
 * Where a stream starts and what it sends. The header wins over the query: an
 * EventSource reconnecting keeps its original URL but sends the newest id it saw.
 */
export async function resolveStreamStart(deps: Pick<Deps, 'db'>, input: StreamRequest): Promise<StreamStart> {
  const types = input.types === undefined ? null : parseTypes(input.types);
  const header = input.lastEventIdHeader;
  if (header !== undefined) {
    if (typeof header !== 'string' || !/^\s*\d{1,15}\s*$/.test(header)) {
      throw new ApiError(400, 'bad_request', 'The Last-Event-ID header must be one event id (a non-negative integer)');
    }
    return { afterId: await resumeAfter(deps, Number(header)), types };
  }
  if (input.lastEventIdQuery !== undefined) return { afterId: await resumeAfter(deps, input.lastEventIdQuery), types };
  return { afterId: await settledEventId(deps.db), types };
}

/**
 * A resume id this database never handed out (a client of a database since
 * restored from a backup, or a made-up id) would keep the stream silent until ids
 * caught up: such a stream starts at the newest event instead, as if no id was
 * given (docs/behaviour.md §10).
 */
async function resumeAfter(deps: Pick<Deps, 'db'>, lastEventId: number): Promise<number> {
  if (lastEventId <= (await newestEventId(deps.db))) return lastEventId;
  return settledEventId(deps.db);
}

function parseTypes(list: string): ReadonlySet<string> {
  const types = list.split(',').map((type) => type.trim());
  const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw invalidArgument('types', 'enum', `must be a comma-separated list of: ${EVENT_TYPES.join(', ')} (got "${unknown}")`, 'query');
  }
  return new Set(types);
}

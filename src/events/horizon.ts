/**
 * The settled horizon of the outbox (docs/behaviour.md §10): the highest event id
 * below which every event that will ever commit has committed. Readers (streams,
 * the webhook queue) read only up to it, so a reader that moved past id N never
 * misses a smaller id committing later, while writers share no lock.
 *
 * Event ids come from a sequence (src/events/outbox.ts), and a transaction that
 * takes one already has its transaction id (xid). So a pair read in this order:
 * `last`, the sequence's newest id, then `xid`, a fresh transaction id, says
 * "every id up to `last` belongs to a transaction older than `xid`". Once a later
 * snapshot's xmin (its oldest running transaction) is above `xid`, all those
 * transactions are over: ids up to `last` are settled. Each step reads the
 * snapshot's xmin and a new pair in one statement, so an id settles at the step
 * after the one that saw it allocated, as soon as the transactions older than it
 * have finished (a writer that stays open holds the horizon back; nothing else does).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../db/db.ts';

interface Pair {
  /** A transaction id taken after `last` was read, as a bigint (xid8). */
  xid: bigint;
  last: number;
}

/** Pairs kept waiting for their transactions to finish; older ones are dropped first (only delaying). */
const MAX_PENDING = 64;

export class EventHorizon {
  #settled = 0;
  #newest = 0;
  #pending: Pair[] = [];

  /** Every event with an id up to this one that will ever commit has committed. */
  get settled(): number {
    return this.#settled;
  }

  /** The newest id handed out when last looked. */
  get newest(): number {
    return this.#newest;
  }

  /** Whether ids above the horizon were handed out when last looked: another step may settle them. */
  get behind(): boolean {
    return this.#newest > this.#settled;
  }

  /**
   * One step (one statement, which consumes a transaction id): settles the pairs of
   * earlier steps whose transactions have all finished, and takes a new pair.
   * Returns the settled horizon.
   */
  async advance(db: Queryable): Promise<number> {
    // The snapshot is taken first, then `s` is read, then the xid is taken: the order the pair needs.
    const { rows } = await db.query<{ xmin: string; last: number; xid: string }>(
      `with s as materialized (select last_value, is_called from events_id_seq)
       select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
              case when s.is_called then s.last_value else s.last_value - 1 end as last,
              pg_current_xact_id()::text as xid
       from s`,
    );
    const { xmin, last, xid } = rows[0];
    const oldestRunning = BigInt(xmin);
    while (this.#pending.length > 0 && this.#pending[0].xid < oldestRunning) {
      this.#settled = Math.max(this.#settled, this.#pending.shift()!.last);
    }
    this.#newest = Math.max(this.#newest, last);
    if (last > this.#settled) {
      this.#pending.push({ xid: BigInt(xid), last });
      if (this.#pending.length > MAX_PENDING) this.#pending.shift();
    }
    return this.#settled;
  }
}

/** The newest event id handed out (committed or not); 0 before the first event. */
export async function newestEventId(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ last: number }>(
    'select (case when is_called then last_value else last_value - 1 end)::int8 as last from events_id_seq',
  );
  return Number(rows[0].last);
}

/** How long settledEventId waits between steps while older transactions are still running. */
const SETTLE_RETRY_MS = 5;
/** How long settledEventId waits at most for transactions that were running when it was called. */
const SETTLE_MAX_WAIT_MS = 1000;

/**
 * The settled horizon now: every event allocated before the call that will ever
 * commit has committed and is at or below it. Two statements, more while
 * transactions that started before the call are still running; after
 * SETTLE_MAX_WAIT_MS (a long write transaction) it settles for less: a lower
 * horizon, which a reader starting from it only pays for with a few events
 * committed before the call.
 */
export async function settledEventId(db: Queryable): Promise<number> {
  const horizon = new EventHorizon();
  await horizon.advance(db);
  const target = horizon.newest;
  const deadline = Date.now() + SETTLE_MAX_WAIT_MS;
  while ((await horizon.advance(db)) < target && Date.now() < deadline) await sleep(SETTLE_RETRY_MS);
  return horizon.settled;
}

/**
 * The settled horizon of the outbox (docs/behaviour.md §10): the highest event id
 * below which every event that will ever commit has committed. Readers (streams,
 * the webhook queue) read only up to it, so a reader that moved past id N never
 * misses a smaller id committing later, while writers share no lock.
 *
 * Event ids come from a sequence (src/events/outbox.ts), and a transaction that
 * takes one already has its transaction id (xid): the id column's default,
 * next_event_id() (migration 156), takes the xid first, the one place this is
 * enforced (src/events/fanout.test.ts fails when a writer takes ids otherwise). So a pair read in this order:
 * `last`, the sequence's newest id, then `next`, the next transaction id the
 * server will hand out, says "every id up to `last` belongs to a transaction
 * whose xid is below `next`". Once a later snapshot's xmin (its oldest running
 * transaction) is at or above `next`, all those transactions are over: ids up to
 * `last` are settled. Each step reads the snapshot's xmin and a new pair in one
 * statement, so an id settles at the step after the one that saw it allocated,
 * as soon as the transactions older than it have finished (a writer that stays
 * open holds the horizon back; nothing else does).
 *
 * A step assigns no transaction id (issue 18.11): `next` is read, not taken.
 * PostgreSQL has no function returning the next xid as such, but `age(xid)` is
 * "the next xid minus xid" for a transaction without an xid of its own (it reads
 * the server's next xid once per transaction, at its first call: here after the
 * sequence was read, the order the pair needs). So `next` = ref + age(ref), with
 * ref the snapshot's xmin (within 2^31 of the next xid, as age needs), as a
 * 64-bit xid8 rebuilt from the xmin's epoch. The snapshot's xmax cannot stand in
 * for it: it is the newest *finished* xid plus one, and a running transaction
 * with a larger xid (which may hold an event id) is not in the snapshot at all.
 * Taking a fresh xid (pg_current_xact_id(), as steps once did) would also work,
 * but every step would then burn one: hundreds a second while any write
 * transaction stays open, walking the cluster toward xid wraparound.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';

interface Pair {
  /** The next transaction id the server would hand out, read after `last` was read, as a bigint (xid8). */
  next: bigint;
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
   * One step (one statement, read-only, which assigns no transaction id): settles the
   * pairs of earlier steps whose transactions have all finished, and reads a new pair.
   * Returns the settled horizon.
   */
  async advance(db: Queryable): Promise<number> {
    // The snapshot is taken first, then `s` is read, then `next` (age's first call in this transaction): the order the pair needs.
    // `ref` is the snapshot's xmin, or a little below it when its 32-bit part is not a normal xid (age answers those as infinitely old).
    const { rows } = await db.query<{ xmin: string; last: number; next: string }>(
      `with s as materialized (select last_value, is_called from events_id_seq),
       x as materialized (select pg_snapshot_xmin(pg_current_snapshot())::text::numeric as xmin),
       r as materialized (select xmin, case when xmin % 4294967296 >= 3 then xmin else xmin - 10 end as ref from x)
       select r.xmin::text as xmin,
              case when s.is_called then s.last_value else s.last_value - 1 end as last,
              (r.ref + age((r.ref % 4294967296)::text::xid))::text as next
       from s, r`,
    );
    const { xmin, last, next } = firstRow(rows);
    const oldestRunning = BigInt(xmin);
    while (this.#pending[0] && this.#pending[0].next <= oldestRunning) {
      this.#settled = Math.max(this.#settled, this.#pending[0].last);
      this.#pending.shift();
    }
    this.#newest = Math.max(this.#newest, last);
    if (last > this.#settled) {
      this.#pending.push({ next: BigInt(next), last });
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
  return Number(firstRow(rows).last);
}

/** How long settledEventId waits before its first retry while older transactions are still running; doubled at each retry. */
const SETTLE_RETRY_MS = 5;
/** The longest wait between two of its retries. */
const SETTLE_RETRY_MAX_MS = 100;
/** How long settledEventId waits at most for transactions that were running when it was called. */
const SETTLE_MAX_WAIT_MS = 1000;

/**
 * The settled horizon now: every event allocated before the call that will ever
 * commit has committed and is at or below it. Two statements, more while
 * transactions that started before the call are still running (retried after 5 ms,
 * then waits doubling up to 100 ms); after SETTLE_MAX_WAIT_MS (a long write
 * transaction) it settles for less: a lower horizon, which a reader starting from
 * it only pays for with a few events committed before the call.
 */
export async function settledEventId(db: Queryable): Promise<number> {
  const horizon = new EventHorizon();
  await horizon.advance(db);
  const target = horizon.newest;
  const deadline = Date.now() + SETTLE_MAX_WAIT_MS;
  let wait = SETTLE_RETRY_MS;
  while ((await horizon.advance(db)) < target && Date.now() < deadline) {
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
    wait = Math.min(wait * 2, SETTLE_RETRY_MAX_MS);
  }
  return horizon.settled;
}

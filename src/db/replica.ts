/**
 * Heavy reads on a streaming replica (DATABASE_READ_URL), with read-your-writes per account on this instance
 * (docs/behaviour.md §10, docs/operations.md "Read replica"):
 *
 * - Every write transaction that commits on the primary reports the primary's WAL position right after its
 *   commit (`commit; select pg_current_wal_lsn()` in one round trip, src/db/db.ts), remembered for the account
 *   the request acts for (`actingFor`, set by authentication; AsyncLocalStorage carries it to the database).
 *   A write for no account (a background job, a public route) is waited for by every read of the instance.
 * - A read routed here runs on the replica only once its `pg_last_wal_replay_lsn()` has passed the account's
 *   last write; until then it waits up to DATABASE_READ_WAIT_MS, then runs on the primary.
 * - A replica that does not answer (down, refusing connections) or that lags more than DATABASE_READ_MAX_LAG_MS
 *   is skipped for a while (every read goes to the primary), with one log line when that starts and one when it ends.
 * - A replica statement cancelled by recovery (SQLSTATE 40001, "conflict with recovery") is run again on the primary.
 *
 * Lag is measured as this instance sees it: how long ago it committed the oldest write the replica has not
 * replayed yet (0 when the replica has everything this instance wrote), so an idle primary shows no lag.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './db.ts';
import { firstRow } from './rows.ts';

/** What the current request acts for: set once it is authenticated. */
interface Scope {
  accountId?: string;
}
const scopes = new AsyncLocalStorage<Scope>();

/** Runs `fn` (a request's handling) with a scope `actingFor` can fill in. */
export function withAccountScope<T>(fn: () => T): T {
  return scopes.run({}, fn);
}

/** The request running now acts for `accountId`: its writes and reads are tracked for read-your-writes. */
export function actingFor(accountId: string): void {
  const scope = scopes.getStore();
  if (scope) scope.accountId = accountId;
}

/** `X/Y` (pg_lsn's text) as a number of bytes. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Writes that commit closer together than this share one entry of the lag queue. */
const LAG_GRAIN_MS = 10;
/** Accounts remembered before the ones the replica has passed are forgotten. */
const PRUNE_ABOVE = 10_000;

/** The primary's WAL position after each account's last acknowledged write, and the writes the replica has not replayed yet. */
export class WritePositions {
  readonly #byAccount = new Map<string, bigint>();
  /** The last write made for no account (background jobs, public routes, a test's own statements): every read waits for it. */
  #unscoped = 0n;
  /** (position, when) of this instance's writes not yet replayed, oldest first, one per LAG_GRAIN_MS. */
  #pending: { lsn: bigint; at: number }[] = [];

  /** A write committed at `lsn` (pg_current_wal_lsn() after its commit), for the account the request acts for. */
  committed(lsn: string): void {
    const position = parseLsn(lsn);
    const accountId = scopes.getStore()?.accountId;
    if (accountId === undefined) this.#unscoped = this.#unscoped > position ? this.#unscoped : position;
    else if ((this.#byAccount.get(accountId) ?? 0n) < position) this.#byAccount.set(accountId, position);
    const now = performance.now();
    const last = this.#pending.at(-1);
    if (last && now - last.at < LAG_GRAIN_MS) last.lsn = last.lsn > position ? last.lsn : position;
    else this.#pending.push({ lsn: position, at: now });
  }

  /** Where the replica must be for a read by the request running now: past its account's last write and the last unscoped one. */
  required(): bigint {
    const accountId = scopes.getStore()?.accountId;
    const own = accountId === undefined ? 0n : (this.#byAccount.get(accountId) ?? 0n);
    return own > this.#unscoped ? own : this.#unscoped;
  }

  /** The replica has replayed up to `replayed`: forget what it has; the lag in milliseconds that leaves. */
  replayed(replayed: bigint): number {
    while (this.#pending[0] && this.#pending[0].lsn <= replayed) this.#pending.shift();
    if (this.#byAccount.size > PRUNE_ABOVE) {
      for (const [accountId, lsn] of this.#byAccount) if (lsn <= replayed) this.#byAccount.delete(accountId);
    }
    return this.#pending[0] ? performance.now() - this.#pending[0].at : 0;
  }
}

export interface ReplicaOptions {
  /** DATABASE_READ_WAIT_MS: how long a read waits for the replica to replay the account's last write before going to the primary. */
  waitMs: number;
  /** DATABASE_READ_MAX_LAG_MS: a replica further behind than this is skipped. */
  maxLagMs: number;
  /** One line when the replica starts being skipped, and one when it is used again. */
  log?: (level: 'warn' | 'info', message: string) => void;
}

/** Why a read meant for the replica ran on the primary. */
export type FallbackReason = 'behind' | 'lagging' | 'down' | 'conflict';
export const FALLBACK_REASONS: readonly FallbackReason[] = ['behind', 'lagging', 'down', 'conflict'];

/** What the metrics show (src/metrics/db.ts): reads by target, fallbacks by reason, and the lag last measured. */
export interface ReplicaState {
  reads: { replica: number; primary: number };
  fallbacks: Record<FallbackReason, number>;
  lagMs: number;
}

/** How often the replica's position is asked when no read needs a newer one. */
const CHECK_EVERY_MS = 1000;
/** How long a replica that did not answer is left alone. */
const DOWN_FOR_MS = 2000;
/** How often a read waiting for the replica asks again. */
const POLL_MS = 10;

/** Errors after which the replica is skipped: no SQLSTATE (no answer at all), connection failures, shutdown, no such database yet. */
function unavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code === '3D000';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `primary` (the heavy lane) with its reads sent to `replica` (the replica's heavy lane) when read-your-writes
 * allows; `replicaState` for the metrics. Everything but query and transaction is the primary's.
 */
export function routedReads(primary: Db, replica: Db, positions: WritePositions, options: ReplicaOptions) {
  const state: ReplicaState = {
    reads: { replica: 0, primary: 0 },
    fallbacks: { behind: 0, lagging: 0, down: 0, conflict: 0 },
    lagMs: 0,
  };
  let replayed = 0n;
  let checkedAt = -Infinity;
  let downUntil = -Infinity;
  let skipped: string | undefined;
  let checking: Promise<void> | undefined;

  const skip = (why: string) => {
    if (skipped === undefined) options.log?.('warn', `Read replica skipped, heavy reads go to the primary: ${why}`);
    skipped = why;
  };
  const check = () =>
    (checking ??= (async () => {
      try {
        const { rows } = await replica.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
        const replayedText = firstRow(rows).lsn;
        if (replayedText === null)
          throw Object.assign(new Error('DATABASE_READ_URL is not a replica (pg_last_wal_replay_lsn() is null)'), { code: 'XXREP' });
        const lsn = parseLsn(replayedText);
        if (lsn > replayed) replayed = lsn;
        state.lagMs = positions.replayed(replayed);
        checkedAt = performance.now();
      } catch (error) {
        downUntil = performance.now() + DOWN_FOR_MS;
        // A replica that does not answer replays nothing: the lag is the age of the oldest write it has not got,
        // growing while it is down (the topology test's replica outage, scripts/test-topology.ts).
        state.lagMs = positions.replayed(replayed);
        skip(`it does not answer (${(error as Error).message})`);
        throw error;
      }
    })().finally(() => (checking = undefined)));

  /** Where a read by the request running now goes: the replica, or why not. */
  async function target(): Promise<'replica' | FallbackReason> {
    if (performance.now() < downUntil) return 'down';
    const required = positions.required();
    const deadline = performance.now() + options.waitMs;
    for (;;) {
      if (performance.now() - checkedAt >= CHECK_EVERY_MS || replayed < required) {
        try {
          await check();
        } catch {
          return 'down';
        }
      }
      if (state.lagMs > options.maxLagMs) {
        skip(`it lags ${Math.round(state.lagMs)} ms behind, more than DATABASE_READ_MAX_LAG_MS (${options.maxLagMs})`);
        return 'lagging';
      }
      if (replayed >= required) break;
      if (performance.now() >= deadline) return 'behind';
      await sleep(POLL_MS);
    }
    if (skipped !== undefined) {
      options.log?.('info', 'Read replica used again');
      skipped = undefined;
    }
    return 'replica';
  }

  /** Runs `work` on the replica when it may, else (or when recovery cancelled it there) on the primary. */
  async function routed<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const chosen = await target();
    if (chosen === 'replica') {
      try {
        const result = await work(replica);
        state.reads.replica++;
        return result;
      } catch (error) {
        if ((error as { code?: unknown }).code === '40001') state.fallbacks.conflict++;
        else if (unavailable(error)) {
          downUntil = performance.now() + DOWN_FOR_MS;
          skip(`it does not answer (${(error as Error).message})`);
          state.fallbacks.down++;
        } else throw error;
      }
    } else state.fallbacks[chosen]++;
    const result = await work(primary);
    state.reads.primary++;
    return result;
  }

  const db: Db = {
    engine: primary.engine,
    listen: (channel, handler) => primary.listen(channel, handler),
    ping: () => primary.ping(),
    poolState: () => primary.poolState(),
    query: (sql, params) => routed((target) => target.query(sql, params)),
    transaction: (fn) => routed((target) => target.transaction(fn)),
    get heavy() {
      return primary.heavy;
    },
    get maintenance() {
      return primary.maintenance;
    },
    get reads() {
      return db;
    },
    replicaState: () => state,
    close: async (closing) => {
      await replica.close(closing);
    },
  };
  return db;
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { acquireDirectoryLock, type DirectoryLock } from './lock.ts';
import { PGliteConnection, PGliteThread } from './pglite-thread.ts';
import type { Config } from '../config.ts';
import { routedReads, WritePositions, type ReplicaOptions, type ReplicaState } from './replica.ts';
import { firstRow } from './rows.ts';

// Counts (int8) and numerics come back as JS numbers on both engines: every value
// this service aggregates fits in a double, and callers should not see strings.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

export interface QueryResult<R> {
  rows: R[];
  rowCount: number | null;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
}

/** An open transaction. */
export interface Transaction extends Queryable {
  /**
   * Sends a NOTIFY on `channel` once the transaction has committed (none on a
   * rollback), from outside it: a NOTIFY inside a transaction takes a
   * database-wide lock through its commit, which serialises every writer. Best
   * effort: listeners must tolerate a lost notification.
   */
  notifyAfterCommit(channel: string, payload: string): void;
  /**
   * Runs the transaction's last statement: on PGlite the commit travels with it to the worker thread (one trip
   * instead of two); on PostgreSQL, when it is the only one, it may run alone, atomic by itself, with no `begin` and
   * `commit` (see `oneStatementAlone`). Nothing may run on the transaction after it,
   * and the transaction's function must return without throwing once it has run (on PGlite it has committed).
   */
  readonly last: Queryable;
  /**
   * No other statement can run while this transaction is open: PGlite's connections share one backend, and the
   * others' statements wait from its `begin` to its commit (src/db/pglite-thread.ts), so a row lock there serialises
   * nothing and only costs a write of the row (its lock) in the worker.
   */
  readonly alone: boolean;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs fn in one transaction; rolls back when it throws. Inside, use only `tx`. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel`: `handler` gets the payload of every notification, from
   * any session on the database. PostgreSQL: one dedicated connection per call,
   * reconnected when lost (notifications sent meanwhile are lost). Resolves once
   * listening; the function it returns stops it.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * The same database for heavy read-only work (statistics, the legacy export, maintenance):
   * its statements wait while small ones are queued, and fail with QueryTimeoutError after
   * HEAVY_QUERY_TIMEOUT_MS, waiting included (docs/behaviour.md §10).
   */
  readonly heavy: Db;
  /**
   * The heavy lane without HEAVY_QUERY_TIMEOUT_MS, for table maintenance (src/db/maintenance.ts):
   * it yields to small work like any heavy statement, and a first VACUUM of a large table must
   * finish however long it takes.
   */
  readonly maintenance: Db;
  /**
   * The heavy lane for read-only work that may run on the read replica (DATABASE_READ_URL: statistics, the legacy
   * export, search) under read-your-writes (src/db/replica.ts); the heavy lane itself without a replica.
   */
  readonly reads: Db;
  /** Reads by target, fallbacks and lag of the read replica, for the metrics; undefined without one. */
  replicaState(): ReplicaState | undefined;
  /** Resolves when the database answers, without queueing behind running work (for /readyz). */
  ping(): Promise<void>;
  /** The connections and the queues in front of them right now, for the metrics (src/metrics/db.ts). */
  poolState(): PoolState;
  /**
   * Closes the database once the statements running finish. With `force`, it stops waiting for them
   * when the signal fires: PostgreSQL's connections are left for the process's exit to drop; PGlite,
   * which cannot cancel a statement, has its thread ended and its directory opened and closed once
   * more, so it is always left closed cleanly (and its lock released).
   */
  close(options?: { force?: AbortSignal }): Promise<void>;
}

/** Every connection busy and none freed for this long: the database takes no more work for now (/readyz answers 503). */
export const SATURATED_AFTER_MS = 2000;

/** What Db.ping throws while every connection has been busy for SATURATED_AFTER_MS without one coming free. */
export class DatabaseSaturatedError extends Error {
  constructor(readonly busyForMs: number) {
    super(`Every database connection has been busy for ${Math.round(busyForMs)} ms: no statement can start`);
  }
}

export interface PoolState {
  /** Connections this instance may use at once (PGlite: PGLITE_CONNECTIONS, sharing one backend). */
  size: number;
  /** Connections in use, by small and heavy (Db.heavy) work. */
  busy: { small: number; heavy: number };
  /** Statements and transactions waiting for a connection, by kind. */
  waiting: { small: number; heavy: number };
}

/** PostgreSQL did not answer at start: a problem of the environment, reported in one line. */
export class DatabaseUnavailableError extends Error {
  constructor(databaseUrl: string, reason: string, setting = 'DATABASE_URL') {
    const url = new URL(databaseUrl);
    super(`Cannot use the database ${url.host}${url.pathname} (${setting}): ${reason}`);
  }
}

/** A heavy statement (Db.heavy) that did not finish within HEAVY_QUERY_TIMEOUT_MS, waiting included. */
export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The query did not finish within ${timeoutMs} ms (HEAVY_QUERY_TIMEOUT_MS)`);
  }
}

/**
 * Small work (requests, background jobs) that waited past DB_LOCK_TIMEOUT_MS for a lock, or ran past
 * DB_STATEMENT_TIMEOUT_MS (PostgreSQL SQLSTATE 55P03 or 57014): its transaction was rolled back. Answered 503 with
 * Retry-After (docs/behaviour.md §2).
 */
export class DatabaseBusyError extends Error {
  constructor(readonly reason: 'lock' | 'statement') {
    super(
      reason === 'lock'
        ? 'The database is busy: a row this request changes stayed locked longer than DB_LOCK_TIMEOUT_MS; nothing of this request was written, retry'
        : 'The database is busy: a statement of this request ran longer than DB_STATEMENT_TIMEOUT_MS; nothing of this request was written, retry',
    );
  }
}

export interface DbOptions {
  /** Where statements go: PostgreSQL, or a transaction-mode pooler in front of it (PgBouncer). */
  databaseUrl?: string;
  /** A direct connection to the same primary, for LISTEN (a pooler in transaction mode delivers no notifications); databaseUrl when unset. */
  directUrl?: string;
  /**
   * Whether statements with parameters get names (parsed once per connection): only safe when every
   * statement of a connection reaches one server session (a direct connection, or a pooler that carries
   * named statements). Default: true. PGlite always names them (its connections name theirs apart in its one session).
   */
  preparedStatements?: boolean;
  /** The setting databaseUrl comes from, for the start-up error (DATABASE_URL unless given). */
  urlSetting?: string;
  /** PGlite data directory, or "memory". Ignored when databaseUrl is set. */
  dataDir?: string;
  /** HEAVY_QUERY_TIMEOUT_MS; without it heavy statements only yield to small ones. */
  heavyQueryTimeoutMs?: number;
  /**
   * DB_LOCK_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS: PostgreSQL bounds of small work's statements. On a direct
   * connection they are its session's while small work holds it; through a pooler (directUrl another server) each
   * transaction sets them with SET LOCAL. PGlite has one session, so no lock waits, and no statement timer. Without
   * them (the CLI) small work is unbounded.
   */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** DATABASE_READ_URL: a streaming replica of the primary for Db.reads (PostgreSQL only). */
  readUrl?: string;
  /** How reads use the replica (DATABASE_READ_WAIT_MS, DATABASE_READ_MAX_LAG_MS, where to log); with readUrl. */
  replica?: ReplicaOptions;
}

/**
 * The database a configuration names (README's configuration table, docs/operations.md "Connection
 * pooling"): statements to DATABASE_URL, LISTEN (and migrations, src/db/migrate.ts) to DATABASE_DIRECT_URL,
 * named statements per DATABASE_PREPARED_STATEMENTS (`auto`: only when DATABASE_URL is the direct connection).
 * Without `bounded` (the CLI) no timeout applies: HEAVY_QUERY_TIMEOUT_MS, DB_LOCK_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS bound requests.
 */
export function dbOptionsOf(
  config: Pick<
    Config,
    | 'databaseUrl'
    | 'databaseDirectUrl'
    | 'databasePreparedStatements'
    | 'dataDir'
    | 'heavyQueryTimeoutMs'
    | 'dbLockTimeoutMs'
    | 'dbStatementTimeoutMs'
    | 'databaseReadUrl'
    | 'databaseReadWaitMs'
    | 'databaseReadMaxLagMs'
  >,
  bounded = true,
): DbOptions {
  const direct = (config.databaseDirectUrl ?? config.databaseUrl) === config.databaseUrl;
  return {
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    heavyQueryTimeoutMs: bounded ? config.heavyQueryTimeoutMs : undefined,
    lockTimeoutMs: bounded ? config.dbLockTimeoutMs : undefined,
    statementTimeoutMs: bounded ? config.dbStatementTimeoutMs : undefined,
    preparedStatements: config.databasePreparedStatements === 'on' || (config.databasePreparedStatements === 'auto' && direct),
    // The CLI (unbounded) serves no client's reads: only serve uses the replica.
    readUrl: bounded ? config.databaseReadUrl : undefined,
    replica: { waitMs: config.databaseReadWaitMs, maxLagMs: config.databaseReadMaxLagMs },
  };
}

/** PostgreSQL connections of one instance; heavy work may hold at most half, so small requests always find one. */
export const POSTGRES_CONNECTIONS = 10;
export const POSTGRES_HEAVY_CONNECTIONS = 5;
/**
 * node-postgres connections to PGlite's one backend (src/db/pglite-thread.ts): while one of them reads an answer on
 * the main thread, the worker runs the next one's statement instead of waiting. Only one transaction is open at a
 * time; statements outside one go in the order they were sent.
 */
export const PGLITE_CONNECTIONS = 4;

/**
 * One code path for both engines: node-postgres talks to PostgreSQL over TCP,
 * or to PGlite through connections of its own (PGLITE_CONNECTIONS sharing PGlite's one backend). PGlite
 * itself runs in a worker thread (src/db/pglite-thread.ts) so its queries never
 * block the event loop. Either way, statements go through Lanes, which start small
 * ones before queued heavy ones.
 */
export async function openDb(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POSTGRES_CONNECTIONS });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    // A client in use can report an error after its statement has failed: PgBouncer sends "server conn crashed?" after
    // the backend's own error when the server ends the connection. The statement's caller has the error already; an
    // unheard 'error' event would end the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    try {
      await pool.query('select 1');
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new DatabaseUnavailableError(options.databaseUrl, (error as Error).message, options.urlSetting);
    }
    const listenUrl = options.directUrl ?? options.databaseUrl;
    const replica = options.readUrl ? openReplica(options.readUrl, options) : undefined;
    const positions = new WritePositions();
    return poolDb(
      pool,
      'postgres',
      new Lanes(POSTGRES_CONNECTIONS, POSTGRES_HEAVY_CONNECTIONS),
      options,
      {
        listen: (channel, handler) => listenWithClient(listenUrl, channel, handler),
        // Forced: the connections still running statements are dropped when the process exits.
        close: async (force) => {
          await Promise.all([finishedBefore(pool.end(), force), replica?.close({ force })]);
        },
      },
      replica && { positions, reads: (heavy) => routedReads(heavy, replica.heavy, positions, options.replica ?? REPLICA_DEFAULTS) },
    );
  }
  const dataDir = options.dataDir ?? './data';
  let lock: DirectoryLock | undefined;
  let directory = 'memory://';
  if (dataDir !== 'memory') {
    directory = path.resolve(dataDir);
    mkdirSync(directory, { recursive: true });
    lock = acquireDirectoryLock(directory);
  }
  const lite = new PGliteThread(directory);
  const localListeners = new Set<{ channel: string; handler: (payload: string) => void }>();
  try {
    await lite.waitReady;
  } catch (error) {
    await lite.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const connections = pgliteConnections(lite);
  // Never closed when idle: a connection's statements stay prepared in the backend for as long as it runs.
  const pool = new pg.Pool({ max: PGLITE_CONNECTIONS, idleTimeoutMillis: 0, Client: connections.Client });
  // A thread ended mid-statement (a forced close) fails the running statement, and its client
  // reports it as an 'error' event too: the statement's caller has it already.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return poolDb(pool, 'pglite', new Lanes(PGLITE_CONNECTIONS, 1, true), options, {
    commitWithNextStatement: (client) => connections.of(client).session.commitWithNextStatement(),
    statementPrefix: (client) => connections.of(client).prefix,
    // One process holds a PGlite directory (its lock), so every listener is in this one: a notification goes to
    // them directly, and costs no statement on the one backend the writes need.
    async listen(channel, handler) {
      const entry = { channel, handler };
      localListeners.add(entry);
      return async () => void localListeners.delete(entry);
    },
    notify(channel, payload) {
      for (const listener of localListeners) if (listener.channel === channel) listener.handler(payload);
    },
    async close(force) {
      try {
        const clean = (async () => {
          await pool.end();
          await lite.close();
        })();
        if (await finishedBefore(clean, force)) return;
        clean.catch(() => undefined);
        // A statement still runs and PGlite cannot cancel it: end its thread, then open the directory once
        // more, which recovers it as after a crash, and close it cleanly (nothing to do for a memory database).
        await lite.terminate();
        if (dataDir === 'memory') return;
        const again = new PGliteThread(directory);
        await again.waitReady.finally(() => again.close());
      } finally {
        lock?.release();
      }
    },
  });
}

/**
 * PGLITE_CONNECTIONS node-postgres connections to PGlite's one backend, as the `Client` of a pg.Pool. Every statement
 * they prepare lives in that one backend, so each names its statements apart (`prefix`). A connection (with
 * the list of statements it has prepared) goes to the client that takes its place.
 */
function pgliteConnections(lite: PGliteThread) {
  const free = Array.from({ length: PGLITE_CONNECTIONS }, (_, index) => {
    const session = lite.session();
    return { session, prefix: `c${index}_`, config: { connection: new PGliteConnection(session) } };
  });
  const taken = new WeakMap<object, (typeof free)[number]>();
  class Client extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      const connection = free.pop();
      if (!connection) throw new Error('Every PGlite connection is taken');
      super({ ...config, ...connection.config });
      taken.set(this, connection);
      this.once('end', () => free.push(connection));
    }
  }
  return {
    Client,
    of(client: pg.PoolClient) {
      const connection = taken.get(client);
      if (!connection) throw new Error('Not a PGlite connection');
      return connection;
    },
  };
}

const REPLICA_DEFAULTS: ReplicaOptions = { waitMs: 1000, maxLagMs: 10_000 };

/**
 * The read replica's own pool and lanes (heavy work only, bounded by HEAVY_QUERY_TIMEOUT_MS like the primary's). It
 * need not answer at start: a replica down is skipped (src/db/replica.ts), the service starts and answers from the primary.
 */
function openReplica(readUrl: string, options: DbOptions): Db {
  const pool = new pg.Pool({ connectionString: readUrl, max: POSTGRES_HEAVY_CONNECTIONS, connectionTimeoutMillis: 2000 });
  pool.on('error', () => {
    // An idle client lost its connection (the replica restarted); the pool replaces it on next use.
  });
  const lanes = new Lanes(POSTGRES_HEAVY_CONNECTIONS, POSTGRES_HEAVY_CONNECTIONS);
  return poolDb(pool, 'postgres', lanes, options, {
    listen: () => Promise.reject(new Error('No LISTEN on the read replica')),
    close: async (force) => void (await finishedBefore(pool.end(), force)),
  });
}

/** Whether `work` settled before `signal` fired (always, without a signal); it throws what `work` throws. */
export async function finishedBefore(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) {
    await work;
    return true;
  }
  if (signal.aborted) return false;
  let onAbort!: () => void;
  const aborted = new Promise<false>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve(false)), { once: true }));
  try {
    return await Promise.race([work.then(() => true), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** How long a lost LISTEN connection waits before connecting again. */
const RELISTEN_DELAY_MS = 1000;

/** LISTEN on a dedicated PostgreSQL connection, reconnected when it fails. */
async function listenWithClient(databaseUrl: string, channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => message.channel === channel && handler(message.payload ?? ''));
    const reconnect = () => {
      if (stopped || client !== next) return;
      client = undefined;
      next.end().catch(() => undefined);
      retry = setTimeout(() => connect().catch(reconnect), RELISTEN_DELAY_MS);
    };
    next.on('error', reconnect);
    next.on('end', reconnect);
    client = next;
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/**
 * Sends notifications without waiting for them, batched: while one statement is
 * in flight, the next ones gather (duplicates merged) and go out together in one
 * statement, so a busy instance sends far fewer statements than it commits.
 */
class Notifier {
  #db: Queryable | undefined;
  #pending = new Map<string, Set<string>>();
  #sending: Promise<void> | undefined;

  readonly #local: ((channel: string, payload: string) => void) | undefined;

  /** `local`: the session delivers notifications itself (PGlite); they then go to it on the next turn of the loop. */
  constructor(local?: (channel: string, payload: string) => void) {
    this.#local = local;
  }

  /** Where the notifications go; set once the database exists. */
  attach(db: Queryable): void {
    this.#db = db;
  }

  send(channel: string, payload: string): void {
    const local = this.#local;
    if (local) {
      setImmediate(() => local(channel, payload));
      return;
    }
    let payloads = this.#pending.get(channel);
    if (!payloads) this.#pending.set(channel, (payloads = new Set()));
    payloads.add(payload);
    this.#sending ??= this.#flush().finally(() => (this.#sending = undefined));
  }

  async #flush(): Promise<void> {
    while (this.#pending.size > 0) {
      const batch = [...this.#pending].flatMap(([channel, payloads]) => [...payloads].map((payload) => [channel, payload]));
      this.#pending = new Map();
      await this.#db
        ?.query('select pg_notify(n.channel, n.payload) from unnest($1::text[], $2::text[]) as n (channel, payload)', [
          batch.map(([channel]) => channel),
          batch.map(([, payload]) => payload),
        ])
        // A lost notification only delays its listeners (see Transaction.notifyAfterCommit).
        .catch(() => undefined);
    }
  }

  /** Waits for the notifications already asked for. */
  async drain(): Promise<void> {
    await this.#sending;
  }
}

/** What differs between the engines' sessions: LISTEN (given the database to run statements on) and closing. */
interface Session {
  listen(channel: string, handler: (payload: string) => void, db: Queryable): Promise<() => Promise<void>>;
  close(force?: AbortSignal): Promise<void>;
  /** Sends the commit with the next statement (PGlite: Transaction.last). */
  commitWithNextStatement?(client: pg.PoolClient): void;
  /** What the names of a connection's prepared statements start with (PGlite: each its own, in the one backend). */
  statementPrefix?(client: pg.PoolClient): string;
  /** Delivers a committed notification to the listeners itself (PGlite), instead of PostgreSQL's NOTIFY. */
  notify?(channel: string, payload: string): void;
}

/**
 * How long a heavy statement waits at most while small ones keep starting ahead of it: under a
 * sustained stream of small work (writes at many connections) queued small work is never gone,
 * and without a bound the heavy lane (statistics, the legacy export, table maintenance) would
 * never get a turn.
 */
export const HEAVY_MAX_WAIT_MS = 1000;

interface Queued {
  start: () => void;
  /** When it was queued (performance.now()), and how many small statements had started by then. */
  queuedAt: number;
  smallStartsBefore: number;
}

/**
 * Admits work onto the connections: at most `capacity` at once (the pool's size, so the
 * pool itself never queues), at most `heavyCapacity` of them heavy, and queued small work
 * before queued heavy work, except that a heavy statement that has waited HEAVY_MAX_WAIT_MS
 * while small ones started goes next. On PGlite's one backend this is what keeps a health
 * check or a GET from waiting behind a queue of statistics requests, without starving them.
 */
class Lanes {
  #active = 0;
  #activeHeavy = 0;
  #smallStarts = 0;
  readonly #queued = { small: [] as Queued[], heavy: [] as Queued[] };

  constructor(
    readonly capacity: number,
    readonly heavyCapacity: number,
    /**
     * The connections share one backend (PGlite, see PGLITE_CONNECTIONS), which runs one statement at a time: a heavy
     * statement runs with nothing beside it, and a new statement waits while any runs.
     */
    readonly oneBackend = false,
  ) {}

  /** When a connection was last free: the last time a statement started or finished (performance.now()). */
  #lastFree = performance.now();

  /** A new statement would wait: no connection is free, or on one backend a statement runs. */
  get busy(): boolean {
    return this.oneBackend ? this.#active > 0 : this.#active >= this.capacity;
  }

  /** How long the connections have been busy (see `busy`) without a statement starting or ending (0 while not busy). */
  get busyForMs(): number {
    return this.busy ? performance.now() - this.#lastFree : 0;
  }

  get state(): PoolState {
    return {
      size: this.capacity,
      busy: { small: this.#active - this.#activeHeavy, heavy: this.#activeHeavy },
      waiting: { small: this.#queued.small.length, heavy: this.#queued.heavy.length },
    };
  }

  /** Waits for a turn (or rejects with `signal`'s reason), then holds it until `release` is called. */
  acquire(heavy: boolean, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const queue = heavy ? this.#queued.heavy : this.#queued.small;
      const start = () => {
        signal?.removeEventListener('abort', abandon);
        // A connection was free until now.
        this.#lastFree = performance.now();
        this.#active++;
        if (heavy) this.#activeHeavy++;
        else this.#smallStarts++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#lastFree = performance.now();
          this.#active--;
          if (heavy) this.#activeHeavy--;
          this.#dispatch();
        });
      };
      const entry: Queued = { start, queuedAt: performance.now(), smallStartsBefore: this.#smallStarts };
      const abandon = () => {
        queue.splice(queue.indexOf(entry), 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', abandon, { once: true });
      queue.push(entry);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#active < this.capacity) {
      if (this.oneBackend && this.#activeHeavy > 0) return;
      const heavyTurn = this.#activeHeavy < this.heavyCapacity && (!this.oneBackend || this.#active === 0);
      const [oldestHeavy] = this.#queued.heavy;
      const overdue =
        oldestHeavy !== undefined &&
        this.#smallStarts > oldestHeavy.smallStartsBefore &&
        performance.now() - oldestHeavy.queuedAt >= HEAVY_MAX_WAIT_MS;
      // A heavy statement that runs alone and is overdue: nothing new starts until the running ones have ended.
      if (this.oneBackend && overdue && !heavyTurn) return;
      const next =
        (heavyTurn && overdue ? this.#queued.heavy.shift() : undefined) ??
        this.#queued.small.shift() ??
        (heavyTurn ? this.#queued.heavy.shift() : undefined);
      if (!next) return;
      next.start();
    }
  }
}

/** At most this many statement texts get a name; the rest are parsed on every use (dynamic SQL must not grow the cache without end). */
const NAMED_STATEMENTS_LIMIT = 500;
const statementNames = new Map<string, string>();

/**
 * The query as node-postgres runs it: a statement with parameters gets a name of
 * its own (the same for the same text in every connection), so each connection
 * parses it once and later only binds and executes it. On PGlite, whose one
 * connection is always the same session, that halves the work of a small write.
 * Without `named` (a transaction-mode pooler, whose next transaction may run on
 * another server session: PgBouncer before 1.21 answers `prepared statement
 * "cs_1" already exists` or `does not exist`) the statement is unnamed, parsed
 * each time.
 */
function preparedQuery(sql: string, params: unknown[] | undefined, named: boolean, prefix = ''): pg.QueryConfig {
  // Without parameters node-postgres uses the simple protocol, which also runs several statements (migrations).
  if (!params || params.length === 0 || !named) return { text: sql, values: params };
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < NAMED_STATEMENTS_LIMIT) {
    name = `cs_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return { text: sql, values: params, name: name === undefined ? undefined : prefix + name };
}

/** An error without a SQLSTATE: the database did not answer at all (a connection lost, the PGlite worker gone). */
const isUnreachable = (error: unknown) => !/^[0-9A-Z]{5}$/.test(String((error as { code?: unknown }).code));

/** A single statement that writes: on PostgreSQL, small ones run in a bounded transaction of their own. */
const WRITE_STATEMENT = /^\s*(insert|update|delete|merge|with)\b/i;

/** With a read replica: where write positions go, and the heavy lane routed to the replica (src/db/replica.ts). */
interface ReadRouting {
  positions: WritePositions;
  reads: (heavy: Db) => Db;
}

/**
 * Commits, and with read-your-writes tracked tells `positions` where the primary's WAL is once a transaction that
 * wrote (one with a transaction id) has committed: in the commit's round trip, so a write pays no extra one.
 */
async function commit(client: pg.PoolClient, positions: WritePositions | undefined): Promise<void> {
  if (!positions) {
    await client.query('commit');
    return;
  }
  const [written, , position] = (await client.query(
    'select pg_current_xact_id_if_assigned() is not null as wrote; commit; select pg_current_wal_lsn()::text as lsn',
  )) as unknown as [pg.QueryResult<{ wrote: boolean }>, pg.QueryResult, pg.QueryResult<{ lsn: string }>];
  if (firstRow(written.rows).wrote) positions.committed(firstRow(position.rows).lsn);
}

function poolDb(pool: pg.Pool, engine: Db['engine'], lanes: Lanes, options: DbOptions, session: Session, routing?: ReadRouting): Db {
  const heavyTimeoutMs = options.heavyQueryTimeoutMs;
  const named = engine === 'pglite' || (options.preparedStatements ?? true);
  const postgres = engine === 'postgres';
  const bounds = Object.entries({ lock_timeout: options.lockTimeoutMs, statement_timeout: options.statementTimeoutMs }).flatMap(
    ([setting, ms]) => (postgres && ms !== undefined ? [{ setting, value: Math.trunc(ms) }] : []),
  );
  // A transaction-mode pooler when the direct connection is another (as dbOptionsOf reads DATABASE_DIRECT_URL): a
  // connection's next transaction may run on another server session, so nothing is set for a session.
  const pooled = options.directUrl !== undefined && options.directUrl !== options.databaseUrl;
  const pooledBounds = pooled && bounds.length > 0;
  /**
   * Small work's bounds as its direct connection's session settings: set when small work takes a connection that
   * lacks them, reset when heavy work takes one that has them (heavy work has bounds of its own).
   */
  const sessionBounds =
    !pooled && bounds.length > 0
      ? {
          set: bounds.map(({ setting, value }) => `set ${setting} = ${value}`).join('; '),
          reset: bounds.map(({ setting }) => `reset ${setting}`).join('; '),
        }
      : undefined;
  const boundedSessions = new WeakSet<pg.PoolClient>();
  async function boundSession(client: pg.PoolClient, bounded: boolean): Promise<void> {
    if (!sessionBounds || boundedSessions.has(client) === bounded) return;
    await client.query(bounded ? sessionBounds.set : sessionBounds.reset);
    if (bounded) boundedSessions.add(client);
    else boundedSessions.delete(client);
  }
  /** What starts a transaction of small work: through a pooler it sets the bounds too (one round trip, as `begin` alone). */
  const smallBegin = pooledBounds ? `begin; ${bounds.map(({ setting, value }) => `set local ${setting} = ${value}`).join('; ')}` : 'begin';
  /**
   * What a single write of small work runs in: a transaction of its own only to set its bounds (through a pooler) or
   * to learn where the WAL is once it has committed (read-your-writes on a replica, `commit`).
   */
  const writeBegin = pooledBounds || (postgres && routing) ? smallBegin : undefined;
  /**
   * Otherwise, on PostgreSQL a transaction whose only statement is its last runs that statement alone, which PostgreSQL
   * makes atomic by itself: no `begin` and `commit` round trips around the one write of a message or a create.
   */
  const oneStatementAlone = postgres && writeBegin === undefined;
  /** A bound reached by small work becomes DatabaseBusyError; anything else passes. */
  const busy = (error: unknown) => {
    const code = (error as { code?: unknown }).code;
    return code === '55P03' ? new DatabaseBusyError('lock') : code === '57014' ? new DatabaseBusyError('statement') : error;
  };
  const notifier = new Notifier(session.notify);
  /** The last way the database failed to answer, cleared by any answer; what /readyz reports while all connections are busy. */
  let unreachable: Error | undefined;

  /**
   * Runs fn on a connection of its own once the lanes admit it, bounded by `timeoutMs` when given. On PostgreSQL
   * `fn` gets the statement opening a transaction bounded by what is left of `timeoutMs` (`set local
   * statement_timeout`: it ends with the transaction, so nothing outlives the turn, also through a pooler).
   */
  async function withClient<T>(
    heavy: boolean,
    timeoutMs: number | undefined,
    fn: (client: pg.PoolClient, boundedBegin: (() => string) | undefined) => Promise<T>,
  ): Promise<T> {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const deadline = timeoutMs === undefined ? 0 : Date.now() + timeoutMs;
    const release = await lanes.acquire(heavy, signal).catch((error) => {
      throw signal?.aborted ? new QueryTimeoutError(timeoutMs as number) : error;
    });
    // PostgreSQL cancels the statement itself; PGlite has no timers (its statement_timeout is ignored).
    const timedBegin =
      engine === 'postgres' && timeoutMs !== undefined
        ? () => `begin; set local statement_timeout = ${Math.max(1, deadline - Date.now())}`
        : undefined;
    let client: pg.PoolClient | undefined;
    const work = (async () => {
      client = await pool.connect();
      await boundSession(client, !heavy);
      return fn(client, timedBegin);
    })();
    const finished = work.then(
      () => (unreachable = undefined),
      (error) => (unreachable = isUnreachable(error) ? (error as Error) : undefined),
    );
    void finished.finally(() => {
      client?.release();
      release();
    });
    try {
      // On PGlite a statement past its time cannot be stopped: the caller stops waiting, its turn ends when the statement does.
      return await (signal ? Promise.race([work, rejectOnAbort(signal, timeoutMs as number)]) : work);
    } catch (error) {
      throw (error as { code?: string }).code === '57014' && timeoutMs !== undefined ? new QueryTimeoutError(timeoutMs) : error;
    }
  }

  function view(heavy: boolean, timeoutMs: number | undefined): Db {
    // Heavy work has its own bound (HEAVY_QUERY_TIMEOUT_MS) or none (maintenance).
    const begin = heavy ? 'begin' : smallBegin;
    const db: Db = {
      engine,
      query: (sql, params) =>
        withClient(heavy, timeoutMs, async (client, timedBegin) => {
          const query = preparedQuery(sql, params as unknown[], named, session.statementPrefix?.(client));
          // A heavy statement with a timeout runs in a transaction of its own, which its timeout ends with.
          const bounded = heavy ? timedBegin?.() : WRITE_STATEMENT.test(sql) ? writeBegin : undefined;
          if (!bounded) {
            try {
              return (await client.query(query)) as never;
            } catch (error) {
              throw heavy ? error : busy(error);
            }
          }
          await client.query(bounded);
          try {
            const result = await client.query(query);
            await commit(client, heavy ? undefined : routing?.positions);
            return result as never;
          } catch (error) {
            await client.query('rollback').catch(() => undefined);
            throw heavy ? error : busy(error);
          }
        }),
      transaction: (fn) =>
        withClient(heavy, timeoutMs, async (client, timedBegin) => {
          const notifications: [string, string][] = [];
          const send = (sql: string, params: unknown[] | undefined) =>
            client.query(preparedQuery(sql, params as unknown[], named, session.statementPrefix?.(client))) as never;
          let open = false;
          let ended = false;
          const opened = async () => {
            if (open) return;
            open = true;
            await client.query(timedBegin?.() ?? begin);
          };
          const run = async (sql: string, params: unknown[] | undefined) => {
            if (ended) throw new Error(`A statement after the transaction's last one: ${sql}`);
            await opened();
            return send(sql, params);
          };
          try {
            // Else opened by the first statement, unless that is the last.
            if (!oneStatementAlone || heavy) await opened();
            const result = await fn({
              query: run,
              notifyAfterCommit: (channel, payload) => void notifications.push([channel, payload]),
              alone: engine === 'pglite',
              last: {
                query: (sql, params) => {
                  if (!ended) session.commitWithNextStatement?.(client);
                  const answer = open || ended ? run(sql, params) : send(sql, params);
                  ended = true;
                  return answer;
                },
              },
            });
            if (open) await commit(client, heavy ? undefined : routing?.positions);
            for (const [channel, payload] of notifications) notifier.send(channel, payload);
            return result;
          } catch (error) {
            if (open) await client.query('rollback').catch(() => undefined);
            throw heavy ? error : busy(error);
          }
        }),
      get heavy() {
        return heavyView;
      },
      get maintenance() {
        return maintenanceView;
      },
      get reads() {
        return readsView;
      },
      replicaState: () => (readsView === heavyView ? undefined : readsView.replicaState()),
      async ping() {
        if (lanes.busy) {
          if (unreachable) throw unreachable;
          // Busy is ready while statements finish; not once none has for SATURATED_AFTER_MS (a statement
          // that PGlite cannot stop, every connection held by waiting transactions): new work would only queue.
          const busyForMs = lanes.busyForMs;
          if (busyForMs >= SATURATED_AFTER_MS) throw new DatabaseSaturatedError(busyForMs);
          return;
        }
        await smallView.query('select 1');
      },
      poolState: () => lanes.state,
      listen: (channel, handler) => session.listen(channel, handler, smallView),
      async close(options) {
        await finishedBefore(notifier.drain(), options?.force);
        await session.close(options?.force);
      },
    };
    return db;
  }
  const smallView = view(false, undefined);
  const heavyView = view(true, heavyTimeoutMs);
  const maintenanceView = view(true, undefined);
  const readsView = routing ? routing.reads(heavyView) : heavyView;
  notifier.attach(smallView);
  return smallView;
}

function rejectOnAbort(signal: AbortSignal, timeoutMs: number): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new QueryTimeoutError(timeoutMs)), { once: true }));
}

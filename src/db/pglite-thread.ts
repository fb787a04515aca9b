import { Worker } from 'node:worker_threads';
import { EventEmitter, once } from 'node:events';
import { serialize } from 'pg-protocol';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { itemAt } from '../arrays.ts';

type WorkerReply =
  | { type: 'ready' | 'closed' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; bytes: Uint8Array }
  | { type: 'error'; id: number; message: string };

/** Parse, Bind, Describe, Execute and Close: frontend messages the backend answers only at the next Sync (or Flush). */
const HELD_MESSAGE_TYPES = new Set(['P', 'B', 'D', 'E', 'C'].map((type) => type.charCodeAt(0)));

const QUERY = 'Q'.charCodeAt(0);

/** The text of a simple-protocol Query message (`Q`, its length, the statement text ending in NUL); null for any other message. */
function simpleQueryText(bytes: Uint8Array): string | null {
  if (bytes[0] !== QUERY || bytes.length < 6) return null;
  const message = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.min(1 + message.readInt32BE(1), message.length);
  return message.toString('utf8', 5, end).replace(/\0$/, '');
}

/** A simple-protocol `commit` or `rollback`: how src/db/db.ts ends every transaction. */
const isTransactionEnd = (bytes: Uint8Array) => /^\s*(commit|rollback)\s*;?\s*$/i.test(simpleQueryText(bytes) ?? '');

/** The Query message `commit`, sent after a transaction's last statement in the same trip. */
const COMMIT_QUERY = (() => {
  const text = Buffer.from('commit\0');
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
})();

/**
 * Whether a frontend message is a simple-protocol `begin` (how src/db/db.ts opens every transaction):
 * a Query message (`Q`, its length, the statement text ending in NUL) whose text is `begin`, in any case,
 * with any surrounding blanks and an optional `;`.
 */
export function isBegin(bytes: Uint8Array): boolean {
  return /^\s*begin\s*;?\s*$/i.test(simpleQueryText(bytes) ?? '');
}

/** What the backend answers to `begin`: CommandComplete "BEGIN", then ReadyForQuery in a transaction. */
const BEGIN_ANSWER = Buffer.from([
  ...Buffer.from('C'),
  0,
  0,
  0,
  10,
  ...Buffer.from('BEGIN\0'),
  ...Buffer.from('Z'),
  0,
  0,
  0,
  5,
  ...Buffer.from('T'),
]);

interface Waiter {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

/** PGlite refused to open (or, for a restore, to unpack) a data directory; `reason` is PGlite's own message. */
export class PGliteOpenError extends Error {
  constructor(
    dataDir: string,
    readonly reason: string,
  ) {
    super(`PGlite could not open ${dataDir}: ${reason}`);
  }
}

/**
 * PGlite running in a worker thread, driven by node-postgres through a connection per
 * session (`session()`, `PGliteConnection`). So node-postgres stays the one code path, and
 * the event loop stays free while a query runs: in-thread PGlite froze every request
 * for as long as a query took.
 *
 * PGlite has one backend session; several node-postgres connections share it through
 * sessions of this thread. A trip to the worker is queued there behind the ones sent
 * before it, so the worker goes from one to the next without waiting for the main
 * thread to read an answer. What keeps the connections apart is that while one of them
 * has a transaction open (from its `begin` to its commit or rollback), the others'
 * trips wait here and go in the order they came once it has sent its end.
 */
export class PGliteThread {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Waiter>();
  #nextId = 1;
  /** The session whose transaction is open: only its trips may go to the worker. */
  #owner: PGliteSession | undefined;
  /** Trips of other sessions waiting for the owner's transaction to end, in the order they came. */
  readonly #waiting: (() => void)[] = [];
  #closing: Promise<void> | undefined;

  /** `loadDataDir`: a backup to unpack into the (empty) directory before opening it. */
  constructor(dataDir: string, options: { loadDataDir?: Uint8Array } = {}) {
    this.#worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir, loadDataDir: options.loadDataDir },
    });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') resolve();
        else if (reply.type === 'failed') reject(new PGliteOpenError(dataDir, reply.message));
        else if (reply.type === 'result' || reply.type === 'error') this.#settle(reply);
      });
      this.#worker.on('error', (error) => {
        reject(error);
        this.#failAll(error);
      });
      this.#worker.on('exit', () => this.#failAll(new Error('The PGlite worker stopped')));
    });
  }

  /** A connection's view of the one backend session (what a PGliteConnection sends its messages through). */
  session(): PGliteSession {
    return new PGliteSession(this);
  }

  #settle(reply: Extract<WorkerReply, { id: number }>): void {
    const waiter = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (reply.type === 'result') waiter?.resolve(reply.bytes);
    else waiter?.reject(new Error(reply.message));
  }

  #failAll(error: Error): void {
    for (const waiter of this.#pending.values()) waiter.reject(error);
    this.#pending.clear();
  }

  /**
   * Sends one trip of `session` to the worker, after the trips sent before it, once no other session has a
   * transaction open. `open`: the session's transaction is still open after this trip.
   */
  exchange(session: PGliteSession, bytes: Uint8Array, open: boolean): Promise<Uint8Array> {
    if (this.#owner !== undefined && this.#owner !== session) {
      return new Promise((resolve, reject) => {
        this.#waiting.push(() => this.exchange(session, bytes, open).then(resolve, reject));
      });
    }
    this.#owner = open ? session : undefined;
    const reply = this.#request({ type: 'query', bytes });
    while (this.#owner === undefined && this.#waiting.length > 0) this.#waiting.shift()?.();
    return reply;
  }

  /** The whole data directory as a gzipped tarball (PGlite's dumpDataDir), for `chat-service backup`. */
  dumpDataDir(): Promise<Uint8Array> {
    return this.#request({ type: 'dump' });
  }

  #request(message: { type: 'query'; bytes: Uint8Array } | { type: 'dump' }): Promise<Uint8Array> {
    const id = this.#nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  /**
   * Ends the thread at once, even in the middle of a statement (PGlite cannot cancel one): the
   * directory is left as after a crash, which the next open recovers (src/db/db.ts closes it that way
   * when a statement outlives the shutdown's bound). Pending statements fail.
   */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }

  /** Closes PGlite cleanly (it flushes its files), then ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const exited = once(this.#worker, 'exit');
      const closed = new Promise<void>((resolve) => {
        this.#worker.on('message', (reply: WorkerReply) => reply.type === 'closed' && resolve());
      });
      this.#worker.postMessage({ type: 'close' });
      await Promise.race([closed, exited]);
      await this.#worker.terminate();
    })();
    return this.#closing;
  }
}

/** One node-postgres connection's share of the thread's backend session. */
export class PGliteSession {
  readonly waitReady: Promise<void>;
  #held: Uint8Array[] = [];
  /** Begins among the held messages, answered already: their real answers are dropped from the next reply. */
  #answeredBegins = 0;
  /** A `begin` has been answered and its commit or rollback not yet sent. */
  #open = false;
  /** The next statement is its transaction's last: a commit travels with it (commitWithNextStatement). */
  #commitWithNext = false;
  /** The answer of the commit that travelled with the last statement, for the transaction's end to take. */
  #commitAnswer: BackendMessage[] | undefined;

  readonly #thread: PGliteThread;

  constructor(thread: PGliteThread) {
    this.#thread = thread;
    this.waitReady = thread.waitReady;
  }

  /**
   * node-postgres sends a parameterised statement as five messages (Parse, Bind, Describe,
   * Execute, Sync), which its connection hands over one call each. Those that only queue work
   * are held here and sent with the next one that asks for an answer, so a statement costs
   * one round trip to the worker, not five; their replies arrive in order with that answer.
   * A transaction's `begin` is held too and answered at once (it cannot fail: there is never
   * a transaction open in this session when it comes), so it travels with the transaction's first statement.
   */
  async send(bytes: Uint8Array): Promise<BackendMessage[]> {
    if (this.#commitAnswer) {
      const answer = this.#commitAnswer;
      this.#commitAnswer = undefined;
      // The transaction's end gets the commit's answer: COMMIT, or ROLLBACK when its last statement failed.
      if (isTransactionEnd(bytes)) return answer;
      throw new Error("A statement was sent after its transaction's last one (commitWithNextStatement)");
    }
    this.#held.push(bytes);
    const type = bytes[0];
    if (type !== undefined && HELD_MESSAGE_TYPES.has(type)) return [];
    if (isBegin(bytes)) {
      this.#answeredBegins++;
      this.#open = true;
      return parse(BEGIN_ANSWER);
    }
    const commits = this.#commitWithNext;
    if (commits) this.#held.push(COMMIT_QUERY);
    if (commits || isTransactionEnd(bytes)) this.#open = false;
    const exchange = this.#held.length === 1 ? bytes : Buffer.concat(this.#held);
    const answered = this.#answeredBegins;
    this.#held = [];
    this.#answeredBegins = 0;
    this.#commitWithNext = false;
    const response = await this.#thread.exchange(this, exchange, this.#open);
    const messages = parse(response);
    if (answered === 0 && !commits) return messages;
    // Drop the real answers of the held begins: everything up to their ReadyForQuery.
    let skipped = 0;
    let ends = 0;
    while (ends < answered && skipped < messages.length) {
      const message = itemAt(messages, skipped++);
      if (message.name === 'error') throw new Error(`PGlite could not begin a transaction: ${(message as { message?: string }).message}`);
      if (message.name === 'readyForQuery') ends++;
    }
    if (!commits) return messages.slice(skipped);
    // Keep the commit's answer (all after the statement's ReadyForQuery) for the transaction's end.
    let statementEnd = skipped;
    while (statementEnd < messages.length && itemAt(messages, statementEnd).name !== 'readyForQuery') statementEnd++;
    this.#commitAnswer = messages.slice(statementEnd + 1);
    return messages.slice(skipped, statementEnd + 1);
  }

  /**
   * The next statement is its transaction's last: the transaction's commit is sent with it, in the same trip to the
   * worker, and its answer kept for the transaction's own `commit` (or `rollback`, after a failed statement: the
   * commit of a failed transaction rolls it back), which then costs no trip. Nothing may be sent in between.
   */
  commitWithNextStatement(): void {
    this.#commitWithNext = true;
  }
}

/** The frontend messages node-postgres sends, in the shapes pg-protocol's serializer takes. */
type Serialize = typeof serialize;

/**
 * What a node-postgres Client drives in place of its TCP connection (`new pg.Client({ connection })`): the same
 * methods and events as node-postgres's own Connection. Each frontend message is serialised by pg-protocol, the
 * serializer node-postgres itself uses (PGlite's own node-postgres adapter serialises with a writer that
 * reallocates its buffer as it grows: about 50 µs to bind one message's write, against 6 µs), and goes to the session
 * after the ones sent before it; each message of the answer is emitted as node-postgres's Connection emits it.
 */
export class PGliteConnection extends EventEmitter {
  /** Statements this connection has prepared, by name: node-postgres parses a named statement only once per connection. */
  readonly parsedStatements: Record<string, string> = {};
  /** Named statements sent for parsing whose answer has not come yet. */
  readonly submittedNamedStatements: Record<string, string> = {};
  /** node-postgres destroys the stream to end a connection with a query still running. */
  readonly stream = { destroy: () => this.end() };
  /** Read by node-postgres's Client.end(): a connection never connected ends at once. */
  _connecting = false;
  readonly #session: PGliteSession;
  /** The messages sent so far, answered in order. */
  #sent: Promise<unknown>;

  constructor(session: PGliteSession) {
    super();
    this.#session = session;
    this.#sent = session.waitReady;
  }

  connect(): void {
    this._connecting = true;
    // No startup or authentication: the backend is ready once PGlite is.
    void this.#session.waitReady.then(() => process.nextTick(() => this.emit('readyForQuery')));
  }

  query(text: string): void {
    this.#send(serialize.query(text));
  }

  parse(query: Parameters<Serialize['parse']>[0]): void {
    this.#send(serialize.parse(query));
  }

  bind(config: Parameters<Serialize['bind']>[0]): void {
    this.#send(serialize.bind(config));
  }

  execute(config: Parameters<Serialize['execute']>[0]): void {
    this.#send(serialize.execute(config));
  }

  describe(message: Parameters<Serialize['describe']>[0]): void {
    this.#send(serialize.describe(message));
  }

  close(message: Parameters<Serialize['close']>[0]): void {
    this.#send(serialize.close(message));
  }

  flush(): void {
    this.#send(serialize.flush());
  }

  sync(): void {
    this.#send(serialize.sync());
  }

  /** node-postgres's pool refs the clients it hands out (and may unref idle ones): no socket here keeps the process alive. */
  ref(): void {}

  unref(): void {}

  /** Ends this client's use of the connection: the next client that takes it starts with no listeners of this one. */
  end(): void {
    this.#sent = this.#sent.then(() => this.emit('end'));
    for (const event of this.eventNames()) if (event !== 'newListener') this.removeAllListeners(event);
  }

  #send(bytes: Uint8Array): void {
    this.#sent = this.#sent
      .then(() => this.#session.send(bytes))
      .then((messages) => {
        for (const message of messages) this.emit(message.name === 'error' ? 'errorMessage' : message.name, message);
      })
      .catch((error: unknown) => this.emit('error', error));
  }
}

function parse(bytes: Uint8Array): BackendMessage[] {
  const messages: BackendMessage[] = [];
  new Parser().parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (message) => messages.push(message));
  return messages;
}

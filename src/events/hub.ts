/**
 * One per instance: learns of committed events and wakes whoever reads them
 * here (the account's open streams, the webhook worker), so readers never poll.
 *
 * Writers announce their account on EVENTS_CHANNEL after commit
 * (src/events/outbox.ts). The hub LISTENs once for the instance, steps the
 * settled horizon (src/events/horizon.ts) until it covers the ids handed out
 * before the announcement, then reads the account's newly settled events once
 * (one query for all its streams) and hands that batch to the subscriptions it
 * concerns: the account's account-wide ones, and those of the conversations the
 * batch holds events of (a visitor's stream is woken by its own conversations
 * only). Subscribing wakes nobody else: the new subscriber catches up from its own
 * cursor. The cost of an event is thus per interested stream, not per open stream
 * (docs/scaling.md). Announcements of accounts nobody here reads (no stream, no
 * webhook) cost no query. A slow safety poll finds events whose announcement was
 * lost (a dropped LISTEN connection, a crash between commit and notify): a lost
 * notification only delays. One timer for the instance calls the subscribers'
 * heartbeats (an idle stream's keep-alive comment).
 *
 * The hub also rechecks the tokens of its open streams, in one query for the
 * instance every TOKEN_CHECK_MS, so a stream ends soon after its token is
 * revoked (or its account deleted).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/db.ts';
import { ApiError } from '../http/errors.ts';
import { EventHorizon, settledEventId } from './horizon.ts';
import { EVENTS_CHANNEL } from './outbox.ts';
import { eventsAfter, type EventRow } from './repository.ts';
import { stillActiveTokens } from '../tokens/repository.ts';

/**
 * Between horizon steps while announced events are not settled yet (their writers have not all
 * finished). An id settles at the step after the one that saw it handed out, so after a step that
 * saw new ids (or moved the horizon) the next one follows at once; then 5 ms, doubling while the
 * horizon stays put, up to STEP_RETRY_MAX_MS. A write transaction left open (a psql session, a stuck
 * request) then costs a step every STEP_RETRY_MAX_MS, not 200 a second; once it ends, its events
 * settle within that.
 */
export const STEP_RETRY_MS = 5;
export const STEP_RETRY_MAX_MS = 200;
/** How often the tokens of open streams are checked for revocation. */
export const TOKEN_CHECK_MS = 2000;
/** How often the one heartbeat timer of the instance calls the subscribers' `heartbeat`. */
export const HEARTBEAT_MS = 5000;
/** Events read per query when the hub reads an account's newly settled events. */
const DISPATCH_PAGE = 1000;

/**
 * Events of one account, settled: every event of the account with an id in
 * (afterId, throughId], oldest first. The same batch (and the same row objects)
 * goes to every subscription it concerns: a subscriber must not change it.
 */
export interface SettledBatch {
  afterId: number;
  throughId: number;
  rows: readonly EventRow[];
}

/**
 * What a subscription reads: one account's events, or only those of some of its
 * conversations (a visitor's stream). The hub indexes subscriptions by account and
 * by conversation, so a batch wakes only the subscriptions it concerns.
 */
export interface SubscriptionFilter {
  accountId: string;
  /**
   * Only the events of these conversations: a batch with no event of one of them does
   * not reach the subscriber. The hub keeps this set and adds to it in
   * `Subscription.addConversation` (the subscriber may read it to filter rows).
   * Absent: every event of the account.
   */
  conversationIds?: Set<string>;
}

/** Who receives the batches of a subscription. */
export interface Subscriber {
  /**
   * Called (synchronously, from the hub) with each batch of the account's newly settled
   * events that concerns the subscription, in id order, with no gap between the batches of
   * an account-wide subscription. A conversation subscription skips the batches that hold
   * none of its conversations' events. Keep it cheap: queue the batch and return.
   */
  deliver(batch: SettledBatch): void;
  /** Called every HEARTBEAT_MS by the instance's one heartbeat timer (an idle stream sends its keep-alive). */
  heartbeat?(): void;
}

/**
 * One subscription (EventHub.subscribe). The API streams build on (src/events/stream.ts;
 * the widget's visitor stream too):
 *
 *   const sub = hub.subscribe({ accountId, conversationIds: new Set(ids) }, { deliver, heartbeat });
 *   // read the outbox after your own cursor up to sub.fromId (nobody else is woken), then take the batches
 *   sub.addConversation(newId);   // the visitor started a conversation: its events reach this subscription from now on
 *   sub.close();
 */
export interface Subscription {
  /**
   * The account's events up to this id had been handed to subscribers when this one
   * subscribed: the subscriber reads those it still needs (after its cursor, up to here)
   * from the outbox itself; every later event comes through `deliver`. Batches may
   * still start below it (skip ids at or below the cursor).
   */
  readonly fromId: number;
  /**
   * Adds a conversation to a conversation subscription (a visitor who starts a new one):
   * batches settled from now on that hold its events reach the subscriber. Events of it
   * handed out before the call are not delivered: add it before its first event commits
   * (its id is known before the insert). A no-op for an account-wide subscription.
   */
  addConversation(conversationId: string): void;
  /** Stops the deliveries and heartbeats. */
  close(): void;
}

/** The subscriptions of one account that this instance reads, and how far batches were handed out. */
interface AccountReaders {
  /** Account-wide subscriptions. */
  all: Set<Subscriber>;
  /** Conversation subscriptions, by conversation id. */
  byConversation: Map<string, Set<Subscriber>>;
  /** How many subscriptions (of either kind). */
  count: number;
  /** Batches up to this id have been handed out. */
  dispatchedThrough: number;
}

/** An instance-wide reader (the webhook worker): which accounts it reads, and what to call when theirs settle. */
interface Watcher {
  wants(accountId: string): boolean;
  wake(accountIds: readonly string[]): void;
}

export interface EventHubOptions {
  /** How often the safety poll looks for events nobody announced. */
  safetyPollMs: number;
  /** Streams one account may hold open on this instance at once (EVENT_STREAMS_PER_ACCOUNT). */
  streamsPerAccount: number;
  /** Streams this instance holds open at once (EVENT_STREAMS_PER_INSTANCE). */
  streamsPerInstance: number;
}

/** Who holds an event stream: the streams of one holder count together against its own limit. */
export interface StreamHolder {
  /** Whose streams count together: `token:<id>` for GET /v2/events, a visitor's id for the widget. */
  key: string;
  /** How many streams it may hold open on this instance at once. */
  limit: number;
  /** What the 429 calls it: "token", "visitor". */
  name: string;
}

/** Why a stream ends, besides its client going away. */
export type StreamEnd = 'closed' | 'closing' | 'revoked';

/**
 * An open stream's place on this instance, counted against the limits until released.
 * Its signal fires when the stream must end: its client went away (`end('closed')`),
 * the hub closes, or its token was revoked; the reason says which.
 */
export class StreamSlot {
  readonly #ended = new AbortController();
  readonly #release: () => void;
  #released = false;

  constructor(release: () => void) {
    this.#release = release;
  }

  get signal(): AbortSignal {
    return this.#ended.signal;
  }

  end(reason: StreamEnd): void {
    if (!this.#ended.signal.aborted) this.#ended.abort(reason);
  }

  /** Frees the place (once the stream has ended). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#release();
  }
}

const increment = (counts: Map<string, number>, key: string, by: number) => {
  const count = (counts.get(key) ?? 0) + by;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
};

export class EventHub {
  readonly #db: Db;
  readonly #options: EventHubOptions;
  readonly #horizon = new EventHorizon();
  readonly #readers = new Map<string, AccountReaders>();
  readonly #subscribers = new Set<Subscriber>();
  #wakes = 0;
  #heartbeatTimer: NodeJS.Timeout | undefined;
  readonly #watchers = new Set<Watcher>();
  /** Accounts announced since the last step began. */
  #announced = new Set<string>();
  /** Announced accounts waiting for the horizon to reach the id they need. */
  readonly #waiting = new Map<string, number>();
  #stepping: Promise<void> | undefined;
  #stepAgain = false;
  /** The wait before the next retry while announced events are not settled (0 once after progress, then STEP_RETRY_MS doubling). */
  #retryMs = STEP_RETRY_MS;
  /** The next step reads the horizon even if no reader here wants an announced account (the safety poll). */
  #stepAnyway = false;
  /** The horizon the safety poll last looked up to. */
  #polledThrough = 0;
  #safetyTimer: NodeJS.Timeout | undefined;
  /** Watched tokens by account and token id, with what to call once revoked. */
  readonly #tokens = new Map<string, { accountId: string; tokenId: string; onRevoked: Set<() => void> }>();
  #tokenTimer: NodeJS.Timeout | undefined;
  #checkingTokens: Promise<void> | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #closed = false;
  /** The open streams, by account and by holder, for the limits and for ending them all at once. */
  readonly #slots = new Set<StreamSlot>();
  readonly #streamsByAccount = new Map<string, number>();
  readonly #streamsByHolder = new Map<string, number>();
  /** The settledNow lookup running, and the one that callers arriving meanwhile wait for. */
  #settling: Promise<number> | undefined;
  #settlingNext: Promise<number> | undefined;
  /** What endStreams waits for. */
  readonly #streamsEnded: (() => void)[] = [];

  constructor(db: Db, options: EventHubOptions) {
    this.#db = db;
    this.#options = options;
  }

  /**
   * Listens, then settles the horizon up to the events committed so far (unless
   * a write transaction is still open: then the next steps settle them).
   */
  async start(): Promise<void> {
    this.#unlisten = await this.#db.listen(EVENTS_CHANNEL, (accountId) => this.announce(accountId));
    await this.#horizon.advance(this.#db);
    await this.#horizon.advance(this.#db);
    this.#polledThrough = this.#horizon.settled;
    this.#safetyTimer = setInterval(() => void this.#safetyPoll(), this.#options.safetyPollMs);
    this.#safetyTimer.unref();
    this.#tokenTimer = setInterval(
      () => (this.#checkingTokens ??= this.#checkTokens().finally(() => (this.#checkingTokens = undefined))),
      TOKEN_CHECK_MS,
    );
    this.#tokenTimer.unref();
    this.#heartbeatTimer = setInterval(() => {
      for (const subscriber of this.#subscribers) subscriber.heartbeat?.();
    }, HEARTBEAT_MS);
    this.#heartbeatTimer.unref();
  }

  /** Batches handed to subscribers since the hub started (one per subscriber woken): what a test or a benchmark counts. */
  get wakes(): number {
    return this.#wakes;
  }

  /** Every event with an id up to this one that will ever commit has committed (as far as this instance knows). */
  get settled(): number {
    return this.#horizon.settled;
  }

  /** Streams open on this instance. */
  get openStreams(): number {
    return this.#slots.size;
  }

  /**
   * A place for one more stream of the account held by `holder`, or a 429 past a limit
   * (the holder's, the account's, the instance's: docs/behaviour.md §9). Release it once
   * the stream has ended; `endStreams` and `close` end every stream holding one.
   */
  reserveStream(accountId: string, holder: StreamHolder): StreamSlot {
    const refuse = (what: string, limit: number) =>
      new ApiError(
        429,
        'too_many_requests',
        `Too many open event streams ${what}: at most ${limit} at once; close one before opening another`,
      );
    if ((this.#streamsByHolder.get(holder.key) ?? 0) >= holder.limit)
      throw refuse(`for this ${holder.name} on this instance`, holder.limit);
    if ((this.#streamsByAccount.get(accountId) ?? 0) >= this.#options.streamsPerAccount)
      throw refuse('for this account on this instance', this.#options.streamsPerAccount);
    if (this.#slots.size >= this.#options.streamsPerInstance) throw refuse('on this instance', this.#options.streamsPerInstance);
    increment(this.#streamsByAccount, accountId, 1);
    increment(this.#streamsByHolder, holder.key, 1);
    const slot = new StreamSlot(() => {
      this.#slots.delete(slot);
      increment(this.#streamsByAccount, accountId, -1);
      increment(this.#streamsByHolder, holder.key, -1);
      if (this.#slots.size === 0) for (const resolve of this.#streamsEnded.splice(0)) resolve();
    });
    this.#slots.add(slot);
    // A stream opening while the server closes ends at once: its client reconnects, to another instance.
    if (this.#closed) slot.end('closing');
    return slot;
  }

  /** Ends every open stream; resolves once they have all ended (the server is closing: before it waits for open connections). */
  async endStreams(): Promise<void> {
    for (const slot of this.#slots) slot.end('closing');
    if (this.#slots.size > 0) await new Promise<void>((resolve) => this.#streamsEnded.push(resolve));
  }

  /**
   * Where a stream that starts now begins: the settled horizon once it covers every
   * event handed out before the call (src/events/horizon.ts, settledEventId).
   */
  settledNow(): Promise<number> {
    // A call made while a lookup runs joins the next one, which starts after it (a reconnect storm
    // of thousands of streams costs a few lookups, not thousands): at most two at once.
    if (!this.#settling) return this.#settle();
    return (this.#settlingNext ??= this.#settling
      .catch(() => undefined)
      .then(() => {
        this.#settlingNext = undefined;
        return this.#settle();
      }));
  }

  #settle(): Promise<number> {
    const lookup: Promise<number> = settledEventId(this.#db).finally(() => {
      if (this.#settling === lookup) this.#settling = undefined;
    });
    this.#settling = lookup;
    return lookup;
  }

  /**
   * Steps the horizon past the account's events handed out so far, then wakes its
   * readers: what a notification does, and what a reader that starts reading an
   * account asks for (the horizon only moves for accounts somebody here reads).
   */
  announce(accountId: string): void {
    this.#announced.add(accountId);
    this.#step();
  }

  /**
   * Hands `subscriber` the batches of the account's events that settle from now on and
   * concern the filter (see Subscription for the whole API). Wakes no other subscriber:
   * the new one reads what it missed from the outbox, up to `fromId`.
   */
  subscribe(filter: SubscriptionFilter, subscriber: Subscriber): Subscription {
    const { accountId, conversationIds } = filter;
    let readers = this.#readers.get(accountId);
    if (!readers) {
      readers = { all: new Set(), byConversation: new Map(), count: 0, dispatchedThrough: this.#horizon.settled };
      this.#readers.set(accountId, readers);
      // Nobody here read this account until now: catch the horizon up with its events.
      this.announce(accountId);
    }
    const account = readers;
    const index = (conversationId: string) => {
      let subscribers = account.byConversation.get(conversationId);
      if (!subscribers) account.byConversation.set(conversationId, (subscribers = new Set()));
      subscribers.add(subscriber);
    };
    if (conversationIds) for (const conversationId of conversationIds) index(conversationId);
    else account.all.add(subscriber);
    account.count++;
    this.#subscribers.add(subscriber);
    let closed = false;
    return {
      fromId: account.dispatchedThrough,
      addConversation(conversationId) {
        if (closed || !conversationIds || conversationIds.has(conversationId)) return;
        conversationIds.add(conversationId);
        index(conversationId);
      },
      close: () => {
        if (closed) return;
        closed = true;
        this.#subscribers.delete(subscriber);
        account.all.delete(subscriber);
        for (const conversationId of conversationIds ?? []) {
          const subscribers = account.byConversation.get(conversationId);
          subscribers?.delete(subscriber);
          if (subscribers?.size === 0) account.byConversation.delete(conversationId);
        }
        if (--account.count === 0 && this.#readers.get(accountId) === account) this.#readers.delete(accountId);
      },
    };
  }

  /**
   * Calls `wake` with the accounts whose new events settled, among those `wants` accepts
   * (asked at each announcement, so it may change; `announce` an account it starts to want).
   * Returns the function that stops it.
   */
  watch(wants: (accountId: string) => boolean, wake: (accountIds: readonly string[]) => void): () => void {
    const watcher = { wants, wake };
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Whether a reader here reads the account's events: an announcement nobody wants costs no query. */
  #wanted(accountId: string): boolean {
    if (this.#readers.has(accountId)) return true;
    for (const watcher of this.#watchers) if (watcher.wants(accountId)) return true;
    return false;
  }

  /** Calls `onRevoked` once the token is revoked (or gone), within TOKEN_CHECK_MS. Returns the function that stops it. */
  watchToken(accountId: string, tokenId: string, onRevoked: () => void): () => void {
    const key = `${accountId}\u0000${tokenId}`;
    let watched = this.#tokens.get(key);
    if (!watched) this.#tokens.set(key, (watched = { accountId, tokenId, onRevoked: new Set() }));
    watched.onRevoked.add(onRevoked);
    return () => {
      watched.onRevoked.delete(onRevoked);
      if (watched.onRevoked.size === 0 && this.#tokens.get(key) === watched) this.#tokens.delete(key);
    };
  }

  /** Stops listening and polling, and ends the streams. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.endStreams();
    clearInterval(this.#safetyTimer);
    clearInterval(this.#tokenTimer);
    clearInterval(this.#heartbeatTimer);
    await this.#unlisten?.();
    await this.#stepping;
    await this.#checkingTokens;
  }

  async #checkTokens(): Promise<void> {
    if (this.#tokens.size === 0) return;
    const watched = [...this.#tokens.values()];
    try {
      const rows = await stillActiveTokens(this.#db, watched);
      const valid = new Set(rows.map((row) => `${row.account_id}\u0000${row.id}`));
      for (const token of watched) {
        const key = `${token.accountId}\u0000${token.tokenId}`;
        if (valid.has(key)) continue;
        this.#tokens.delete(key);
        for (const onRevoked of token.onRevoked) onRevoked();
      }
    } catch {
      // Checked again at the next interval.
    }
  }

  /** Steps the horizon until every announced account is settled; one run at a time. */
  #step(anyway = false): void {
    this.#stepAnyway ||= anyway;
    if (this.#stepping) {
      this.#stepAgain = true;
      return;
    }
    this.#stepping = this.#run().finally(() => (this.#stepping = undefined));
  }

  async #run(): Promise<void> {
    do {
      this.#stepAgain = false;
      // Ids of events announced before this step were handed out before it reads the sequence.
      const announced = [...this.#announced].filter((accountId) => this.#wanted(accountId));
      this.#announced = new Set();
      if (announced.length === 0 && this.#waiting.size === 0 && !this.#stepAnyway) continue;
      this.#stepAnyway = false;
      const settledBefore = this.#horizon.settled;
      const newestBefore = this.#horizon.newest;
      try {
        await this.#horizon.advance(this.#db);
      } catch {
        // The database failed: the announced accounts are looked up again by the safety poll.
        return;
      }
      for (const accountId of announced) this.#waiting.set(accountId, this.#horizon.newest);
      const progressed = this.#horizon.settled > settledBefore || this.#horizon.newest > newestBefore;
      const settled = this.#horizon.settled;
      const ready = [...this.#waiting].filter(([, through]) => through <= settled).map(([accountId]) => accountId);
      for (const accountId of ready) this.#waiting.delete(accountId);
      await this.#wake(ready);
      if (this.#waiting.size > 0 && !this.#closed) {
        // The ids just seen settle at the next step: take it at once (once); back off while the horizon stays put.
        this.#retryMs = progressed && this.#retryMs !== 0 ? 0 : Math.min(Math.max(this.#retryMs * 2, STEP_RETRY_MS), STEP_RETRY_MAX_MS);
        if (this.#retryMs > 0) await sleep(this.#retryMs);
        this.#stepAgain = true;
      } else {
        this.#retryMs = STEP_RETRY_MS;
      }
    } while (this.#stepAgain && !this.#closed);
  }

  /** Hands the accounts' newly settled events to their subscriptions, and wakes the watchers that want them. */
  async #wake(accountIds: readonly string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await Promise.all(accountIds.map((accountId) => this.#dispatch(accountId)));
    for (const watcher of this.#watchers) {
      const wanted = accountIds.filter((accountId) => watcher.wants(accountId));
      if (wanted.length > 0) watcher.wake(wanted);
    }
  }

  /**
   * Reads the account's events settled since its last batch, a page at a time, and hands
   * each page to the subscriptions it concerns. Pages of one account are read one after
   * the other (the step loop runs once at a time), so batches reach a subscriber in order.
   */
  async #dispatch(accountId: string): Promise<void> {
    const settled = this.#horizon.settled;
    for (;;) {
      const readers = this.#readers.get(accountId);
      if (!readers || readers.dispatchedThrough >= settled) return;
      const afterId = readers.dispatchedThrough;
      let rows: EventRow[];
      try {
        rows = await eventsAfter(this.#db, accountId, { afterId, throughId: settled }, DISPATCH_PAGE);
      } catch {
        // Read again at the next announcement or safety poll: the batch starts where the last one ended.
        return;
      }
      // Subscriptions made during the read got this account's `fromId` = afterId: they get this batch too.
      if (this.#readers.get(accountId) !== readers) return;
      // A full page may have more after it: this batch goes through its last row only.
      const last = rows.length === DISPATCH_PAGE ? rows.at(-1) : undefined;
      const throughId = last?.id ?? settled;
      readers.dispatchedThrough = throughId;
      if (rows.length > 0) this.#deliver(readers, { afterId, throughId, rows });
    }
  }

  #deliver(readers: AccountReaders, batch: SettledBatch): void {
    for (const subscriber of readers.all) subscriber.deliver(batch);
    this.#wakes += readers.all.size;
    if (readers.byConversation.size === 0) return;
    const concerned = new Set<Subscriber>();
    for (const row of batch.rows) {
      if (row.conversation_id === null) continue;
      for (const subscriber of readers.byConversation.get(row.conversation_id) ?? []) concerned.add(subscriber);
    }
    for (const subscriber of concerned) subscriber.deliver(batch);
    this.#wakes += concerned.size;
  }

  /** One step and one query for the whole instance: the accounts with events settled since the last poll. */
  async #safetyPoll(): Promise<void> {
    this.#step(true);
    await this.#stepping;
    const through = this.#horizon.settled;
    if (through <= this.#polledThrough) return;
    try {
      const { rows } = await this.#db.query<{ account_id: string }>('select distinct account_id from events where id > $1 and id <= $2', [
        this.#polledThrough,
        through,
      ]);
      this.#polledThrough = through;
      // Dispatched by the step loop, which reads an account's batches one after the other.
      for (const { account_id: accountId } of rows) this.#waiting.set(accountId, Math.max(this.#waiting.get(accountId) ?? 0, through));
      this.#step();
    } catch {
      // Tried again at the next poll.
    }
  }
}

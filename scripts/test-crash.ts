/**
 * Crash safety (`npm run test:crash`, after `npm test` in CI; docs/operations.md#crash-safety).
 *
 * Starts the real server (`node bin/chat-service.js serve`), runs writers against it
 * (create a conversation, then add messages to it), kills it with SIGKILL at a random
 * moment, restarts it on the same storage, and checks that:
 * - it starts again: on PGlite the lock claim left by the dead process is removed;
 * - every write answered 200 is there (each conversation with at least its
 *   acknowledged messages);
 * - nothing else is: a write whose answer never came (in flight at the kill) may or
 *   may not be there, and the conversation count is exactly the acknowledged ones plus
 *   the in-flight creates found committed.
 * KILLS times per engine: PGlite (a fresh data directory) and, when TEST_DATABASE_URL
 * is set, PostgreSQL (a fresh database). CRASH_SEED repeats a run's kill delays.
 */
import assert from 'node:assert/strict';
import { openDb } from '../src/db/db.ts';
import { firstRow } from '../src/db/rows.ts';
import { directoryClaims } from '../src/db/lock.ts';
import { freshPostgresDatabase, startServe, tempDataDir, type ServeProcess, type Storage } from '../src/test/processes.ts';

const KILLS = 10;
const WRITERS = 4;
const MESSAGES_PER_CONVERSATION = 3;
/** A kill comes this long (ms) after the writers start, at random in between. */
const KILL_AFTER_MS: [number, number] = [100, 700];

const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** mulberry32: a seeded random in [0, 1), so that a failing run can be replayed with its seed. */
let state = seed;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let x = Math.imul(state ^ (state >>> 15), 1 | state);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

interface Conversation {
  id: string;
  /** Messages answered 200 (the create's own message included). */
  acknowledged: number;
  /** A message whose answer never came: it may be stored or not. */
  inFlight: number;
}

interface Ledger {
  conversations: Map<string, Conversation>;
  /** ext_ids of creates whose answer never came. */
  inFlightCreates: string[];
  acknowledgedWrites: number;
  inFlightWrites: number;
}

interface Figures {
  engine: string;
  kills: number;
  acknowledged: number;
  inFlight: number;
  inFlightFound: number;
  restarts: number;
  staleLocks: number;
  seconds: number;
}

/** The fields of the answers read here. */
interface Answer {
  status: number;
  body: { id: string; total: number };
}

class Api {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async call(method: string, route: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}

/**
 * One writer: conversations of MESSAGES_PER_CONVERSATION messages, until `stopped()` or
 * a request fails (the kill). An answer other than 200 fails the test.
 */
async function writer(api: Api, contactId: string, ledger: Ledger, prefix: string, stopped: () => boolean): Promise<void> {
  for (let n = 0; !stopped(); n++) {
    const extId = `${prefix}-${n}`;
    let created: Answer;
    try {
      created = await api.call('POST', '/v2/conversations', { contact_id: contactId, ext_id: extId, text: `${extId} first` });
    } catch {
      ledger.inFlightCreates.push(extId);
      ledger.inFlightWrites++;
      return;
    }
    assert.equal(created.status, 200, `create ${extId}: ${JSON.stringify(created.body)}`);
    const conversation: Conversation = { id: created.body.id, acknowledged: 1, inFlight: 0 };
    ledger.conversations.set(conversation.id, conversation);
    ledger.acknowledgedWrites++;
    for (let m = 1; m < MESSAGES_PER_CONVERSATION; m++) {
      if (stopped()) return;
      let added: Answer;
      try {
        added = await api.call('POST', `/v2/conversations/${conversation.id}/messages`, { sub_type: 'contact', text: `${extId} #${m}` });
      } catch {
        conversation.inFlight++;
        ledger.inFlightWrites++;
        return;
      }
      assert.equal(added.status, 200, `message to ${conversation.id}: ${JSON.stringify(added.body)}`);
      conversation.acknowledged++;
      ledger.acknowledgedWrites++;
    }
  }
}

/**
 * The acknowledged writes of `conversations` are readable, and no more than those
 * plus the in-flight ones; in-flight creates found committed are added to `found`.
 */
async function verify(api: Api, conversations: Iterable<Conversation>, ledger: Ledger, found: Set<string>): Promise<void> {
  for (const conversation of conversations) {
    const res = await api.call('GET', `/v2/conversations/${conversation.id}/messages?size=1`);
    assert.equal(res.status, 200, `acknowledged conversation ${conversation.id} is readable`);
    const total = res.body.total as number;
    assert.ok(
      total >= conversation.acknowledged && total <= conversation.acknowledged + conversation.inFlight,
      `conversation ${conversation.id}: ${total} messages, ${conversation.acknowledged} acknowledged + ${conversation.inFlight} in flight`,
    );
  }
  for (const extId of ledger.inFlightCreates) {
    const res = await api.call('GET', `/v2/conversations/find?ext_id=${extId}`);
    assert.ok(res.status === 200 || res.status === 404, `find ${extId}: ${res.status}`);
    if (res.status !== 200) continue;
    found.add(extId);
    const messages = await api.call('GET', `/v2/conversations/${res.body.id}/messages?size=1`);
    assert.equal(messages.body.total, 1, `in-flight create ${extId} holds just its own message`);
  }
}

/** The PIDs of the claims on the directory's lock (src/db/lock.ts). */
const lockPids = (dataDir: string) => directoryClaims(dataDir).map((claim) => claim.pid);

async function countConversations(storage: Storage, accountId: string): Promise<number> {
  const db = await openDb(storage.env.DATABASE_URL ? { databaseUrl: storage.env.DATABASE_URL } : { dataDir: storage.env.DATA_DIR });
  try {
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from conversations where account_id = $1', [accountId]);
    return firstRow(rows).n;
  } finally {
    await db.close();
  }
}

async function crashEngine(engine: 'pglite' | 'postgres', storage: Storage): Promise<Figures> {
  const startedAt = performance.now();
  // The writers outrun the default rate limit on purpose.
  const env = { ...storage.env, RATE_LIMIT_BURST: '1000000', RATE_LIMIT_PER_SECOND: '1000000' };
  const dataDir = storage.env.DATA_DIR;
  let server: ServeProcess = await startServe(env);
  // The first start on empty storage prints the first account's owner token, just after it listens.
  let banner: RegExpExecArray | null = null;
  for (let wait = 0; !(banner = /account id:\s+(\S+)\n\s+owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout)); wait++) {
    assert.ok(wait < 500, `no owner token printed:\n${server.output().stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const [, accountId, token] = banner;
  assert.ok(accountId !== undefined && token !== undefined);
  let api = new Api(server.url, token);
  const contact = await api.call('POST', '/v2/contacts', { name: 'Crash test' });
  assert.equal(contact.status, 200);

  const ledger: Ledger = { conversations: new Map(), inFlightCreates: [], acknowledgedWrites: 0, inFlightWrites: 0 };
  const foundCreates = new Set<string>();
  let staleLocks = 0;
  for (let kill = 1; kill <= KILLS; kill++) {
    let stopped = false;
    const before = new Set(ledger.conversations.keys());
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(api, contact.body.id, ledger, `k${kill}w${w}`, () => stopped));
    const [min, max] = KILL_AFTER_MS;
    await new Promise((resolve) => setTimeout(resolve, min + random() * (max - min)));
    server.signal('SIGKILL');
    const dead = await server.exited;
    assert.equal(dead.signal, 'SIGKILL');
    stopped = true;
    await Promise.all(writers);
    if (dataDir) {
      assert.deepEqual(lockPids(dataDir), [server.pid], 'the killed server left its claim');
      staleLocks++;
    }
    server = await startServe(env);
    if (dataDir) assert.deepEqual(lockPids(dataDir), [server.pid], 'the restarted server removed the stale claim and holds its own');
    api = new Api(server.url, token);
    // This run's writes now; every run's once more at the end, after all the crashes.
    await verify(
      api,
      [...ledger.conversations.values()].filter((c) => !before.has(c.id)),
      ledger,
      foundCreates,
    );
  }
  await verify(api, ledger.conversations.values(), ledger, foundCreates);
  server.signal('SIGTERM');
  assert.equal((await server.exited).code, 0);
  const conversations = await countConversations(storage, accountId);
  assert.equal(
    conversations,
    ledger.conversations.size + foundCreates.size,
    `${conversations} conversations stored: ${ledger.conversations.size} acknowledged + ${foundCreates.size} in-flight creates found`,
  );
  return {
    engine,
    kills: KILLS,
    acknowledged: ledger.acknowledgedWrites,
    inFlight: ledger.inFlightWrites,
    inFlightFound: foundCreates.size,
    restarts: KILLS,
    staleLocks,
    seconds: Math.round((performance.now() - startedAt) / 100) / 10,
  };
}

const engines: ['pglite' | 'postgres', () => Promise<Storage>][] = [['pglite', async () => tempDataDir()]];
if (process.env.TEST_DATABASE_URL)
  engines.push(['postgres', () => freshPostgresDatabase(process.env.TEST_DATABASE_URL as string, 'cs_crash')]);

console.log(`crash test: ${KILLS} SIGKILLs per engine, ${WRITERS} writers, CRASH_SEED=${seed}`);
// The engines run side by side: most of the time goes to PGlite's restarts, while PostgreSQL's are quick.
const results = await Promise.all(
  engines.map(async ([engine, makeStorage]) => {
    const storage = await makeStorage();
    try {
      return await crashEngine(engine, storage);
    } finally {
      await storage.cleanup();
    }
  }),
);
for (const r of results) {
  console.log(
    `${r.engine}: ${r.kills} kills, ${r.restarts} restarts (${r.staleLocks} over a stale lock), ` +
      `${r.acknowledged} acknowledged writes all readable, ${r.inFlight} in flight at a kill (${r.inFlightFound} creates among them committed), ${r.seconds} s`,
  );
}

/**
 * Fan-out at visitor scale (issue 24): the hub's work is per interested stream. Opening a
 * stream wakes no other stream, an event wakes only the subscriptions whose filter it
 * matches (by account, by conversation), and every event id is taken after its
 * transaction's xid (the invariant exact resume rests on), in one place.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { engine, startTestApp, testDatabaseUrls, type TestApp } from '../test/harness.ts';
import { buildApp } from '../app.ts';
import { openDb } from '../db/db.ts';
import { openEventStream, produceAgentEvents, recordConversationEvent } from '../test/events.ts';
import type { SettledBatch, Subscription } from './hub.ts';
import { recordEvent } from './outbox.ts';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t.close());

/** Until `done` holds (a delivery is asynchronous), failing after 30 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('opening streams', { timeout: 300_000 }, () => {
  it('wakes no other stream; an event then wakes each stream of its account once', async () => {
    const hub = t.app.eventHub;
    const account = await t.account();
    const token = await t.token(account, ['events:read']);
    const streams = await Promise.all(Array.from({ length: 5 }, () => openEventStream(base, token)));
    try {
      await produceAgentEvents(t, account, 1);
      for (const stream of streams) assert.equal((await stream.next(1)).length, 1);
      const wakesBefore = hub.wakes;

      // One more, then a reconnect storm of 20 at once: each catches up from its own cursor.
      streams.push(await openEventStream(base, token, '?last_event_id=0'));
      assert.equal((await streams[5]!.next(1)).length, 1, 'the new stream caught up from its cursor');
      streams.push(...(await Promise.all(Array.from({ length: 20 }, () => openEventStream(base, token, '?last_event_id=0')))));
      for (const stream of streams.slice(6)) assert.equal((await stream.next(1)).length, 1);
      await sleep(200);
      assert.equal(hub.wakes, wakesBefore, 'opening 21 streams woke no stream');

      await produceAgentEvents(t, account, 1);
      for (const stream of streams) assert.equal((await stream.next(1)).length, 1);
      assert.equal(hub.wakes - wakesBefore, streams.length, 'one event: one wake per stream of the account');
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

describe('subscriptions by conversation', { timeout: 300_000 }, () => {
  it('are woken only by their conversations, and grow with addConversation', async () => {
    const hub = t.app.eventHub;
    const account = await t.account();
    const received = { a: [] as SettledBatch[], b: [] as SettledBatch[], all: [] as SettledBatch[] };
    const subscribe = (into: SettledBatch[], conversationIds?: string[]): Subscription =>
      hub.subscribe(
        { accountId: account.accountId, conversationIds: conversationIds && new Set(conversationIds) },
        { deliver: (batch) => into.push(batch) },
      );
    const subscriptions = [subscribe(received.a, ['coFanA']), subscribe(received.b, ['coFanB']), subscribe(received.all)];
    const idsOf = (batches: SettledBatch[]) => batches.flatMap((batch) => batch.rows.map((row) => row.id));
    try {
      const wakesBefore = hub.wakes;
      const first = await recordConversationEvent(t, account, 'coFanA', 'a1');
      await until(() => received.a.length > 0 && received.all.length > 0, 'the batch of coFanA');
      await sleep(100);
      assert.deepEqual(idsOf(received.a), [first]);
      assert.deepEqual(idsOf(received.all), [first]);
      assert.equal(received.b.length, 0, "coFanB's subscription was not woken");
      assert.equal(hub.wakes - wakesBefore, 2);

      // An event of no conversation reaches account-wide subscriptions only.
      await produceAgentEvents(t, account, 1);
      await until(() => received.all.length > 1, 'the agent.updated batch');
      await sleep(100);
      assert.deepEqual([received.a.length, received.b.length], [1, 0], 'no conversation subscription woken');

      // A visitor starting a new conversation: added before its first event.
      subscriptions[1]!.addConversation('coFanC');
      const third = await recordConversationEvent(t, account, 'coFanC', 'c1');
      await until(() => received.b.length > 0, 'the batch of coFanC');
      assert.ok(idsOf(received.b).includes(third));
      assert.equal(received.a.length, 1);
    } finally {
      for (const subscription of subscriptions) subscription.close();
    }
  });
});

describe(
  'two instances behind one database',
  { skip: engine === 'pglite' && 'a PGlite database belongs to one process', timeout: 300_000 },
  () => {
    it('each stream, on either instance, gets every event once, in id order', async () => {
      // The second instance's own connections to this file's database.
      const { rows } = await t.db.query<{ name: string }>('select current_database() as name');
      const { url, directUrl } = testDatabaseUrls(rows[0]!.name);
      // Named prepared statements only on a direct connection, as the harness opens its own (not through PgBouncer 1.18).
      const secondDb = await openDb({ databaseUrl: url, directUrl, preparedStatements: url === directUrl });
      const second = await buildApp({ ...t.deps, db: secondDb }, { logger: false });
      const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
      const account = await t.account();
      const token = await t.token(account, ['events:read']);
      const streams = await Promise.all([base, base, secondBase, secondBase].map((at) => openEventStream(at, token)));
      try {
        // Commits interleaved from both instances' connections.
        const ids = await Promise.all(
          Array.from({ length: 20 }, (_, i) => {
            const db = i % 2 === 0 ? t.db : secondDb;
            return db.transaction((tx) =>
              recordEvent(tx, account.accountId, new Date(), 'conversation.updated', { marker: i }, `coTwo${i % 3}`),
            );
          }),
        );
        ids.sort((a, b) => a - b);
        for (const stream of streams)
          assert.deepEqual(
            (await stream.next(20)).map((message) => message.id),
            ids,
          );
        // The next message of each is the next event: nothing came twice.
        const last = await recordConversationEvent(t, account, 'coTwo0', 'last');
        for (const stream of streams)
          assert.deepEqual(
            (await stream.next(1)).map((message) => message.id),
            [last],
          );
      } finally {
        for (const stream of streams) stream.close();
        await second.close();
        await secondDb.close();
      }
    });
  },
);

/** Source files of the service and its tests, this one left out (it names what it looks for). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && file !== import.meta.filename ? [file] : [];
  });
}

describe('event ids are taken after the transaction id (the exact-resume invariant)', () => {
  it('the id column defaults to next_event_id(), which holds the xid before it takes an id', async () => {
    const { rows } = await t.db.query<{ expr: string }>(
      `select pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
       join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       where d.adrelid = 'events'::regclass and a.attname = 'id'`,
    );
    assert.deepEqual(
      rows.map((row) => row.expr),
      ['next_event_id()'],
    );
    const xidAfter = (takeId: string) =>
      t.db.transaction(async (tx) => {
        await tx.query(takeId);
        return (await tx.query<{ xid: string | null }>('select pg_current_xact_id_if_assigned()::text as xid')).rows[0]!.xid;
      });
    assert.notEqual(await xidAfter('select next_event_id()'), null, 'next_event_id() took the xid');
    // What the check tells apart: nextval alone takes no xid (a writer calling it would hand out ids the horizon may pass).
    assert.equal(await xidAfter("select nextval('events_id_seq')"), null);
  });

  it('no writer takes an event id itself or names the id of an insert', () => {
    const offending: string[] = [];
    for (const file of sourceFiles(path.resolve(import.meta.dirname, '..'))) {
      const source = readFileSync(file, 'utf8');
      if (/nextval\s*\(\s*'events_id_seq'/i.test(source)) offending.push(`${file}: nextval('events_id_seq')`);
      for (const insert of source.matchAll(/insert\s+into\s+events\b\s*(\(([^)]*)\))?/gi)) {
        const columns = insert[2]?.split(',').map((column) => column.trim());
        if (!columns || columns.includes('id')) offending.push(`${file}: ${insert[0]}`);
      }
    }
    assert.deepEqual(offending, [], 'event ids come from the column default, next_event_id() (migration 156)');
  });
});

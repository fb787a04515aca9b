/**
 * The outbox guarantee under concurrent writers (docs/behaviour.md §10): writers
 * share no lock, so ids commit out of order; a stream that resumes after any event
 * it saw, and the webhook queue, still get every event once, in id order, and the
 * events of each conversation in the conversation's order.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { engine, startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import { startWebhookReceiver } from '../test/webhooks.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';
import { recordEvent } from './outbox.ts';
import { EventHorizon } from './horizon.ts';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp({ webhookTimeoutMs: 60_000, webhookBlockPrivate: false }); // the receiver listens on 127.0.0.1
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t.close());

const WRITERS = 16;
const MESSAGES_PER_WRITER = 12;
const CONVERSATIONS = 6;
const READERS = 4;
const SLOW_TRANSACTIONS = 5;
/** Longer than a stream's poll, so readers look while the transaction is open. */
const SLOW_TRANSACTION_MS = 400;

interface Received {
  id: number;
  conversationId: string | undefined;
  messageId: string | undefined;
}

const received = (body: { id: number; data: Json }): Received => ({
  id: body.id,
  conversationId: body.data.conversation_id,
  messageId: body.data.message?.id,
});

/**
 * Reads `count` events from a stream opened after `afterId` (0: the whole
 * outbox), then disconnects.
 */
async function readSession(token: string, afterId: number, count: number): Promise<Received[]> {
  const controller = new AbortController();
  const response = await fetch(`${base}/v2/events?last_event_id=${afterId}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: Received[] = [];
  let buffer = '';
  // A generous bound: a missing event fails with a message instead of hanging.
  const deadline = setTimeout(
    () => controller.abort(new Error(`expected ${count} events after ${afterId}, got ${events.length} within 60 s`)),
    60_000,
  );
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0 && events.length < count; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (data) events.push(received(JSON.parse(data.slice('data: '.length))));
      }
    }
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return events;
}

async function committedEvents(account: TestAccount): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>('select count(*)::int as n from events where account_id = $1', [account.accountId]);
  return rows[0]!.n;
}

describe('events under concurrent writers', { timeout: 600_000 }, () => {
  it('reach resuming streams and webhooks once each, in id order, each conversation in its order', async (ctx) => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const conversations: Json[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) conversations.push(await f.conversation({ text: `Hi ${i}` }));
    const beforeHook = await committedEvents(account);
    const receiver = await startWebhookReceiver<{ id: number; data: Json }>(ctx);
    const hook = await t.client(account.token).post('/v2/webhooks', { url: receiver.url });
    assert.equal(hook.status, 200);
    ctx.after(() => t.client(account.token).delete(`/v2/webhooks/${hook.body.id}`));
    const token = await t.token(account, ['events:read']);

    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, writer) => {
      for (let i = 0; i < MESSAGES_PER_WRITER; i++) {
        const conversation = conversations[(writer + i * 7) % CONVERSATIONS]!;
        await f.contactSays(conversation.id, `writer ${writer} message ${i}`);
      }
    });
    // A writer whose transactions stay open after taking their event id, while the others commit later ids.
    const slowWriter = (async () => {
      for (let i = 0; i < SLOW_TRANSACTIONS; i++) {
        await t.db.transaction(async (tx) => {
          await recordEvent(tx, account.accountId, new Date(), 'conversation.updated', { marker: i }, 'coSlowWriter');
          await sleep(SLOW_TRANSACTION_MS);
        });
      }
    })();
    const allWritten = Promise.all([...writers, slowWriter]).finally(() => (writing = false));

    // Each reader reads a few events, disconnects, and resumes after the last one it saw.
    const readers = Array.from({ length: READERS }, async () => {
      const seen: Received[] = [];
      for (;;) {
        const available = (await committedEvents(account)) - seen.length;
        if (available === 0) {
          if (!writing) return seen;
          await sleep(10);
          continue;
        }
        const count = Math.min(available, 1 + Math.floor(Math.random() * 8));
        seen.push(...(await readSession(token, seen.at(-1)?.id ?? 0, count)));
      }
    });
    // Webhook passes run alongside the writers, as the worker would, then until a pass delivers nothing more.
    const webhookPasses = (async () => {
      while (writing) await deliverDueWebhooks(t.deps);
      while ((await deliverDueWebhooks(t.deps)).attempted > 0);
    })();
    await allWritten;
    const [streamed] = await Promise.all([Promise.all(readers), webhookPasses]);

    const { rows } = await t.db.query<{ id: number }>('select id from events where account_id = $1 order by id', [account.accountId]);
    const outbox = rows.map((row) => row.id);
    assert.equal(
      outbox.length,
      beforeHook + WRITERS * MESSAGES_PER_WRITER + SLOW_TRANSACTIONS,
      'one event per message or slow transaction',
    );
    for (const seen of streamed)
      assert.deepEqual(
        seen.map((event) => event.id),
        outbox,
        'each stream reader saw every event once, in id order',
      );

    // The webhook started after the conversations were opened: it got everything after, once each.
    const afterHook = outbox.slice(beforeHook);
    assert.deepEqual(
      receiver.bodies.map((event) => event.id).sort((a, b) => a - b),
      afterHook,
    );

    for (const conversation of conversations) {
      const messages = (await f.get(conversation.id)).messages.map((message: Json) => message.id);
      const inOrder = (events: Received[]) =>
        events.filter((event) => event.conversationId === conversation.id && event.messageId).map((event) => event.messageId);
      assert.deepEqual(inOrder(streamed[0]!), messages, 'the stream follows the conversation order');
      const hookMessages = messages.slice(1);
      assert.deepEqual(inOrder(receiver.bodies.map(received)), hookMessages, 'the webhook follows the conversation order');
    }
  });
});

// PGlite runs one transaction at a time, so ids always commit in order there; this needs two at once.
describe('an event id committing after a later one', { skip: engine === 'pglite', timeout: 300_000 }, () => {
  it('holds the horizon and the stream back until it commits, then comes first', async () => {
    const account = await t.account();
    const token = await t.token(account, ['events:read']);
    const f = conversationFactory(t, account);
    const { rows } = await t.db.query<{ id: number }>('select coalesce(max(id), 0) as id from events where account_id = $1', [
      account.accountId,
    ]);
    const start = rows[0]!.id;

    let commitSlow!: () => void;
    const slowMayCommit = new Promise<void>((resolve) => (commitSlow = resolve));
    let slowId!: number;
    const slowTookId = new Promise<void>((resolve) => {
      void t.db.transaction(async (tx) => {
        slowId = await recordEvent(tx, account.accountId, new Date(), 'conversation.updated', { marker: 'slow' }, 'coSlow');
        resolve();
        await slowMayCommit;
      });
    });
    await slowTookId;
    const later = await f.contact();
    const { rows: laterRows } = await t.db.query<{ id: number }>(
      "select id from events where account_id = $1 and data->'contact'->>'id' = $2",
      [account.accountId, later.id],
    );
    assert.ok(laterRows[0]!.id > slowId, 'the later event has the larger id and is committed');

    const horizon = new EventHorizon();
    await horizon.advance(t.db);
    await horizon.advance(t.db);
    assert.ok(horizon.settled < slowId, "nothing at or above an open transaction's id is settled");

    const firstOfStream = readSession(token, start, 2);
    // Streams poll meanwhile; with the horizon they must not send the later event first.
    await sleep(1000);
    commitSlow();
    const streamed = await firstOfStream;
    assert.deepEqual(
      streamed.map((event) => event.id),
      [slowId, laterRows[0]!.id],
    );
    await horizon.advance(t.db);
    await horizon.advance(t.db);
    assert.ok(horizon.settled >= laterRows[0]!.id, 'once it commits, both are settled');
  });
});

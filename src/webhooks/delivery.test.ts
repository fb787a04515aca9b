import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { startBackgroundJobs } from '../jobs.ts';
import { produceAgentEvents, recordConversationEvent } from '../test/events.ts';
import { deliverDueWebhooks, startWebhookWorker } from './delivery.ts';
import { recordEvents } from '../events/outbox.ts';
import { claimDueDeliveries, queueNewEvents } from './queue.ts';
import { settledEventId } from '../events/horizon.ts';
import { Webhook as StandardWebhook, WebhookVerificationError } from 'standardwebhooks';

/**
 * Receivers here answer at once, but on a loaded machine "at once" can take
 * seconds: a short timeout would turn a slow 200 into a failure. Only the
 * timeout test, whose receiver never answers, uses SHORT_TIMEOUT_MS.
 */
const TIMEOUT_MS = 60_000;
const SHORT_TIMEOUT_MS = 300;
const RETRY_BASE_MS = 1000;

let t: TestApp;
before(async () => {
  // Receivers listen on 127.0.0.1, which WEBHOOK_BLOCK_PRIVATE (on by default) refuses.
  t = await startTestApp({ webhookTimeoutMs: TIMEOUT_MS, webhookRetryBaseMs: RETRY_BASE_MS, webhookBlockPrivate: false });
});
after(() => t.close());

interface Envelope {
  type: string;
  id: number;
  event: string;
  timestamp: string;
  account_id: string;
  webhook_id: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- event payloads vary
}

/** What the receiver answers: a status, or 'hang' to never answer. */
type Answer = number | 'hang';

interface Receiver {
  url: string;
  /** Every request, in arrival order, with the answer it got. */
  requests: { raw: string; body: Envelope; headers: http.IncomingHttpHeaders; answer: Answer }[];
  /** Bodies of the requests answered 2xx: what the integration received. */
  delivered(): Envelope[];
  answer: (body: Envelope) => Answer;
}

/** A real HTTP receiver on 127.0.0.1; closed when the test ends. */
async function startReceiver(ctx: TestContext, answer: (body: Envelope) => Answer = () => 200): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    requests: [],
    delivered: () => receiver.requests.filter((r) => typeof r.answer === 'number' && r.answer < 300).map((r) => r.body),
    answer,
  };
  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const body = JSON.parse(raw) as Envelope;
    const reply = receiver.answer(body);
    receiver.requests.push({ raw, body, headers: request.headers, answer: reply });
    if (reply !== 'hang') response.writeHead(reply).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  ctx.after(async () => {
    server.closeAllConnections();
    server.close();
  });
  return receiver;
}

/** A webhook of `account` posting to `url`; deleted when the test ends so later tests don't retry it. */
async function createWebhook(ctx: TestContext, account: TestAccount, url: string, extra: Record<string, unknown> = {}) {
  const res = await t.client(account.token).post('/v2/webhooks', { url, ...extra });
  assert.equal(res.status, 200);
  ctx.after(() => t.client(account.token).delete(`/v2/webhooks/${res.body.id}`));
  return res.body as { id: string; secret: string };
}

/** Runs delivery passes, moving the clock on between them, until `done` (or gives up after many passes). */
async function deliverUntil(done: () => boolean, advanceSeconds = 3600): Promise<void> {
  for (let pass = 0; pass < 40 && !done(); pass++) {
    await deliverDueWebhooks(t.deps);
    if (!done()) t.clock.advance(advanceSeconds);
  }
}

async function attemptsOf(account: TestAccount, webhookId: string) {
  const res = await t.client(account.token).get(`/v2/webhooks/${webhookId}/deliveries`);
  assert.equal(res.status, 200);
  return (
    res.body.deliveries as {
      event_id: number;
      attempt: number;
      status_code: number | null;
      error: string | null;
      next_attempt_at: string | null;
      attempted_at: string;
      duration: number;
      event: string;
    }[]
  ).reverse();
}

const ids = (envelopes: Envelope[]) => envelopes.map((e) => e.id);

describe('webhook delivery', () => {
  it('POSTs the signed envelope of each new event', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 1);

    assert.deepEqual(await deliverDueWebhooks(t.deps), { attempted: 1, delivered: 1 });
    assert.equal(receiver.requests.length, 1);
    const [request] = receiver.requests;
    assert.ok(request);
    const expected = createHmac('sha256', webhook.secret).update(request.raw).digest('hex');
    assert.equal(request.headers['x-chat-service-hmac'], expected);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(Object.keys(request.body), ['type', 'id', 'event', 'timestamp', 'account_id', 'webhook_id', 'data']);
    assert.equal(request.body.type, 'event_callback');
    assert.equal(request.body.event, 'agent.updated');
    assert.equal(typeof request.body.id, 'number');
    assert.match(request.body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(request.body.account_id, account.accountId);
    assert.equal(request.body.webhook_id, webhook.id);
    assert.equal(request.body.data.agent.status, 'online');

    const [attempt] = await attemptsOf(account, webhook.id);
    assert.ok(attempt);
    assert.deepEqual(
      { ...attempt, duration: typeof attempt.duration, attempted_at: attempt.attempted_at === t.clock.now().toISOString() },
      {
        event_id: request.body.id,
        event: 'agent.updated',
        attempt: 1,
        status_code: 200,
        error: null,
        duration: 'number',
        attempted_at: true,
        next_attempt_at: null,
      },
    );
    assert.deepEqual(await deliverDueWebhooks(t.deps), { attempted: 0, delivered: 0 }, 'nothing is sent twice');
  });

  it("sends only events committed after the webhook's creation, of its types, of its account", async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    await produceAgentEvents(t, account, 1);
    const all = await startReceiver(ctx);
    const contactsOnly = await startReceiver(ctx);
    await createWebhook(ctx, account, all.url);
    await createWebhook(ctx, account, contactsOnly.url, { events: ['contact.created'] });
    await produceAgentEvents(t, await t.account(), 1);
    await produceAgentEvents(t, account, 1);
    const contact = await t.client(account.token).post('/v2/contacts', { name: 'Jo' });
    assert.equal(contact.status, 200);

    await deliverUntil(() => all.delivered().length >= 2 && contactsOnly.delivered().length >= 1);
    assert.deepEqual(
      all.delivered().map((e) => e.event),
      ['agent.updated', 'contact.created'],
    );
    assert.deepEqual(
      contactsOnly.delivered().map((e) => e.event),
      ['contact.created'],
    );
    assert.equal(contactsOnly.delivered()[0]!.data.contact.id, contact.body.id);
    assert.ok(all.delivered().every((e) => e.account_id === account.accountId));
  });

  it('retries a failing receiver with backoff and, once it recovers, delivers every event in order', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    let failures = 3;
    const receiver = await startReceiver(ctx, () => (failures-- > 0 ? 503 : 200));
    const webhook = await createWebhook(ctx, account, receiver.url);
    const statuses = await produceAgentEvents(t, account, 4);

    await deliverDueWebhooks(t.deps);
    assert.equal(receiver.requests.length, 1, 'later events wait behind the failing one');
    await deliverDueWebhooks(t.deps);
    assert.equal(receiver.requests.length, 1, 'the retry waits for its delay');

    await deliverUntil(() => receiver.delivered().length === 4, 60);
    const delivered = receiver.delivered();
    assert.deepEqual(
      delivered.map((e) => e.data.agent.status),
      statuses,
    );
    const first = delivered[0]!.id;
    assert.deepEqual(ids(delivered), [first, first + 1, first + 2, first + 3]);
    assert.deepEqual(
      receiver.requests.map((r) => r.body.id),
      [first, first, first, first, first + 1, first + 2, first + 3],
      'no later event was sent before the first one succeeded',
    );

    const attempts = await attemptsOf(account, webhook.id);
    assert.deepEqual(
      attempts.map((a) => [a.event_id, a.attempt, a.status_code]),
      [
        [first, 1, 503],
        [first, 2, 503],
        [first, 3, 503],
        [first, 4, 200],
        [first + 1, 1, 200],
        [first + 2, 1, 200],
        [first + 3, 1, 200],
      ],
    );
    // Exponential backoff with up to 25% jitter: the n-th retry comes after base * 2^(n-1).
    attempts.slice(0, 3).forEach((a, n) => {
      const delay = Date.parse(a.next_attempt_at as string) - Date.parse(a.attempted_at);
      const nominal = RETRY_BASE_MS * 2 ** n;
      assert.ok(delay >= nominal && delay <= nominal * 1.25, `retry ${n + 1} after ${delay} ms`);
    });
    assert.equal(attempts[3]!.next_attempt_at, null);
  });

  it('counts a timeout as a failure and retries', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    let hang = true;
    const receiver = await startReceiver(ctx, () => (hang ? 'hang' : 200));
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 1);

    const impatient = { ...t.deps, config: { ...t.deps.config, webhookTimeoutMs: SHORT_TIMEOUT_MS } };
    assert.deepEqual(await deliverDueWebhooks(impatient), { attempted: 1, delivered: 0 });
    const [timedOut] = await attemptsOf(account, webhook.id);
    assert.ok(timedOut);
    assert.equal(timedOut.status_code, null);
    assert.equal(timedOut.error, 'timeout');
    assert.notEqual(timedOut.next_attempt_at, null);

    hang = false;
    await deliverUntil(() => receiver.delivered().length === 1);
    assert.equal(receiver.delivered()[0]!.id, receiver.requests[0]!.body.id);
  });

  it('keeps each conversation in order while a failing conversation waits and the others flow', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    let failA = true;
    const receiver = await startReceiver(ctx, (body) => (failA && body.data.conversation?.id === 'coA' ? 500 : 200));
    await createWebhook(ctx, account, receiver.url);
    const a1 = await recordConversationEvent(t, account, 'coA', 'a1');
    const b1 = await recordConversationEvent(t, account, 'coB', 'b1');
    const a2 = await recordConversationEvent(t, account, 'coA', 'a2');
    const b2 = await recordConversationEvent(t, account, 'coB', 'b2');
    await produceAgentEvents(t, account, 1);

    // No clock change: only what is due now goes out.
    for (let pass = 0; pass < 4; pass++) await deliverDueWebhooks(t.deps);
    assert.deepEqual(
      receiver
        .delivered()
        .filter((e) => e.data.marker)
        .map((e) => e.id),
      [b1, b2],
    );
    assert.ok(
      receiver.delivered().some((e) => e.event === 'agent.updated'),
      'account-level events have their own lane',
    );
    assert.deepEqual(
      receiver.requests.filter((r) => r.body.data.conversation?.id === 'coA').map((r) => r.body.id),
      [a1],
      'a2 waits behind a1',
    );

    failA = false;
    await deliverUntil(() => receiver.delivered().length === 5);
    assert.deepEqual(
      receiver
        .delivered()
        .filter((e) => e.data.conversation?.id === 'coA')
        .map((e) => e.id),
      [a1, a2],
    );
  });

  it('delivers the events of real conversations in commit order per conversation', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const api = t.client(account.token);
    const contact = await api.post('/v2/contacts', { name: 'Jo' });
    let stuckId = '';
    const conversationOf = (e: Envelope) => e.data.conversation?.id ?? e.data.conversation_id;
    const receiver = await startReceiver(ctx, (body) => (conversationOf(body) === stuckId ? 500 : 200));
    await createWebhook(ctx, account, receiver.url);
    const stuck = await api.post('/v2/conversations', { contact_id: contact.body.id, text: 'hello' });
    const flowing = await api.post('/v2/conversations', { contact_id: contact.body.id, text: 'hi' });
    assert.equal(stuck.status, 200);
    assert.equal(flowing.status, 200);
    stuckId = stuck.body.id;
    for (const conversation of [stuck.body.id, flowing.body.id]) {
      assert.equal((await api.post(`/v2/conversations/${conversation}/messages`, { sub_type: 'contact', text: 'more' })).status, 200);
      assert.equal((await api.patch(`/v2/conversations/${conversation}/close`)).status, 200);
    }
    const outbox = async (conversationId: string) =>
      (
        await t.db.query<{ id: number }>('select id from events where account_id = $1 and conversation_id = $2 order by id', [
          account.accountId,
          conversationId,
        ])
      ).rows.map((row) => row.id);
    const flowingEvents = await outbox(flowing.body.id);
    const stuckEvents = await outbox(stuck.body.id);

    for (let pass = 0; pass < flowingEvents.length + 1; pass++) await deliverDueWebhooks(t.deps);
    assert.deepEqual(ids(receiver.delivered()), flowingEvents);
    assert.equal(receiver.delivered()[0]!.event, 'conversation.opened');
    assert.equal(receiver.delivered().at(-1)?.event, 'conversation.closed');
    assert.equal(receiver.requests.filter((r) => conversationOf(r.body) === stuckId).length, 1);

    stuckId = '';
    await deliverUntil(() => receiver.delivered().length === flowingEvents.length + stuckEvents.length);
    assert.deepEqual(ids(receiver.delivered().filter((e) => conversationOf(e) === stuck.body.id)), stuckEvents);
  });

  it('gives an event up after 24 hours of failures, and its conversation moves on', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    let down = true;
    const receiver = await startReceiver(ctx, () => (down ? 500 : 200));
    const webhook = await createWebhook(ctx, account, receiver.url);
    const lost = await recordConversationEvent(t, account, 'coX', 'lost');

    await deliverUntil(() => false, 3 * 3600);
    const attempts = await attemptsOf(account, webhook.id);
    const last = attempts[attempts.length - 1]!;
    assert.equal(last.event_id, lost);
    assert.equal(last.next_attempt_at, null, 'given up');
    assert.ok(Date.parse(last.attempted_at) - Date.parse(attempts[0]!.attempted_at) >= 24 * 3600 * 1000);
    assert.ok(attempts.slice(0, -1).every((a) => a.next_attempt_at !== null));

    down = false;
    const next = await recordConversationEvent(t, account, 'coX', 'next');
    await deliverUntil(() => receiver.delivered().length === 1);
    assert.deepEqual(ids(receiver.delivered()), [next]);
  });

  it('with WEBHOOK_BLOCK_PRIVATE, refuses to connect to a host that resolves to a private address at delivery time', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    // Created while the check was off; "localhost" stands for a name whose DNS answer changed since.
    const webhook = await createWebhook(ctx, account, receiver.url.replace('127.0.0.1', 'localhost'));
    await produceAgentEvents(t, account, 1);
    const guarded = { ...t.deps, config: { ...t.deps.config, webhookBlockPrivate: true } };
    assert.deepEqual(await deliverDueWebhooks(guarded), { attempted: 1, delivered: 0 });
    assert.equal(receiver.requests.length, 0);
    const [attempt] = await attemptsOf(account, webhook.id);
    assert.ok(attempt);
    assert.equal(attempt.status_code, null);
    assert.equal(attempt.error, 'refused_address', 'a reason, not the socket text naming the address (issue 18.9)');
  });

  it('drops the pending deliveries of a deleted webhook', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx, () => 500);
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 2);
    await deliverDueWebhooks(t.deps);
    assert.equal(receiver.requests.length, 1);
    assert.equal((await t.client(account.token).delete(`/v2/webhooks/${webhook.id}`)).status, 200);
    receiver.answer = () => 200;
    await deliverUntil(() => false);
    assert.equal(receiver.requests.length, 1);
  });
});

describe('webhook delivery across instances and restarts', () => {
  it('does not send a delivery another instance holds, and takes it over when that instance dies', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 3);

    // An instance queues the events, claims the first one and dies before sending it.
    const now = t.clock.now();
    await queueNewEvents(t.db, now, await settledEventId(t.db), 100);
    const { rows } = await t.db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries where webhook_id = $1', [
      webhook.id,
    ]);
    assert.equal(rows[0]!.n, 3);
    const crashed = await claimDueDeliveries(t.db, now, new Date(now.getTime() + 60_000), { limit: 100, perWebhook: 10 });
    assert.deepEqual(
      crashed.map((d) => d.webhook_id),
      [webhook.id],
    );

    assert.deepEqual(await deliverDueWebhooks(t.deps), { attempted: 0, delivered: 0 }, 'the lease is respected');
    t.clock.advance(61);
    await deliverUntil(() => receiver.delivered().length === 3);
    const first = crashed[0]!.event_id;
    assert.deepEqual(ids(receiver.delivered()), [first, first + 1, first + 2]);
    assert.equal((await attemptsOf(account, webhook.id))[0]!.attempt, 2, 'the lost attempt counts');
  });

  it('queues again after finding the webhooks busy in another instance, instead of taking the events as queued', async (ctx) => {
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 2);
    const settled = await settledEventId(t.db);
    if (t.db.engine === 'postgres') {
      // Another instance queueing for this webhook holds its row: this one skips it and says so (-1), not 0.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked: () => void = () => undefined;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const other = t.db.transaction(async (tx) => {
        await tx.query('select 1 from webhooks where account_id = $1 and id = $2 for update', [account.accountId, webhook.id]);
        locked();
        await held;
      });
      await isLocked;
      assert.equal(await queueNewEvents(t.db, t.clock.now(), settled, 100), -1);
      release();
      await other;
    }
    assert.equal(await queueNewEvents(t.db, t.clock.now(), settled, 100), 1);
    assert.equal(await queueNewEvents(t.db, t.clock.now(), settled, 100), 0, 'nothing left to queue');
  });

  it('never sends one delivery twice at once from concurrent instances', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    await createWebhook(ctx, account, receiver.url);
    const expected: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const conversation of ['c1', 'c2', 'c3', 'c4', 'c5'])
        expected.push(await recordConversationEvent(t, account, conversation, `${round}`));
    }
    for (let pass = 0; pass < 10 && receiver.requests.length < expected.length; pass++) {
      await Promise.all([deliverDueWebhooks(t.deps), deliverDueWebhooks(t.deps), deliverDueWebhooks(t.deps)]);
    }
    assert.deepEqual(
      ids(receiver.delivered()).sort((x, y) => x - y),
      expected,
    );
    for (const conversation of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      const markers = receiver
        .delivered()
        .filter((e) => e.data.conversation.id === conversation)
        .map((e) => e.data.marker);
      assert.deepEqual(markers, ['0', '1']);
    }
  });

  it('continues after a restart: a new server on the same database delivers what the old one left', async (ctx) => {
    t.clock.reset();
    const account = await t.account();
    let up = false;
    const receiver = await startReceiver(ctx, () => (up ? 200 : 503));
    await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 3);
    await deliverDueWebhooks(t.deps);
    assert.equal(receiver.delivered().length, 0);

    // The "restarted" server: fresh deps on the same database and its background worker; the retry comes after ~1 s
    // of real time. Waits for the outcome (generously: a loaded machine is slow), never for a fixed time.
    up = true;
    const jobs = startBackgroundJobs({ ...t.deps, now: () => new Date() }, t.app.eventHub, t.app.log);
    try {
      const deadline = Date.now() + 120_000;
      while (receiver.delivered().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await jobs.stop();
    }
    const delivered = ids(receiver.delivered());
    assert.deepEqual(delivered, [delivered[0], delivered[0]! + 1, delivered[0]! + 2]);
  });
});

describe('the webhook worker', () => {
  it('delivers as soon as events commit, a lane as fast as the receiver answers, in order', async (ctx) => {
    t.clock.reset();
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    await createWebhook(ctx, account, receiver.url);
    const stop = startWebhookWorker({ ...t.deps, now: () => new Date() }, t.app.eventHub, t.app.log);
    try {
      // One lane (events without a conversation): one delivery in flight at a time. At the old pace of one per lane
      // every 500 ms this took 150 s; the bound below only keeps a broken worker from hanging the test.
      const recorded = await t.db.transaction((tx) =>
        recordEvents(
          tx,
          account.accountId,
          new Date(),
          Array.from({ length: 300 }, (_, i) => ({ type: 'contact.created' as const, data: { contact: { id: `ct${i}` } } })),
        ),
      );
      const deadline = Date.now() + 60_000;
      while (receiver.delivered().length < recorded.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(ids(receiver.delivered()), recorded);
    } finally {
      await stop();
    }
  });
});

/** The signature headers as a receiver passes them to a Standard Webhooks library. */
const signed = (request: Receiver['requests'][number]) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/** Verification by the `standardwebhooks` package (not our code): the parsed body, or the library's error. */
function verify(secret: string | StandardWebhook, request: Receiver['requests'][number]): unknown {
  const verifier = typeof secret === 'string' ? new StandardWebhook(secret) : secret;
  try {
    return verifier.verify(request.raw, signed(request));
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
}

describe('Standard Webhooks signatures, checked with the standardwebhooks library', () => {
  it('signs every attempt: one webhook-id across retries, a fresh webhook-timestamp each time', async (ctx) => {
    // The library checks webhook-timestamp against the real clock: the test clock starts from it.
    t.clock.set(new Date());
    const account = await t.account();
    let failures = 1;
    const receiver = await startReceiver(ctx, () => (failures-- > 0 ? 503 : 200));
    const webhook = await createWebhook(ctx, account, receiver.url);
    assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await produceAgentEvents(t, account, 1);

    await deliverDueWebhooks(t.deps);
    t.clock.advance(2);
    await deliverDueWebhooks(t.deps);
    assert.equal(receiver.delivered().length, 1);
    const [failed, retried] = receiver.requests;
    assert.ok(retried && failed);
    for (const request of [failed, retried]) {
      assert.deepEqual(verify(webhook.secret, request), request.body);
      assert.equal(request.headers['webhook-id'], String(request.body.id));
      assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
      // The legacy header stays, for existing receivers.
      assert.equal(request.headers['x-chat-service-hmac'], createHmac('sha256', webhook.secret).update(request.raw).digest('hex'));
    }
    assert.equal(retried.headers['webhook-id'], failed.headers['webhook-id'], 'receivers de-duplicate on webhook-id');
    assert.equal(Number(retried.headers['webhook-timestamp']) - Number(failed.headers['webhook-timestamp']), 2);
    // Another secret does not verify.
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    assert.ok(verify(other, retried) instanceof WebhookVerificationError);
  });

  it('signs with a given secret of another form as its raw key', async (ctx) => {
    t.clock.set(new Date());
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const secret = 'a plain secret-with_no base64';
    await createWebhook(ctx, account, receiver.url, { secret });
    await produceAgentEvents(t, account, 1);
    await deliverDueWebhooks(t.deps);
    const [request] = receiver.requests;
    assert.ok(request);
    assert.deepEqual(verify(new StandardWebhook(secret, { format: 'raw' }), request), request.body);
  });

  it('refuses a delivery replayed outside the tolerance window', async (ctx) => {
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    await produceAgentEvents(t, account, 1);
    // Captured ten minutes ago, sent again now: the library's tolerance is five minutes.
    t.clock.set(new Date(Date.now() - 10 * 60_000));
    await deliverDueWebhooks(t.deps);
    t.clock.reset();
    const [captured] = receiver.requests;
    assert.ok(captured);
    const refused = verify(webhook.secret, captured);
    assert.ok(refused instanceof WebhookVerificationError);
    assert.equal(refused.message, 'Message timestamp too old');
    // The signature itself is right: only its time is out of the window.
    const later = new StandardWebhook(webhook.secret);
    assert.equal(
      later.sign(String(captured.body.id), new Date(Number(captured.headers['webhook-timestamp']) * 1000), captured.raw),
      captured.headers['webhook-signature'],
    );
  });

  it('rotates the secret: both signatures during the window, then the new one only', async (ctx) => {
    const start = Date.now() - 150_000;
    t.clock.set(new Date(start));
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    const rotate = (body: Record<string, unknown>) => t.client(account.token).post(`/v2/webhooks/${webhook.id}/secret/rotate`, body);

    const rotated = await rotate({ overlap_seconds: 60 });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, webhook.secret);
    assert.equal(rotated.body.previous_secret_expires_at, new Date(start + 60_000).toISOString());
    assert.deepEqual(
      { id: rotated.body.id, url: rotated.body.url, events: rotated.body.events },
      { id: webhook.id, url: receiver.url, events: null },
    );

    await produceAgentEvents(t, account, 1);
    await deliverDueWebhooks(t.deps);
    const during = receiver.requests[0]!;
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
    assert.deepEqual(verify(rotated.body.secret, during), during.body, 'the new secret verifies');
    assert.deepEqual(verify(webhook.secret, during), during.body, 'the replaced one too, during the window');
    assert.equal(during.headers['x-chat-service-hmac'], createHmac('sha256', rotated.body.secret).update(during.raw).digest('hex'));

    t.clock.advance(120);
    await produceAgentEvents(t, account, 1);
    await deliverDueWebhooks(t.deps);
    const after = receiver.requests[1]!;
    assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(verify(rotated.body.secret, after), after.body);
    assert.ok(verify(webhook.secret, after) instanceof WebhookVerificationError, 'the window is over');

    // A given secret with no window: the replaced one stops at once.
    const given = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    const immediate = await rotate({ secret: given, overlap_seconds: 0 });
    assert.deepEqual([immediate.status, immediate.body.secret, immediate.body.previous_secret_expires_at], [200, given, null]);
    await produceAgentEvents(t, account, 1);
    await deliverDueWebhooks(t.deps);
    const last = receiver.requests[2]!;
    assert.deepEqual(verify(given, last), last.body);
    assert.ok(verify(rotated.body.secret, last) instanceof WebhookVerificationError);
    t.clock.reset();
  });

  it("answers 404 for another account's webhook and 422 for a window over 7 days, changing nothing", async (ctx) => {
    const account = await t.account();
    const receiver = await startReceiver(ctx);
    const webhook = await createWebhook(ctx, account, receiver.url);
    const stranger = await t.account();
    const foreign = await t.client(stranger.token).post(`/v2/webhooks/${webhook.id}/secret/rotate`, {});
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'not_found']);
    const long = await t.client(account.token).post(`/v2/webhooks/${webhook.id}/secret/rotate`, { overlap_seconds: 8 * 86_400 });
    assert.equal(long.status, 422);
    assert.deepEqual(
      long.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['overlap_seconds', 'maximum']],
    );
    const { rows } = await t.db.query<{ secret: string; previous_secret: string | null }>(
      'select secret, previous_secret from webhooks where account_id = $1 and id = $2',
      [account.accountId, webhook.id],
    );
    assert.deepEqual(rows, [{ secret: webhook.secret, previous_secret: null }]);
  });
});

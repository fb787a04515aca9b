import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';
import { produceAgentEvents } from '../test/events.ts';
import { deleteOldEvents } from './retention.ts';
import { ConfigError, loadConfig } from '../config.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ webhookBlockPrivate: false }); // receivers listen on 127.0.0.1
});
after(() => t.close());

const DAY = 24 * 3600;

/** A webhook receiver on 127.0.0.1 answering `status()`; closed when the test ends. */
async function startReceiver(ctx: TestContext, status: () => number): Promise<{ url: string; received: number[]; attempts: number }> {
  const received: number[] = [];
  const receiver = { url: '', received, attempts: 0 };
  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const answer = status();
    receiver.attempts++;
    if (answer < 300) received.push((JSON.parse(raw) as { id: number }).id);
    response.writeHead(answer).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  ctx.after(() => {
    server.closeAllConnections();
    server.close();
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** A webhook of `account`; deleted when the test ends so later tests don't retry it. */
async function createWebhook(ctx: TestContext, account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const res = await t.client(account.token).post('/v2/webhooks', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  ctx.after(() => t.client(account.token).delete(`/v2/webhooks/${res.body.id}`));
  return res.body.id;
}

async function eventIds(account: TestAccount): Promise<number[]> {
  const { rows } = await t.db.query<{ id: string }>('select id from events where account_id = $1 order by id', [account.accountId]);
  return rows.map((row) => Number(row.id));
}

/** Commits `count` events of `account`; returns their ids. */
async function produce(account: TestAccount, count: number): Promise<number[]> {
  const before = new Set(await eventIds(account));
  await produceAgentEvents(t, account, count);
  const ids = (await eventIds(account)).filter((id) => !before.has(id));
  assert.equal(ids.length, count);
  return ids;
}

/**
 * A delivery pass that queued and attempted something, after passes that found nothing settled yet. The settled
 * horizon waits at most a second for the transactions running when a pass asks, and xids are the cluster's: a longer
 * transaction in another test file's database (a migration) holds it back, and a pass then queues nothing.
 */
async function deliverOnceSettled(): Promise<{ attempted: number; delivered: number }> {
  let result = await deliverDueWebhooks(t.deps);
  for (let pass = 0; pass < 100 && result.attempted === 0; pass++) {
    await sleep(100);
    result = await deliverDueWebhooks(t.deps);
  }
  return result;
}

/** Moves the account's events (all, or `ids`) `days` into the past. */
async function age(account: TestAccount, days: number, ids?: number[]): Promise<void> {
  await t.db.query(
    `update events set created_at = created_at - make_interval(days => $2)
     where account_id = $1 and ($3::bigint[] is null or id = any($3::bigint[]))`,
    [account.accountId, days, ids ?? null],
  );
}

describe('event retention', () => {
  it('reads EVENT_RETENTION_DAYS: 30 by default, a whole number of days of at least 1', () => {
    assert.equal(loadConfig({}).eventRetentionDays, 30);
    assert.equal(loadConfig({ EVENT_RETENTION_DAYS: '7' }).eventRetentionDays, 7);
    for (const bad of ['0', '-1', '1.5', 'week']) {
      assert.throws(
        () => loadConfig({ EVENT_RETENTION_DAYS: bad }),
        (error: Error) => error instanceof ConfigError && error.message.includes('EVENT_RETENTION_DAYS'),
      );
    }
  });

  it('deletes events older than EVENT_RETENTION_DAYS and keeps recent ones, per account', async () => {
    // A year without month partitions: its events sit in the default partition, deleted row by row to the day.
    // Months with a partition go whole (src/db/partitions.test.ts).
    t.clock.set('2001-06-15T12:00:00Z');
    const a = await t.account();
    const b = await t.account();
    const aOld = await produce(a, 3);
    const aRecent = await produce(a, 2);
    await age(a, 31, aOld);
    const bWithinWindow = await produce(b, 2);
    await age(b, 29);

    assert.equal(t.deps.config.eventRetentionDays, 30, 'the default');
    assert.equal(await deleteOldEvents(t.deps), 3);
    assert.deepEqual(await eventIds(a), aRecent);
    assert.deepEqual(await eventIds(b), bWithinWindow, 'another account keeps its events within the window');
    assert.equal(await deleteOldEvents(t.deps), 0, 'a second pass finds nothing more');

    // A shorter retention, or a later clock, reaches them.
    assert.equal(await deleteOldEvents({ ...t.deps, config: { ...t.deps.config, eventRetentionDays: 28 } }), 2);
    assert.deepEqual(await eventIds(b), []);
    assert.deepEqual(await eventIds(a), aRecent);
    t.clock.advance(29 * DAY);
    assert.equal(await deleteOldEvents(t.deps), 0);
    t.clock.advance(2 * DAY);
    assert.equal(await deleteOldEvents(t.deps), 2);
    assert.deepEqual(await eventIds(a), []);

    // New events continue above the deleted ids.
    t.clock.set(new Date());
    const next = await produce(a, 1);
    assert.ok(next[0]! > aRecent[1]!);
  });

  it('keeps old events a webhook still has to deliver, until it has', async (ctx) => {
    t.clock.set(new Date());
    const a = await t.account();
    const b = await t.account();
    const c = await t.account();
    let answer = 500;
    const receiver = await startReceiver(ctx, () => answer);
    const webhook = await createWebhook(ctx, a, { url: receiver.url });
    // b's webhook wants no agent.updated events: once queued past them, it needs none of them.
    await createWebhook(ctx, b, { url: receiver.url, events: ['conversation.closed'] });

    const aQueued = await produce(a, 3);
    const bFiltered = await produce(b, 3);
    await produce(c, 3);
    for (const account of [a, b, c]) await age(account, 40);

    // Nothing queued yet: a's and b's webhooks still have to look at their events.
    assert.equal(await deleteOldEvents(t.deps), 3);
    assert.deepEqual(await eventIds(c), []);
    assert.deepEqual(await eventIds(a), aQueued);
    assert.deepEqual(await eventIds(b), bFiltered);

    // Queued: a's first delivery fails and waits for a retry, the others wait behind it; b's are filtered out.
    assert.deepEqual(await deliverOnceSettled(), { attempted: 1, delivered: 0 });
    const aNotQueued = await produce(a, 1);
    await age(a, 40, aNotQueued);
    assert.equal(await deleteOldEvents(t.deps), 3);
    assert.deepEqual(await eventIds(b), []);
    assert.deepEqual(await eventIds(a), [...aQueued, ...aNotQueued], 'undelivered and not yet queued events are kept');

    // Delivered one by one: each delivered event becomes deletable.
    answer = 200;
    t.clock.advance(3600);
    assert.deepEqual(await deliverDueWebhooks(t.deps), { attempted: 1, delivered: 1 });
    assert.equal(await deleteOldEvents(t.deps), 1);
    assert.deepEqual(await eventIds(a), [...aQueued.slice(1), ...aNotQueued]);
    for (let pass = 0; pass < 10 && receiver.received.length < 4; pass++) await deliverDueWebhooks(t.deps);
    assert.deepEqual(receiver.received, [...aQueued, ...aNotQueued], 'every event reached the webhook, in order');
    assert.equal(await deleteOldEvents(t.deps), 3);
    assert.deepEqual(await eventIds(a), []);

    // The delivery log does not need the events.
    const log = await t.client(a.token).get(`/v2/webhooks/${webhook}/deliveries`);
    assert.equal(log.status, 200);
    assert.equal(log.body.deliveries.length, 5);
  });

  it('deletes old events once their webhook has given up on them', async (ctx) => {
    t.clock.set(new Date());
    const a = await t.account();
    const receiver = await startReceiver(ctx, () => 500);
    await createWebhook(ctx, a, { url: receiver.url });
    const ids = await produce(a, 2);
    await age(a, 31);
    const pending = async () =>
      (
        await t.db.query<{ event_id: string }>('select event_id from webhook_deliveries where account_id = $1 order by event_id', [
          a.accountId,
        ])
      ).rows.map((row) => Number(row.event_id));
    // Retried for 24 hours each, then given up: no webhook has to deliver them any more.
    await deliverOnceSettled();
    assert.deepEqual(await pending(), ids);
    let deleted = await deleteOldEvents(t.deps);
    assert.equal(deleted, 0);
    for (let pass = 0; pass < 100 && (await pending()).length > 0; pass++) {
      t.clock.advance(3600);
      await deliverDueWebhooks(t.deps);
      deleted += await deleteOldEvents(t.deps);
      // Exactly the events still pending remain.
      assert.deepEqual(await eventIds(a), await pending());
    }
    assert.deepEqual(await pending(), [], 'given up');
    assert.ok(receiver.attempts > 4, 'retried first');
    assert.equal(deleted, 2);
    assert.deepEqual(await eventIds(a), []);
  });

  it('passes of several instances at once delete each event once', async () => {
    t.clock.set(new Date());
    const accounts = [await t.account(), await t.account()];
    for (const account of accounts) {
      await produce(account, 4);
      await age(account, 31);
    }
    const counts = await Promise.all([deleteOldEvents(t.deps), deleteOldEvents(t.deps), deleteOldEvents(t.deps)]);
    assert.equal(
      counts.reduce((sum, n) => sum + n, 0),
      8,
    );
    for (const account of accounts) assert.deepEqual(await eventIds(account), []);
  });
});

/**
 * Month partitions (migration 230, src/db/partitions.ts): created ahead by the service, a default partition for any
 * other month, and retention by whole months (events, messages and paths, the webhook queue). The tests run in
 * years far from today, each in months of its own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { produceAgentEvents } from '../test/events.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';
import { dropEmptyDeliveryMonths } from '../webhooks/queue.ts';
import { deleteOldEvents } from '../events/retention.ts';
import { deleteOldMessages } from '../conversations/retention.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createMonthPartitions, MONTHS_AHEAD, monthPartitions, PARTITIONED_TABLES, type PartitionedTable } from './partitions.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ webhookBlockPrivate: false, webhookRetryBaseMs: 3_600_000 });
});
after(() => t.close());

async function partitionNames(table: PartitionedTable): Promise<string[]> {
  return (await monthPartitions(t.db, table)).map((partition) => partition.name);
}

/** The partition holding each of the rows `where` selects from `table`. */
async function partitionsOf(table: PartitionedTable, where: string, params: unknown[]): Promise<string[]> {
  const { rows } = await t.db.query<{ part: string }>(`select tableoid::regclass::text as part from ${table} where ${where}`, params);
  return rows.map((row) => row.part);
}

/**
 * At `at` (its month's partitions made), a new account with a webhook to 127.0.0.1:`port`, where nothing listens, and
 * `events` agent events for it.
 */
async function eventsForWebhook(at: string, port: number, events: number) {
  const account = await t.account();
  t.clock.set(at);
  await createMonthPartitions(t.deps);
  const hook = await t.client(account.token).post('/v2/webhooks', { url: `http://127.0.0.1:${port}/hook` });
  assert.equal(hook.status, 200);
  await produceAgentEvents(t, account, events);
  return { account, hook };
}

describe('month partitions', () => {
  it('are created for the current month and the next ones, once, also by instances running at once', async () => {
    t.clock.set('2031-01-15T10:00:00Z');
    assert.equal(await createMonthPartitions(t.deps), PARTITIONED_TABLES.length * (MONTHS_AHEAD + 1));
    for (const table of PARTITIONED_TABLES) {
      const names = await partitionNames(table);
      for (const month of ['203101', '203102', '203103', '203104']) assert.ok(names.includes(`${table}_p${month}`), `${table} ${month}`);
      assert.ok(!names.includes(`${table}_p203105`));
    }
    assert.equal(await createMonthPartitions(t.deps), 0, 'a second pass creates nothing');

    // Two passes at once (two instances): one creates, the other finds the lock taken or the work done.
    t.clock.set('2032-03-10T10:00:00Z');
    const counts = await Promise.all([createMonthPartitions(t.deps), createMonthPartitions(t.deps)]);
    assert.equal(counts[0] + counts[1], PARTITIONED_TABLES.length * (MONTHS_AHEAD + 1), String(counts));
    assert.ok((await partitionNames('messages')).includes('messages_p203206'));
  });

  it('never refuse a write: a month without a partition goes to the default one, and moves into its own when created', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('1999-12-31T23:00:00Z');
    const old = await f.conversation();
    const oldMessage = await f.contactSays(old.id, 'before any partition');
    assert.deepEqual(await partitionsOf('messages', 'account_id = $1 and id = $2', [account.accountId, oldMessage.id]), [
      'messages_default',
    ]);

    t.clock.set('2033-02-10T10:00:00Z');
    const early = await f.conversation();
    const message = await f.contactSays(early.id, 'a month ahead of its partition');
    await f.path(early.id, 'https://example.com/early');
    assert.deepEqual(await partitionsOf('messages', 'account_id = $1 and id = $2', [account.accountId, message.id]), ['messages_default']);

    t.clock.set('2033-01-20T10:00:00Z');
    assert.ok((await createMonthPartitions(t.deps)) > 0);
    assert.deepEqual(await partitionsOf('messages', 'account_id = $1 and id = $2', [account.accountId, message.id]), ['messages_p203302']);
    assert.deepEqual(await partitionsOf('paths', 'account_id = $1 and conversation_id = $2', [account.accountId, early.id]), [
      'paths_p203302',
    ]);
    // A month found in the default partition gets its own at the same pass.
    assert.deepEqual(await partitionsOf('messages', 'account_id = $1 and id = $2', [account.accountId, oldMessage.id]), [
      'messages_p199912',
    ]);
    const read = await f.get(early.id);
    assert.deepEqual(
      read.messages.map((m: { id: string }) => m.id),
      [message.id],
    );
    assert.equal(read.paths.length, 1);
  });

  // Event ids: no writer names one (src/events/fanout.test.ts), each is next_event_id() (migration 156).
  it("refuse a message id repeated within a month (the key is the id with the partition's time)", async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('2033-02-11T10:00:00Z');
    const conversation = await f.conversation();
    const message = await f.contactSays(conversation.id, 'once');
    await assert.rejects(
      t.db.query(
        `insert into messages (account_id, id, conversation_id, type, sub_type, content, created_at)
         select account_id, id, conversation_id, type, sub_type, content, created_at from messages where account_id = $1 and id = $2`,
        [account.accountId, message.id],
      ),
      (error: Error & { code?: string }) => error.code === '23505',
    );
  });
});

describe('event retention by month', () => {
  it('drops a month once it is wholly older than EVENT_RETENTION_DAYS and no webhook still needs its events', async () => {
    // A webhook that has not queued the events yet: they stay until it has.
    const { account, hook } = await eventsForWebhook('2034-05-10T10:00:00Z', 8022, 3);
    const count = async () =>
      Number((await t.db.query<{ n: number }>('select count(*) as n from events where account_id = $1', [account.accountId])).rows[0]!.n);
    assert.equal(await count(), 3);
    assert.deepEqual(await partitionsOf('events', 'account_id = $1', [account.accountId]), Array(3).fill('events_p203405'));

    // 30 days after May 10, but May is not wholly older than 30 days yet: kept.
    t.clock.set('2034-06-25T10:00:00Z');
    await deleteOldEvents(t.deps);
    assert.equal(await count(), 3);
    // May ended 30 days ago, but the webhook still needs the events.
    t.clock.set('2034-07-02T10:00:00Z');
    await deleteOldEvents(t.deps);
    assert.ok((await partitionNames('events')).includes('events_p203405'));
    assert.equal(await count(), 3);

    assert.equal((await t.client(account.token).delete(`/v2/webhooks/${hook.body.id}`)).status, 200);
    assert.ok((await deleteOldEvents(t.deps)) >= 3);
    assert.ok(!(await partitionNames('events')).includes('events_p203405'), 'the month is dropped whole');
    assert.equal(await count(), 0);
    assert.ok((await partitionNames('events')).includes('events_p203406'), 'June stays');
  });
});

describe('message retention (MESSAGE_RETENTION_DAYS)', () => {
  it('is unset by default (messages kept for good), else a whole number of days of at least 1', () => {
    assert.equal(loadConfig({}).messageRetentionDays, null);
    assert.equal(loadConfig({ MESSAGE_RETENTION_DAYS: '365' }).messageRetentionDays, 365);
    for (const bad of ['0', '-1', '1.5', 'year']) {
      assert.throws(
        () => loadConfig({ MESSAGE_RETENTION_DAYS: bad }),
        (error: Error) => error instanceof ConfigError && error.message.includes('MESSAGE_RETENTION_DAYS'),
      );
    }
  });

  it('drops whole months of messages and paths, deletes old ones of the default partition, and keeps conversations', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    t.clock.set('2035-01-05T10:00:00Z');
    await createMonthPartitions(t.deps);
    const conversation = await f.conversation();
    await f.contactSays(conversation.id, 'January');
    await f.path(conversation.id, 'https://example.com/january');
    t.clock.set('2035-03-05T10:00:00Z');
    const march = await f.contactSays(conversation.id, 'March');

    // Written after the last partition pass: waits in the default partition.
    t.clock.set('1998-06-01T10:00:00Z');
    const stray = await f.conversation();
    await f.contactSays(stray.id, 'old import');
    t.clock.set('2035-03-05T10:00:00Z');
    const messages = async () => (await f.get(conversation.id)).messages.map((m: { content: { text: string } }) => m.content.text);
    assert.deepEqual(await messages(), ['January', 'March']);
    assert.equal(await deleteOldMessages(t.deps), 0, 'unset: nothing goes');

    const retention = { ...t.deps, config: { ...t.deps.config, messageRetentionDays: 30 } };
    t.clock.set('2035-03-20T10:00:00Z');
    const removed = await deleteOldMessages(retention);
    assert.ok(removed >= 2, `January's message and path (and older test months): ${removed}`);
    assert.ok(!(await partitionNames('messages')).includes('messages_p203501'));
    assert.ok(!(await partitionNames('paths')).includes('paths_p203501'));
    // The default partition's old rows are deleted row by row; its conversation stays.
    assert.equal((await f.get(stray.id)).messages.length, 0);
    assert.ok(!(await partitionNames('messages')).includes('messages_p199912'), 'the month of 1999 is dropped');

    const read = await f.get(conversation.id);
    assert.deepEqual(
      read.messages.map((m: { id: string }) => m.id),
      [march.id],
      'the conversation stays, with the messages kept',
    );
    assert.equal(read.paths.length, 0);
  });
});

describe('webhook queue months', () => {
  it('drops a past month of the queue once it holds no delivery', async () => {
    const { account, hook } = await eventsForWebhook('2036-01-10T10:00:00Z', 8023, 1);
    // Nothing listens there: the delivery stays queued for its retry.
    for (let pass = 0; pass < 20 && (await deliverDueWebhooks(t.deps)).attempted === 0; pass++);
    assert.deepEqual(await partitionsOf('webhook_deliveries', 'account_id = $1', [account.accountId]), ['webhook_deliveries_p203601']);

    await dropEmptyDeliveryMonths(t.db, new Date('2036-03-01T10:00:00Z'));
    const names = await partitionNames('webhook_deliveries');
    assert.ok(names.includes('webhook_deliveries_p203601'), 'a month holding a delivery stays');
    assert.ok(!names.includes('webhook_deliveries_p203602'), 'an empty past month goes');
    assert.ok(!names.includes('webhook_deliveries_p203101'));
    assert.ok(names.includes('webhook_deliveries_p203603'), 'the current month stays');
    assert.equal((await t.client(account.token).delete(`/v2/webhooks/${hook.body.id}`)).status, 200);
  });
});

/**
 * Migration 230 (history by month) on a database holding data from before it: the database has every migration but
 * this one (those numbered after it too, which today's code needs and which leave these tables alone), is filled
 * through the API (messages, paths, events and pending webhook deliveries over three months, one
 * over a year back), then migrates in place; every row is still there, in its month's partition, and the service goes
 * on working on it (writes, reads, resume of events, the webhook queue).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';
import { eventsAfter } from '../events/repository.ts';
import { migrate, migrationFiles } from './migrate.ts';
import { MONTHS_AHEAD, PARTITIONED_TABLES, type PartitionedTable } from './partitions.ts';

const MIGRATION = '230_history_by_month.sql';

let t: TestApp;
before(async () => {
  // Deliveries go to a port of this helper's range where nothing listens: they stay queued, retried an hour later.
  t = await startTestApp({ webhookBlockPrivate: false, webhookRetryBaseMs: 3_600_000 }, undefined, {
    migrations: (name) => name !== MIGRATION,
  });
});
after(() => t.close());

/** Each table's rows in key order, as JSON (the generated search vector aside: it is recomputed). */
const KEYS: Record<PartitionedTable, string> = {
  messages: 'account_id, id',
  paths: 'account_id, conversation_id, seq',
  events: 'account_id, id',
  webhook_deliveries: 'account_id, webhook_id, event_id',
};
async function dump(table: PartitionedTable): Promise<unknown[]> {
  const { rows } = await t.db.query<{ row: unknown }>(`select to_jsonb(x) - 'text_search' as row from ${table} x order by ${KEYS[table]}`);
  return rows.map((row) => row.row);
}

/** Rows of `table` per partition. */
async function placement(table: PartitionedTable): Promise<Record<string, number>> {
  const { rows } = await t.db.query<{ part: string; n: number }>(
    `select tableoid::regclass::text as part, count(*)::int8 as n from ${table} group by 1 order by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.part, row.n]));
}

const month = (at: Date) => at.toISOString().slice(0, 7).replace('-', '');

it('moves every message, path, event and queued delivery into its month, and the service works on', async () => {
  const { rows: versions } = await t.db.query<{ version: string }>('select version from schema_migrations');
  assert.deepEqual(
    versions.map((row) => row.version).sort(),
    migrationFiles().filter((name) => name !== MIGRATION),
  );
  assert.equal((await t.db.query("select to_regclass('messages_default') as r")).rows[0]!.r, null, 'not partitioned yet');

  const account = await t.account();
  const f = conversationFactory(t, account);
  const hook = await t.client(account.token).post('/v2/webhooks', { url: 'http://127.0.0.1:8021/hook' });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  const now = new Date();
  const times = [new Date(now.getTime() - 400 * 86_400_000), new Date(now.getTime() - 70 * 86_400_000), now];
  const agent = await f.agent();
  const conversations: string[] = [];
  for (const at of times) {
    t.clock.set(at);
    const conversation = await f.conversation();
    conversations.push(conversation.id);
    await f.contactSays(conversation.id, `hello from ${at.toISOString()}`);
    await f.agentSays(conversation.id, agent.id, 'how can I help?');
    await f.path(conversation.id, `https://example.com/${month(at)}`, 'Pricing');
  }
  // Queue the events: every delivery fails (nothing listens) and waits an hour for its retry.
  for (let pass = 0; pass < 50 && (await dump('webhook_deliveries')).length === 0; pass++) await deliverDueWebhooks(t.deps);

  const before = Object.fromEntries(await Promise.all(PARTITIONED_TABLES.map(async (table) => [table, await dump(table)])));
  for (const table of PARTITIONED_TABLES) assert.ok(before[table].length > 0, `${table} has rows before`);
  const { rows: maxima } = await t.db.query<{ seq: number; id: number }>(
    'select (select max(seq) from messages) as seq, (select last_value from events_id_seq) as id',
  );

  assert.deepEqual(await migrate(t.db), [MIGRATION]);

  for (const table of PARTITIONED_TABLES) assert.deepEqual(await dump(table), before[table], `${table}: every row kept`);
  // Messages, paths and events sit in the partitions of their months; the default partitions are empty.
  for (const table of ['messages', 'paths', 'events'] as const) {
    const parts = await placement(table);
    assert.deepEqual(Object.keys(parts).sort(), times.map((at) => `${table}_p${month(at)}`).sort(), `${table}: ${JSON.stringify(parts)}`);
  }
  assert.deepEqual(Object.keys(await placement('webhook_deliveries')), [`webhook_deliveries_p${month(now)}`]);
  // Partitions exist from the oldest month through three months ahead.
  const { rows: parts } = await t.db.query<{ n: number }>(
    "select count(*)::int8 as n from pg_inherits where inhparent = 'messages'::regclass and inhrelid::regclass::text <> 'messages_default'",
  );
  const index = (at: Date) => at.getUTCFullYear() * 12 + at.getUTCMonth();
  assert.equal(parts[0]!.n, index(now) - index(times[0]!) + 1 + MONTHS_AHEAD);

  // The service goes on: a new message in the oldest conversation, read back with the old ones.
  t.clock.reset();
  const reply = await f.contactSays(conversations[0]!, 'still there?');
  const conversation = await f.get(conversations[0]!);
  assert.deepEqual(conversation.messages.map((message: { id: string }) => message.id).slice(-1), [reply.id]);
  assert.equal(conversation.messages.length, 3);
  assert.equal(conversation.paths.length, 1);
  const paths = await t.client(account.token).get(`/v2/conversations/${conversations[2]}/paths`);
  assert.equal(paths.status, 200);
  // Sequences continue after the copied rows.
  const { rows: after } = await t.db.query<{ seq: number }>('select seq from messages where account_id = $1 and id = $2', [
    account.accountId,
    reply.id,
  ]);
  assert.ok(after[0]!.seq > maxima[0]!.seq);
  // Events resume in order from the first, the new ones after the migrated ones.
  const events = await eventsAfter(t.db, account.accountId, { afterId: 0, throughId: Number.MAX_SAFE_INTEGER }, 1000);
  const ids = events.map((event) => event.id);
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
  );
  assert.ok(ids.length > before.events.length && ids.at(-1)! > maxima[0]!.id);
  // The webhook queue: due deliveries are claimed and retried again.
  t.clock.advance(2 * 3600);
  const pass = await deliverDueWebhooks(t.deps);
  assert.ok(pass.attempted > 0 && pass.delivered === 0, JSON.stringify(pass));
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';
import { ApiError } from '../http/errors.ts';
import { generateDemoData, type DemoDataSummary } from './service.ts';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const CONVERSATIONS = 300;

let t: TestApp;
let account: TestAccount;
let summary: DemoDataSummary;

async function fill(accountId: string, seed = 'test'): Promise<DemoDataSummary> {
  return generateDemoData(t.db, {
    accountId,
    conversations: CONVERSATIONS,
    days: 60,
    seed,
    now: NOW,
    inactivityTimeoutSeconds: t.deps.config.inactivityTimeoutSeconds,
  });
}

/** Rows of `sql` run with the account id as $1: each invariant query returns its violations. */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await t.db.query(sql, [account.accountId])).rows;
}

before(async () => {
  t = await startTestApp();
  account = await t.account();
  summary = await fill(account.accountId);
});
after(() => t.close());

describe('demo-data', () => {
  it('writes the requested conversations, about ten messages each, over the period', async () => {
    const [counts] = await rows(`
      select (select count(*) from conversations where account_id = $1) as conversations,
             (select count(*) from messages where account_id = $1) as messages,
             (select count(*) from contacts where account_id = $1) as contacts,
             (select min(created_at) from conversations where account_id = $1) as first,
             (select max(created_at) from conversations where account_id = $1) as last`);
    assert.ok(counts);
    assert.equal(counts.conversations, CONVERSATIONS);
    assert.equal(summary.conversations, CONVERSATIONS);
    assert.equal(counts.messages, summary.messages);
    assert.equal(counts.contacts, summary.contacts);
    assert.ok(summary.messages > CONVERSATIONS * 7 && summary.messages < CONVERSATIONS * 13, `${summary.messages} messages`);
    assert.ok((counts.first as Date) >= new Date(NOW.getTime() - 62 * 86_400_000));
    assert.ok((counts.last as Date) < NOW);
  });

  it('writes its history into the month partitions of its period, none into the default ones (src/db/partitions.ts)', async () => {
    const placed = await rows(`
      select tableoid::regclass::text as partition, count(*)::int8 as n from messages where account_id = $1 group by 1
      union all
      select tableoid::regclass::text, count(*)::int8 from paths where account_id = $1 group by 1`);
    assert.ok(placed.length >= 4, JSON.stringify(placed));
    for (const row of placed) assert.match(String(row.partition), /^(messages|paths)_p[0-9]{6}$/);
  });

  it('has more traffic on weekdays than at weekends and in office hours than at night', async () => {
    const [shape] = await rows(`
      select count(*) filter (where extract(isodow from created_at) <= 5) / 5.0 as per_weekday,
             count(*) filter (where extract(isodow from created_at) > 5) / 2.0 as per_weekend_day,
             count(*) filter (where extract(hour from created_at) between 9 and 16) / 8.0 as per_office_hour,
             count(*) filter (where extract(hour from created_at) < 6) / 6.0 as per_night_hour
      from conversations where account_id = $1`);
    assert.ok(shape);
    assert.ok((shape.per_weekday as number) > 1.5 * (shape.per_weekend_day as number), JSON.stringify(shape));
    assert.ok((shape.per_office_hour as number) > 4 * (shape.per_night_hour as number), JSON.stringify(shape));
  });

  it('has exactly one first reply in every answered conversation, and it is the earliest reply', async () => {
    const violations = await rows(`
      select c.id, count(*) filter (where m.is_first_reply) as firsts, count(*) filter (where m.is_reply) as replies,
             min(m.created_at) filter (where m.is_reply) as earliest_reply, min(m.created_at) filter (where m.is_first_reply) as first_reply
      from conversations c left join messages m on m.account_id = c.account_id and m.conversation_id = c.id
      where c.account_id = $1 group by c.id
      having count(*) filter (where m.is_first_reply) <> least(count(*) filter (where m.is_reply), 1)
          or min(m.created_at) filter (where m.is_reply) is distinct from min(m.created_at) filter (where m.is_first_reply)`);
    assert.deepEqual(violations, []);
    const [answered] = await rows(`select count(distinct conversation_id) as n from messages where account_id = $1 and is_first_reply`);
    assert.ok(answered);
    assert.ok((answered.n as number) > CONVERSATIONS / 2);
  });

  it('flags replies as the service does: response_time from the earliest unanswered contact message', async () => {
    // For each agent message, the contact messages since the previous agent message.
    const violations = await rows(`
      with ordered as (
        select m.*, count(*) filter (where type = 'message' and sub_type = 'agent')
                      over (partition by conversation_id order by created_at, seq rows between unbounded preceding and 1 preceding) as turn
        from messages m where account_id = $1
      ),
      waiting as (
        select conversation_id, turn, min(created_at) as since, bool_or(is_offline) as offline
        from ordered where type = 'message' and sub_type = 'contact' group by conversation_id, turn
      )
      select a.id, a.is_reply, a.response_time, w.since, a.created_at
      from ordered a left join waiting w on w.conversation_id = a.conversation_id and w.turn = a.turn
      where a.type = 'message' and a.sub_type = 'agent'
        and (a.is_reply <> (w.since is not null)
             or a.is_offline_reply <> coalesce(w.offline, false)
             or a.response_time is distinct from extract(epoch from a.created_at - w.since)::float8)`);
    assert.deepEqual(violations, []);
    const [others] = await rows(`
      select count(*) as n from messages where account_id = $1 and not (type = 'message' and sub_type = 'agent')
        and (is_reply or is_first_reply or is_offline_reply or response_time is not null)`);
    assert.ok(others);
    assert.equal(others.n, 0);
    const [offline] = await rows(`select count(*) filter (where is_offline_reply) as replies, count(*) filter (where is_offline) as messages
                                  from messages where account_id = $1`);
    assert.ok(offline);
    assert.ok((offline.replies as number) > 0 && (offline.messages as number) > 0, 'some offline messages and offline replies');
  });

  it('keeps every conversation column consistent with its messages', async () => {
    const violations = await rows(`
      with per as (
        select c.id, c.status, c.is_served, c.is_offline, c.unread, c.created_at, c.last_message_at, c.agent_ids, c.assigned_ids,
               c.group_id, c.finished_at, c.close_type,
               min(m.created_at) as first_message_at,
               max(m.created_at) filter (where m.type = 'message') as last_at,
               coalesce(array_agg(distinct m.agent_id) filter (where m.type = 'message' and m.sub_type = 'agent'), '{}') as writers,
               coalesce(array_agg(distinct m.agent_id) filter (where m.type = 'event'), '{}') as assignees,
               bool_and(m.group_id is not distinct from c.group_id) as groups_match,
               (array_agg(m.is_offline order by m.created_at, m.seq) filter (where m.sub_type = 'contact' and m.type = 'message'))[1] as first_offline,
               count(*) filter (where m.sub_type = 'contact' and m.type = 'message' and m.created_at >
                 coalesce((select max(a.created_at) from messages a where a.account_id = c.account_id and a.conversation_id = c.id
                           and a.type = 'message' and a.sub_type = 'agent'), '-infinity')) as unanswered
        from conversations c join messages m on m.account_id = c.account_id and m.conversation_id = c.id
        where c.account_id = $1 group by c.id, c.account_id
      )
      select * from per
      where created_at <> first_message_at or last_message_at <> last_at
         or (select array_agg(x order by x) from unnest(agent_ids) x) is distinct from (select array_agg(x order by x) from unnest(writers) x)
         or (select array_agg(x order by x) from unnest(assigned_ids) x) is distinct from (select array_agg(x order by x) from unnest(assignees) x)
         or not groups_match or is_offline <> first_offline or unread <> unanswered
         or is_served <> (cardinality(writers) > 0 or cardinality(assignees) > 0)
         or (status = 'served' and not is_served)`);
    assert.deepEqual(violations, []);
  });

  it('keeps the reply state on each conversation row as its messages give it', async () => {
    const violations = await rows(`
      with derived as (
        select c.id, c.unanswered_since, c.unanswered_offline, c.has_reply, c.has_contact_message, c.latest_message_at,
               (select max(m.created_at) from messages m where m.account_id = c.account_id and m.conversation_id = c.id) as latest,
               exists (select 1 from messages m where m.account_id = c.account_id and m.conversation_id = c.id and m.is_reply) as replied,
               exists (select 1 from messages m where m.account_id = c.account_id and m.conversation_id = c.id
                       and m.type = 'message' and m.sub_type = 'contact') as contacted,
               (select min(m.created_at) from messages m where m.account_id = c.account_id and m.conversation_id = c.id
                  and m.type = 'message' and m.sub_type = 'contact' and m.created_at > coalesce((
                    select max(a.created_at) from messages a where a.account_id = c.account_id and a.conversation_id = c.id
                      and a.type = 'message' and a.sub_type = 'agent'), '-infinity')) as waiting_since
        from conversations c where c.account_id = $1
      )
      select * from derived
      where latest_message_at is distinct from latest or has_reply <> replied or has_contact_message <> contacted
         or unanswered_since is distinct from waiting_since or (unanswered_since is null and unanswered_offline)`);
    assert.deepEqual(violations, []);
  });

  it('goes on live from the stored reply state: an agent answering unanswered messages gets its reply flags', async () => {
    // An account of its own: the other tests compare the shared one with a second fill.
    const live = await t.account();
    await fill(live.accountId);
    const {
      rows: [waiting],
    } = await t.db.query(
      `select c.id, c.unanswered_since, (select min(a.id) from agents a where a.account_id = c.account_id) as agent_id
       from conversations c where c.account_id = $1 and c.unread > 0 order by c.id limit 1`,
      [live.accountId],
    );
    assert.ok(waiting, 'a conversation whose contact messages went unanswered');
    const at = new Date(NOW.getTime() + 60_000);
    t.clock.set(at);
    try {
      const res = await t
        .client(live.token)
        .post(`/v2/conversations/${waiting.id}/messages`, { sub_type: 'agent', agent_id: waiting.agent_id, text: 'Sorry for the wait' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.is_reply, true);
      assert.equal(res.body.response_time, (at.getTime() - (waiting.unanswered_since as Date).getTime()) / 1000);
      const conversation = (await t.client(live.token).get(`/v2/conversations/${waiting.id}`)).body;
      assert.equal(conversation.unread, 0);
      assert.equal(conversation.is_served, true);
    } finally {
      t.clock.reset();
    }
  });

  it('closes conversations with finished_at and close_type, by an agent or after the inactivity timeout', async () => {
    const timeout = t.deps.config.inactivityTimeoutSeconds;
    const violations = await rows(`
      select id, status, finished_at, close_type, last_message_at, created_at from conversations c
      where account_id = $1 and not (
        case when status = 'closed'
             then finished_at is not null and close_type in ('agent', 'inactivity') and finished_at >= created_at
                  -- An inactivity close comes the timeout after the last message before it (an
                  -- offline reply may follow it: agent messages do not reopen a conversation).
                  and (close_type <> 'inactivity' or finished_at - interval '${timeout} seconds' = (
                        select max(m.created_at) from messages m where m.account_id = c.account_id and m.conversation_id = c.id
                          and m.type = 'message' and m.created_at < c.finished_at))
             else finished_at is null and close_type is null
                  and last_message_at >= timestamptz '${NOW.toISOString()}' - interval '${timeout} seconds'
        end)`);
    assert.deepEqual(violations, []);
    const closes = await rows(
      `select close_type, count(*) as n from conversations where account_id = $1 and status = 'closed' group by 1 order by 1`,
    );
    assert.deepEqual(
      closes.map((row) => row.close_type),
      ['agent', 'inactivity'],
    );
  });

  it('rates only served conversations, with every rating field set together', async () => {
    const violations = await rows(`
      select id from conversations where account_id = $1
        and ((rating_value is null) <> (rated_at is null) or (rating_text is not null and rating_value is null)
             or (rating_value is not null and (not is_served or rated_at < created_at or rated_at > timestamptz '${NOW.toISOString()}')))`);
    assert.deepEqual(violations, []);
    const [rated] = await rows(`select count(*) as n from conversations where account_id = $1 and rating_value is not null`);
    assert.ok(rated);
    assert.ok((rated.n as number) > 0);
  });

  it('gives the same history for the same seed and another for another seed', async () => {
    const shape = async (accountId: string) =>
      (
        await t.db.query(
          `select count(*) as messages, sum(extract(epoch from created_at)) as times, round(sum(response_time)::numeric, 3) as response_times
           from messages where account_id = $1`,
          [accountId],
        )
      ).rows[0];
    const again = await t.account();
    await fill(again.accountId);
    const other = await t.account();
    await fill(other.accountId, 'another seed');
    assert.deepEqual(await shape(again.accountId), await shape(account.accountId));
    assert.notDeepEqual(await shape(other.accountId), await shape(account.accountId));
  });

  it('refuses an unknown account', async () => {
    await assert.rejects(fill('acNoSuchAccount'), (error) => error instanceof ApiError && error.status === 404);
  });

  it('can be read back through the HTTP API', async () => {
    const [sample] = await rows(`
      select c.id, count(m.*) as messages from conversations c join messages m on m.account_id = c.account_id and m.conversation_id = c.id
      where c.account_id = $1 and c.status = 'closed' and c.rating_value is not null group by c.id order by c.id limit 1`);
    assert.ok(sample);
    const res = await t.client(account.token).get(`/v2/conversations/${sample.id}?messages=true&statistics=true`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, sample.id);
    assert.equal(res.body.status, 'closed');
    assert.equal(res.body.messages.length, sample.messages);
    const replies = res.body.messages.filter((m: { is_reply: boolean }) => m.is_reply);
    assert.equal(replies.filter((m: { is_first_reply: boolean }) => m.is_first_reply).length, 1);
    assert.equal(res.body.statistics.first_response_time, replies[0].response_time);
    const elsewhere = await t.client((await t.account()).token).get(`/v2/conversations/${sample.id}`);
    assert.equal(elsewhere.status, 404);
  });

  it('answers POST /v2/statistics with the stored replies, closes and ratings', async () => {
    const all = { from: null, to: null };
    const res = await t.client(account.token).post('/v2/statistics', {
      replies: { name: 'response_time', range: all },
      closed: { name: 'closed_conversation', range: all },
      ratings: { name: 'conversation_ratings', range: all },
    });
    assert.equal(res.status, 200);
    const [expected] = await rows(`
      select (select count(*) from messages where account_id = $1 and is_reply) as replies,
             (select percentile_cont(0.5) within group (order by response_time) from messages where account_id = $1 and is_reply) as median,
             (select count(*) from conversations where account_id = $1 and status = 'closed') as closed,
             (select count(*) from conversations where account_id = $1 and rated_at is not null) as ratings`);
    assert.ok(expected);
    assert.equal(res.body.replies.count, expected.replies);
    assert.equal(res.body.replies.value, expected.median);
    assert.equal(res.body.closed.count, expected.closed);
    assert.equal(res.body.ratings.count, expected.ratings);
  });
});

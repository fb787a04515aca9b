import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';
import { conversationFactory, type ConversationFactory } from '../test/conversations.ts';
import { buildChat, type ChatSpec, type World } from '../test/chats.ts';
import { METRIC_NAMES } from './metrics.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** A new account with one agent, agent 0 of its world. */
async function newAccount(): Promise<{ account: TestAccount; f: ConversationFactory; world: World }> {
  const account = await t.account();
  const f = conversationFactory(t, account);
  const agent = await f.agent();
  return { account, f, world: { factory: f, agentIds: [agent.id], contactIds: [] } };
}

/** One chat of `spec` in `world`, each message and step at its own time. */
const chat = (world: World, spec: ChatSpec) => buildChat(t, world, spec);
const contactAt = (at: string) => ({ from: 'contact' as const, at });

function stats(account: TestAccount, body: unknown, timezone?: string) {
  const query = timezone === undefined ? '' : `?timezone=${encodeURIComponent(timezone)}`;
  return t.client(account.token).post(`/v2/statistics${query}`, body);
}

type Bucket = { key: string; count: number; value: number; buckets: Bucket[] | null };
const summary = (buckets: Bucket[]): [string, number, number][] => buckets.map((b) => [b.key, b.count, b.value]);
const errorsOf = (body: { errors: { path: string; code: string; location: string }[] }) =>
  body.errors.map((e) => [e.path, e.code, e.location]);

/** One conversation per instant, each opened by a contact at that instant. */
async function conversationsAt(instants: string[]) {
  const { account, world } = await newAccount();
  for (const at of instants) await chat(world, { said: [contactAt(at)] });
  return account;
}

const ALL_TIME = { from: null, to: null };

describe('POST /v2/statistics: access', () => {
  it('needs a token, and the statistics:read scope', async () => {
    const { account } = await newAccount();
    const body = { x: { name: 'new_conversation', range: ALL_TIME } };
    const anonymous = await t.client().post('/v2/statistics', body);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'unauthorized');
    const res = await t.client(await t.token(account, ['conversations:read'])).post('/v2/statistics', body);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope statistics:read' });
    const allowed = await t.client(await t.token(account, ['statistics:read'])).post('/v2/statistics', body);
    assert.equal(allowed.status, 200);
  });

  it("never counts another account's conversations", async () => {
    await conversationsAt(['2024-05-06T10:00:00Z', '2024-05-06T11:00:00Z']);
    const { account } = await newAccount();
    const res = await stats(account, { x: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'terms', field: 'status' }] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { x: { name: 'new_conversation', value: 0, count: 0, buckets: [] } });
  });
});

describe('POST /v2/statistics: metrics', () => {
  // Replies: 10, 30, 20, 60 seconds (first replies 10, 20, 60); closes after 1800 and 3600 seconds; two ratings.
  async function supportDay() {
    const { account, world } = await newAccount();
    const specs: ChatSpec[] = [
      {
        said: [
          contactAt('2024-05-06T10:00:00Z'),
          { from: 'agent', at: '2024-05-06T10:00:10Z' },
          { from: 'contact', at: '2024-05-06T10:01:00Z' },
          { from: 'agent', at: '2024-05-06T10:01:30Z' },
        ],
        close: { by: 'agent', at: '2024-05-06T10:30:00Z' },
        rating: { value: 5, at: '2024-05-06T10:31:00Z' },
      },
      {
        said: [contactAt('2024-05-06T12:00:00Z'), { from: 'agent', at: '2024-05-06T12:00:20Z' }],
        close: { by: 'agent', at: '2024-05-06T13:00:00Z' },
        rating: { value: 1, at: '2024-05-06T13:00:05Z' },
      },
      {
        said: [
          contactAt('2024-05-07T09:00:00Z'),
          { from: 'bot', at: '2024-05-07T09:00:01Z' },
          { from: 'agent', at: '2024-05-07T09:01:00Z' },
        ],
      },
    ];
    for (const spec of specs) await chat(world, spec);
    return account;
  }

  it('computes all seven metrics, medians of an even count being the mean of the middle two', async () => {
    const account = await supportDay();
    const range = { from: '2024-05-06T00:00:00', to: '2024-05-07T23:59:59' };
    const res = await stats(account, Object.fromEntries(METRIC_NAMES.map((name) => [name, { name, range }])));
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      response_time: { name: 'response_time', value: 25, count: 4, buckets: null },
      first_response_time: { name: 'first_response_time', value: 20, count: 3, buckets: null },
      time_to_close: { name: 'time_to_close', value: 2700, count: 2, buckets: null },
      time_to_close_sum: { name: 'time_to_close_sum', value: 5400, count: 2, buckets: null },
      new_conversation: { name: 'new_conversation', value: 3, count: 3, buckets: null },
      closed_conversation: { name: 'closed_conversation', value: 2, count: 2, buckets: null },
      conversation_ratings: { name: 'conversation_ratings', value: 2, count: 2, buckets: null },
    });
  });

  it('answers value 0 and count 0 when nothing matches', async () => {
    const account = await supportDay();
    const range = { from: '2023-01-01T00:00:00', to: '2023-01-31T23:59:59' };
    const res = await stats(account, {
      a: { name: 'response_time', range },
      b: { name: 'time_to_close_sum', range: ALL_TIME, query: [{ field: 'status', value: 'pending' }] },
    });
    assert.deepEqual(res.body, {
      a: { name: 'response_time', value: 0, count: 0, buckets: null },
      b: { name: 'time_to_close_sum', value: 0, count: 0, buckets: null },
    });
  });

  it('places each metric by its own timestamp', async () => {
    // Created on the 6th, closed and rated on the 7th.
    const { account, world } = await newAccount();
    await chat(world, {
      said: [contactAt('2024-05-06T23:00:00Z')],
      close: { by: 'agent', at: '2024-05-07T01:00:00Z' },
      rating: { value: 3, at: '2024-05-07T02:00:00Z' },
    });
    const seventh = { from: '2024-05-07T00:00:00', to: '2024-05-07T23:59:59' };
    const res = await stats(account, {
      created: { name: 'new_conversation', range: seventh },
      closed: { name: 'closed_conversation', range: seventh },
      rated: { name: 'conversation_ratings', range: seventh },
      duration: { name: 'time_to_close', range: seventh },
    });
    assert.deepEqual(
      Object.values(res.body).map((r) => [(r as Bucket).count, (r as Bucket).value]),
      [
        [0, 0],
        [1, 1],
        [1, 1],
        [1, 7200],
      ],
    );
  });

  it('filters by scalar and array values, array fields matching when they contain a value', async () => {
    const { account, f, world } = await newAccount();
    const [sales, support] = [await f.group('Sales'), await f.group('Support')];
    const [vip, bug] = [await f.tag('vip'), await f.tag('bug')];
    await chat(world, {
      said: [contactAt('2024-05-06T10:00:00Z'), { from: 'agent', at: '2024-05-06T10:00:40Z' }],
      group: sales.id,
      tags: [vip.id, bug.id],
    });
    await chat(world, {
      said: [contactAt('2024-05-06T11:00:00Z'), { from: 'agent', at: '2024-05-06T11:00:10Z' }],
      group: support.id,
      tags: [bug.id],
    });
    await chat(world, { said: [contactAt('2024-05-06T12:00:00Z')], close: { by: 'agent', at: '2024-05-06T12:10:00Z' } });
    const entry = (name: string, query: unknown) => ({ name, range: ALL_TIME, query });
    const res = await stats(account, {
      sales: entry('new_conversation', [{ field: 'group_id', value: sales.id }]),
      either: entry('new_conversation', [{ field: 'group_id', value: [sales.id, support.id] }]),
      vip: entry('new_conversation', [{ field: 'tags', value: vip.id }]),
      bug: entry('new_conversation', [{ field: 'tags', value: [bug.id, 'tgunknown'] }]),
      both: entry('new_conversation', [
        { field: 'tags', value: bug.id },
        { field: 'group_id', value: support.id },
      ]),
      closed: entry('new_conversation', [{ field: 'status', value: 'closed' }]),
      reply_in_sales: entry('response_time', [{ field: 'group_id', value: sales.id }]),
      by_agent: entry('response_time', [{ field: 'agent_id', value: Number(world.agentIds[0]) }]),
      first: entry('response_time', [{ field: 'is_first_reply', value: 'true' }]),
      offline: entry('response_time', [{ field: 'is_offline', value: true }]),
      channel: entry('new_conversation', [{ field: 'channel', value: 'default' }]),
    });
    assert.equal(res.status, 200);
    const counts = Object.fromEntries(Object.entries(res.body).map(([key, r]) => [key, [(r as Bucket).count, (r as Bucket).value]]));
    assert.deepEqual(counts, {
      sales: [1, 1],
      either: [2, 2],
      vip: [1, 1],
      bug: [2, 2],
      both: [1, 1],
      closed: [1, 1],
      reply_in_sales: [1, 40],
      by_agent: [2, 25],
      first: [2, 25],
      offline: [0, 0],
      channel: [3, 3],
    });
  });
});

describe('POST /v2/statistics: buckets', () => {
  it('makes terms buckets per value, array fields per element, nulls left out, by count then key, keys as strings', async () => {
    const { account, f, world } = await newAccount();
    const [a, b, c] = [await f.tag('a'), await f.tag('b'), await f.tag('c')];
    const group = await f.group();
    const closedAt = (at: string) => ({ by: 'agent' as const, at });
    await chat(world, {
      said: [contactAt('2024-05-06T10:00:00Z')],
      tags: [a.id, b.id],
      group: group.id,
      close: closedAt('2024-05-06T10:05:00Z'),
      rating: { value: 5, at: '2024-05-06T10:06:00Z' },
    });
    await chat(world, {
      said: [contactAt('2024-05-06T11:00:00Z')],
      tags: [c.id],
      close: closedAt('2024-05-06T11:15:00Z'),
      rating: { value: 5, at: '2024-05-06T11:16:00Z' },
    });
    await chat(world, {
      said: [contactAt('2024-05-06T12:00:00Z')],
      tags: [b.id],
      close: closedAt('2024-05-06T12:01:00Z'),
      rating: { value: 1, at: '2024-05-06T12:02:00Z' },
    });
    await chat(world, { said: [contactAt('2024-05-06T13:00:00Z'), { from: 'agent', at: '2024-05-06T13:00:05Z' }] });
    const res = await stats(account, {
      tags: { name: 'time_to_close', range: ALL_TIME, aggs: [{ type: 'terms', field: 'tags' }] },
      rating: { name: 'conversation_ratings', range: ALL_TIME, aggs: [{ type: 'terms', field: 'rating_value' }] },
      group: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'terms', field: 'group_id' }] },
      status: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'terms', field: 'status' }] },
      reply: { name: 'response_time', range: ALL_TIME, aggs: [{ type: 'terms', field: 'is_first_reply' }] },
    });
    assert.equal(res.status, 200);
    const [first, second] = [a.id, c.id].sort(); // a and c tie on count 1: by key
    assert.deepEqual(res.body.tags, {
      name: 'time_to_close',
      value: 300,
      count: 3,
      buckets: [
        { key: b.id, count: 2, value: 180, buckets: null },
        { key: first, count: 1, value: first === a.id ? 300 : 900, buckets: null },
        { key: second, count: 1, value: second === a.id ? 300 : 900, buckets: null },
      ],
    });
    assert.deepEqual(summary(res.body.rating.buckets), [
      ['5', 2, 2],
      ['1', 1, 1],
    ]);
    assert.deepEqual(summary(res.body.group.buckets), [[group.id, 1, 1]]);
    assert.equal(res.body.group.count, 4, 'objects with a null key still count in the total');
    assert.deepEqual(summary(res.body.status.buckets), [
      ['closed', 3, 3],
      ['served', 1, 1],
    ]);
    assert.deepEqual(summary(res.body.reply.buckets), [['true', 1, 5]]);
  });

  it('fills date buckets across the range, with weeks starting on Monday', async () => {
    const account = await conversationsAt(['2024-05-08T10:00:00Z', '2024-05-08T11:00:00Z', '2024-05-13T00:00:00Z']);
    const res = await stats(account, {
      days: {
        name: 'new_conversation',
        range: { from: '2024-05-07T00:00:00', to: '2024-05-10T12:00:00' },
        aggs: [{ type: 'date', interval: 'day' }],
      },
      weeks: {
        name: 'new_conversation',
        range: { from: '2024-05-01T00:00:00', to: '2024-05-20T00:00:00' },
        aggs: [{ type: 'date', interval: 'week' }],
      },
      months: {
        name: 'new_conversation',
        range: { from: '2024-03-15T00:00:00', to: '2024-05-31T23:59:59' },
        aggs: [{ type: 'date', interval: 'month' }],
      },
      years: {
        name: 'new_conversation',
        range: { from: '2023-06-01T00:00:00', to: '2024-06-01T00:00:00' },
        aggs: [{ type: 'date', interval: 'year' }],
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(summary(res.body.days.buckets), [
      ['2024-05-07', 0, 0],
      ['2024-05-08', 2, 2],
      ['2024-05-09', 0, 0],
      ['2024-05-10', 0, 0],
    ]);
    // 2024-05-13 is a Monday: it opens week 20.
    assert.deepEqual(summary(res.body.weeks.buckets), [
      ['2024-W18', 0, 0],
      ['2024-W19', 2, 2],
      ['2024-W20', 1, 1],
      ['2024-W21', 0, 0],
    ]);
    assert.deepEqual(summary(res.body.months.buckets), [
      ['2024-03', 0, 0],
      ['2024-04', 0, 0],
      ['2024-05', 3, 3],
    ]);
    assert.deepEqual(summary(res.body.years.buckets), [
      ['2023', 0, 0],
      ['2024', 3, 3],
    ]);
  });

  it('with an open end, runs date buckets from the first to the last object', async () => {
    const account = await conversationsAt(['2024-05-08T10:00:00Z', '2024-05-10T11:00:00Z']);
    const res = await stats(account, {
      open: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'day' }] },
      from: { name: 'new_conversation', range: { from: '2024-05-09T00:00:00', to: null }, aggs: [{ type: 'date', interval: 'day' }] },
      to: { name: 'new_conversation', range: { to: '2024-05-09T12:00:00' }, aggs: [{ type: 'date', interval: 'day' }] },
      none: { name: 'closed_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'day' }] },
    });
    assert.deepEqual(summary(res.body.open.buckets), [
      ['2024-05-08', 1, 1],
      ['2024-05-09', 0, 0],
      ['2024-05-10', 1, 1],
    ]);
    assert.deepEqual(summary(res.body.from.buckets), [
      ['2024-05-09', 0, 0],
      ['2024-05-10', 1, 1],
    ]);
    assert.deepEqual(summary(res.body.to.buckets), [
      ['2024-05-08', 1, 1],
      ['2024-05-09', 0, 0],
    ]);
    assert.deepEqual(res.body.none.buckets, []);
  });

  it('always gives 7 weekday buckets from Monday and 24 hour buckets', async () => {
    // 2024-05-05 is a Sunday, 2024-05-06 a Monday.
    const account = await conversationsAt(['2024-05-05T23:59:59Z', '2024-05-06T00:00:00Z', '2024-05-06T13:30:00Z']);
    const res = await stats(account, {
      dow: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'day_of_week' }] },
      hour: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'hour_of_day' }] },
      empty: { name: 'closed_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'day_of_week' }] },
    });
    assert.deepEqual(summary(res.body.dow.buckets), [
      ['1', 2, 2],
      ['2', 0, 0],
      ['3', 0, 0],
      ['4', 0, 0],
      ['5', 0, 0],
      ['6', 0, 0],
      ['7', 1, 1],
    ]);
    const hours = summary(res.body.hour.buckets);
    assert.equal(hours.length, 24);
    assert.deepEqual(hours[0], ['00', 1, 1]);
    assert.deepEqual(hours[13], ['13', 1, 1]);
    assert.deepEqual(hours[23], ['23', 1, 1]);
    assert.equal(hours.filter(([, count]) => count === 0).length, 21);
    assert.equal(res.body.empty.buckets.length, 7);
  });

  it('nests up to three levels, each bucket with its own count and true median', async () => {
    const { account, f } = await newAccount();
    const [ann, bob] = [await f.agent(), await f.agent()];
    const world: World = { factory: f, agentIds: [ann.id, bob.id], contactIds: [] };
    const [ANN, BOB] = [0, 1];
    // Monday 2024-05-06: Ann replies after 10 s at 09:xx and after 20 and 40 s at 14:xx; Bob after 100 s at 09:xx.
    // Tuesday: Bob after 6 s at 09:xx.
    const reply = (at: string, seconds: number, agent: number): ChatSpec => ({
      said: [contactAt(at), { from: 'agent', at: new Date(Date.parse(at) + seconds * 1000).toISOString(), agent }],
    });
    for (const spec of [
      reply('2024-05-06T09:00:00Z', 10, ANN),
      reply('2024-05-06T14:00:00Z', 20, ANN),
      reply('2024-05-06T14:30:00Z', 40, ANN),
      reply('2024-05-06T09:10:00Z', 100, BOB),
      reply('2024-05-07T09:00:00Z', 6, BOB),
    ]) {
      await chat(world, spec);
    }
    const res = await stats(account, {
      nested: {
        name: 'response_time',
        range: ALL_TIME,
        aggs: [
          { type: 'terms', field: 'agent_id' },
          { type: 'date', interval: 'day_of_week', format: 'ddd' },
          { type: 'date', interval: 'hour_of_day' },
        ],
      },
    });
    assert.equal(res.status, 200);
    const { nested } = res.body;
    assert.deepEqual([nested.count, nested.value], [5, 20]);
    assert.deepEqual(summary(nested.buckets), [
      [ann.id, 3, 20],
      [bob.id, 2, 53],
    ]);
    const annDays = nested.buckets[0].buckets;
    assert.deepEqual(summary(annDays), [
      ['Mon', 3, 20],
      ['Tue', 0, 0],
      ['Wed', 0, 0],
      ['Thu', 0, 0],
      ['Fri', 0, 0],
      ['Sat', 0, 0],
      ['Sun', 0, 0],
    ]);
    const annMondayHours = annDays[0].buckets;
    assert.equal(annMondayHours.length, 24);
    assert.deepEqual(annMondayHours[9], { key: '09', count: 1, value: 10, buckets: null });
    assert.deepEqual(annMondayHours[14], { key: '14', count: 2, value: 30, buckets: null });
    assert.equal(annDays[1].buckets.length, 24, 'empty buckets carry the next level too');
    const bobDays = nested.buckets[1].buckets;
    assert.deepEqual(summary(bobDays).slice(0, 2), [
      ['Mon', 1, 100],
      ['Tue', 1, 6],
    ]);
  });

  it('leaves objects with a null terms value out of that level only, at any depth', async () => {
    const { account, f, world } = await newAccount();
    const group = await f.group();
    for (const [at, groupId] of [
      ['2024-05-06T10:00:00Z', group.id],
      ['2024-05-06T11:00:00Z', group.id],
      ['2024-05-07T10:00:00Z', null],
    ] as const) {
      await chat(world, { said: [contactAt(at)], group: groupId });
    }
    const range = { from: '2024-05-06T00:00:00', to: '2024-05-07T23:59:59' };
    const res = await stats(account, {
      outer: {
        name: 'new_conversation',
        range,
        aggs: [
          { type: 'terms', field: 'group_id' },
          { type: 'date', interval: 'day' },
        ],
      },
      inner: {
        name: 'new_conversation',
        range,
        aggs: [
          { type: 'date', interval: 'day' },
          { type: 'terms', field: 'group_id' },
        ],
      },
    });
    assert.equal(res.status, 200);
    const { outer, inner } = res.body;
    assert.equal(outer.count, 3);
    assert.deepEqual(
      outer.buckets.map((b: Bucket) => [b.key, b.count, summary(b.buckets!)]),
      [
        [
          group.id,
          2,
          [
            ['2024-05-06', 2, 2],
            ['2024-05-07', 0, 0],
          ],
        ],
      ],
    );
    assert.equal(inner.count, 3);
    assert.deepEqual(
      inner.buckets.map((b: Bucket) => [b.key, b.count, summary(b.buckets!)]),
      [
        ['2024-05-06', 2, [[group.id, 2, 2]]],
        ['2024-05-07', 1, []],
      ],
    );
  });

  it('counts an object once per combination of nested array-field keys', async () => {
    const { account, f } = await newAccount();
    const [x, y] = [await f.tag('x'), await f.tag('y')];
    const [ann, bob] = [await f.agent(), await f.agent()];
    const world: World = { factory: f, agentIds: [ann.id, bob.id], contactIds: [] };
    await chat(world, { said: [contactAt('2024-05-06T10:00:00Z')], tags: [x.id, y.id], assigned: [0, 1] });
    await chat(world, { said: [contactAt('2024-05-06T11:00:00Z')], tags: [x.id], assigned: [0] });
    const res = await stats(account, {
      n: {
        name: 'new_conversation',
        range: ALL_TIME,
        aggs: [
          { type: 'terms', field: 'tags' },
          { type: 'terms', field: 'assigned_ids' },
        ],
      },
    });
    assert.equal(res.body.n.count, 2);
    const tree = res.body.n.buckets.map((b: Bucket) => [b.key, b.count, summary(b.buckets!)]);
    assert.deepEqual(tree, [
      [
        x.id,
        2,
        [
          [ann.id, 2, 2],
          [bob.id, 1, 1],
        ],
      ],
      [
        y.id,
        1,
        [
          [ann.id, 1, 1],
          [bob.id, 1, 1],
        ].sort((p, q) => (p[0] < q[0] ? -1 : 1)),
      ],
    ]);
  });
});

describe('POST /v2/statistics: time zones', () => {
  async function dayBuckets(timezone: string, instants: string[], range: { from: string; to: string }) {
    const account = await conversationsAt(instants);
    const res = await stats(account, { d: { name: 'new_conversation', range, aggs: [{ type: 'date', interval: 'day' }] } }, timezone);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return summary(res.body.d.buckets).map(([key, count]) => [key, count]);
  }

  it('splits days at local midnight: 23:59:59 and 00:00:00 land in different days, ranges are inclusive', async () => {
    const account = await conversationsAt(['2024-05-06T21:59:59Z', '2024-05-06T22:00:00Z']); // Prague is UTC+2 in May
    const day = (from: string, to: string) => ({
      name: 'new_conversation',
      range: { from, to },
      aggs: [{ type: 'date', interval: 'day' }],
    });
    const res = await stats(
      account,
      {
        both: day('2024-05-06T00:00:00', '2024-05-07T23:59:59'),
        sixth: day('2024-05-06T00:00:00', '2024-05-06T23:59:59'),
        seventh: day('2024-05-07T00:00:00', '2024-05-07T00:00:00'),
      },
      'Europe/Prague',
    );
    assert.deepEqual(summary(res.body.both.buckets), [
      ['2024-05-06', 1, 1],
      ['2024-05-07', 1, 1],
    ]);
    assert.deepEqual([res.body.sixth.count, res.body.seventh.count], [1, 1]);
  });

  it('gives a 23-hour and a 25-hour day across daylight saving changes in Europe/Prague', async () => {
    const spring = await dayBuckets(
      'Europe/Prague',
      ['2024-03-30T22:59:59Z', '2024-03-30T23:00:00Z', '2024-03-31T21:59:59Z', '2024-03-31T22:00:00Z'],
      { from: '2024-03-30T00:00:00', to: '2024-04-01T23:59:59' },
    );
    assert.deepEqual(spring, [
      ['2024-03-30', 1],
      ['2024-03-31', 2],
      ['2024-04-01', 1],
    ]);
    const autumn = await dayBuckets(
      'Europe/Prague',
      ['2024-10-26T21:59:59Z', '2024-10-26T22:00:00Z', '2024-10-27T22:59:59Z', '2024-10-27T23:00:00Z'],
      { from: '2024-10-26T00:00:00', to: '2024-10-28T23:59:59' },
    );
    assert.deepEqual(autumn, [
      ['2024-10-26', 1],
      ['2024-10-27', 2],
      ['2024-10-28', 1],
    ]);
  });

  it('gives a 23-hour and a 25-hour day in America/New_York', async () => {
    const spring = await dayBuckets(
      'America/New_York',
      ['2024-03-10T04:59:59Z', '2024-03-10T05:00:00Z', '2024-03-11T03:59:59Z', '2024-03-11T04:00:00Z'],
      { from: '2024-03-09T00:00:00', to: '2024-03-11T23:59:59' },
    );
    assert.deepEqual(spring, [
      ['2024-03-09', 1],
      ['2024-03-10', 2],
      ['2024-03-11', 1],
    ]);
    const autumn = await dayBuckets(
      'America/New_York',
      ['2024-11-03T03:59:59Z', '2024-11-03T04:00:00Z', '2024-11-04T04:59:59Z', '2024-11-04T05:00:00Z'],
      { from: '2024-11-02T00:00:00', to: '2024-11-04T23:59:59' },
    );
    assert.deepEqual(autumn, [
      ['2024-11-02', 1],
      ['2024-11-03', 2],
      ['2024-11-04', 1],
    ]);
  });

  it('handles half-hour, 45-minute and far-east offsets, and the southern-hemisphere change', async () => {
    const cases: [string, string[], string][] = [
      ['Asia/Kolkata', ['2024-05-06T18:29:59Z', '2024-05-06T18:30:00Z'], '2024-05-06'],
      ['Asia/Kathmandu', ['2024-05-06T18:14:59Z', '2024-05-06T18:15:00Z'], '2024-05-06'],
      ['Pacific/Kiritimati', ['2024-05-06T09:59:59Z', '2024-05-06T10:00:00Z'], '2024-05-06'],
      ['Pacific/Auckland', ['2024-04-06T10:59:59Z', '2024-04-07T11:59:59Z'], '2024-04-06'], // 7 April: 25 hours
    ];
    for (const [zone, instants, firstDay] of cases) {
      const next = new Date(Date.parse(`${firstDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const buckets = await dayBuckets(zone, instants, { from: `${firstDay}T00:00:00`, to: `${next}T23:59:59` });
      assert.deepEqual(
        buckets,
        [
          [firstDay, 1],
          [next, 1],
        ],
        zone,
      );
    }
  });

  it('buckets hours in the zone, with 45-minute offsets shifting hour boundaries', async () => {
    const account = await conversationsAt(['2024-05-06T04:14:59Z', '2024-05-06T04:15:00Z']); // 09:59:59 and 10:00 in Kathmandu
    const res = await stats(
      account,
      { h: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'hour_of_day' }] } },
      'Asia/Kathmandu',
    );
    const hours = summary(res.body.h.buckets).filter(([, count]) => count > 0);
    assert.deepEqual(hours, [
      ['09', 1, 1],
      ['10', 1, 1],
    ]);
  });

  it('reads range values without an offset as local time, and values with Z or an offset as absolute', async () => {
    const account = await conversationsAt(['2024-05-06T08:00:00Z']); // 10:00 in Prague
    const count = async (from: string, to: string) =>
      (await stats(account, { n: { name: 'new_conversation', range: { from, to } } }, 'Europe/Prague')).body.n.count;
    assert.equal(await count('2024-05-06T10:00:00', '2024-05-06T10:00:00'), 1);
    assert.equal(await count('2024-05-06T08:00:00', '2024-05-06T09:59:59'), 0);
    assert.equal(await count('2024-05-06T08:00:00Z', '2024-05-06T08:00:00Z'), 1);
    assert.equal(await count('2024-05-06T10:00:00+02:00', '2024-05-06T10:00:00+02:00'), 1);
    assert.equal(await count('2024-05-06T09:00:00.000', '2024-05-06T09:59:59.999'), 0);
  });

  it('reads a range end with a fraction as inclusive at the precision given: .5 to the end of that tenth', async () => {
    const account = await conversationsAt(['2024-05-06T08:00:59.550Z', '2024-05-06T08:00:59.600Z', '2024-05-06T08:00:59.505Z']);
    const count = async (to: string) =>
      (await stats(account, { n: { name: 'new_conversation', range: { from: '2024-05-06T08:00:00Z', to } } })).body.n.count;
    assert.equal(await count('2024-05-06T08:00:59.5Z'), 2, 'through .599: .505 and .550');
    assert.equal(await count('2024-05-06T08:00:59.50Z'), 1, 'through .509: .505');
    assert.equal(await count('2024-05-06T08:00:59.505Z'), 1, 'through .505');
    assert.equal(await count('2024-05-06T08:00:59.504Z'), 0);
    assert.equal(await count('2024-05-06T08:00:59.5'), 2, 'a local end too');
  });

  it('resolves local times in a daylight-saving gap or overlap as PostgreSQL does', async () => {
    // 2024-03-31 02:30 does not exist in Prague: read with the offset before the change (= 01:30Z).
    // 2024-10-27 02:30 happens twice: read with the offset after the change (= 01:30Z, the later one).
    const account = await conversationsAt(['2024-03-31T01:30:00Z', '2024-10-27T00:30:00Z', '2024-10-27T01:30:00Z']);
    const count = async (from: string) =>
      (await stats(account, { n: { name: 'new_conversation', range: { from, to: from } } }, 'Europe/Prague')).body.n.count;
    assert.equal(await count('2024-03-31T02:30:00'), 1);
    assert.equal(await count('2024-10-27T02:30:00'), 1);
    const both = await stats(
      account,
      { n: { name: 'new_conversation', range: { from: '2024-10-27T02:00:00', to: '2024-10-27T02:59:59' } } },
      'Europe/Prague',
    );
    assert.equal(both.body.n.count, 1, 'the overlap hour range runs from the first 02:00 read as the later one');
  });
});

describe('POST /v2/statistics: key formats', () => {
  it('applies Moment.js tokens to the bucket start in the request zone', async () => {
    const account = await conversationsAt(['2024-12-30T12:00:00Z', '2025-01-06T12:00:00Z']);
    const res = await stats(
      account,
      {
        day: {
          name: 'new_conversation',
          range: ALL_TIME,
          aggs: [{ type: 'date', interval: 'day', format: 'dddd, MMMM Do YYYY [at] HH:mm Z' }],
        },
        week: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'week' }] },
        week2: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'week', format: 'GG-[w]W E DDDD X' }] },
        month: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'month', format: 'MMM YYYY Q Mo' }] },
        dow: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'day_of_week', format: 'dddd ddd E' }] },
        hour: { name: 'new_conversation', range: ALL_TIME, aggs: [{ type: 'date', interval: 'hour_of_day', format: 'h A|HH:mm|k' }] },
      },
      'America/New_York',
    );
    assert.equal(res.status, 200);
    const keys = (name: string) => res.body[name].buckets.map((b: Bucket) => b.key);
    assert.equal(keys('day')[0], 'Monday, December 30th 2024 at 00:00 -05:00');
    assert.equal(keys('day').length, 8);
    assert.deepEqual(keys('week'), ['2025-W01', '2025-W02']);
    // Monday 2024-12-30 00:00 in New York is 05:00Z.
    assert.deepEqual(keys('week2')[0], `25-w1 1 365 ${Date.parse('2024-12-30T05:00:00Z') / 1000}`);
    assert.deepEqual(keys('month'), ['Dec 2024 4 12th', 'Jan 2025 1 1st']);
    assert.deepEqual(keys('dow'), [
      'Monday Mon 1',
      'Tuesday Tue 2',
      'Wednesday Wed 3',
      'Thursday Thu 4',
      'Friday Fri 5',
      'Saturday Sat 6',
      'Sunday Sun 7',
    ]);
    assert.deepEqual(keys('hour').slice(0, 2), ['12 AM|00:00|24', '1 AM|01:00|1']);
    assert.equal(keys('hour')[13], '1 PM|13:00|13');
  });
});

describe('POST /v2/statistics: invalid requests', () => {
  const entry = (extra: Record<string, unknown>) => ({ x: { name: 'response_time', range: ALL_TIME, ...extra } });
  const cases: [string, unknown, [string, string, string][], string?][] = [
    ['unknown metric', { x: { name: 'chats', range: ALL_TIME } }, [['x.name', 'enum', 'body']]],
    ['missing range', { x: { name: 'response_time' } }, [['x.range', 'required', 'body']]],
    ['unknown entry member', entry({ size: 3 }), [['x.size', 'additionalProperties', 'body']]],
    [
      'range without its format',
      { x: { name: 'response_time', range: { from: '2024-05-06', to: null } } },
      [['x.range.from', 'pattern', 'body']],
    ],
    [
      'impossible date',
      { x: { name: 'response_time', range: { from: '2024-02-30T00:00:00', to: null } } },
      [['x.range.from', 'format', 'body']],
    ],
    [
      'impossible hour',
      { x: { name: 'response_time', range: { from: null, to: '2024-02-03T24:00:00' } } },
      [['x.range.to', 'format', 'body']],
    ],
    [
      'range ending before it starts',
      { x: { name: 'response_time', range: { from: '2024-05-06T00:00:00', to: '2024-05-05T23:59:59' } } },
      [['x.range.to', 'minimum', 'body']],
    ],
    [
      'unknown interval',
      entry({
        aggs: [
          { type: 'terms', field: 'agent_id' },
          { type: 'date', interval: 'decade' },
        ],
      }),
      [['x.aggs[1].interval', 'enum', 'body']],
    ],
    ['date without interval', entry({ aggs: [{ type: 'date' }] }), [['x.aggs[0].interval', 'required', 'body']]],
    ['terms without field', entry({ aggs: [{ type: 'terms' }] }), [['x.aggs[0].field', 'required', 'body']]],
    ['unknown aggregation type', entry({ aggs: [{ type: 'histogram' }] }), [['x.aggs[0].type', 'enum', 'body']]],
    [
      'members of the other aggregation type',
      entry({
        aggs: [
          { type: 'terms', field: 'agent_id', interval: 'day' },
          { type: 'date', interval: 'day', field: 'agent_id' },
        ],
      }),
      [
        ['x.aggs[0].interval', 'additionalProperties', 'body'],
        ['x.aggs[1].field', 'additionalProperties', 'body'],
      ],
    ],
    [
      'a conversation field on a message metric',
      entry({ aggs: [{ type: 'terms', field: 'tags' }] }),
      [['x.aggs[0].field', 'enum', 'body']],
    ],
    [
      'a message field on a conversation metric',
      { x: { name: 'new_conversation', range: ALL_TIME, query: [{ field: 'sub_type', value: 'agent' }] } },
      [['x.query[0].field', 'enum', 'body']],
    ],
    ['more than 3 aggs', entry({ aggs: Array(4).fill({ type: 'date', interval: 'day' }) }), [['x.aggs', 'maxItems', 'body']]],
    [
      'a filter value of the wrong type',
      entry({
        query: [
          { field: 'is_reply', value: 'yes' },
          { field: 'agent_id', value: [true] },
        ],
      }),
      [
        ['x.query[0].value', 'type', 'body'],
        ['x.query[1].value[0]', 'type', 'body'],
      ],
    ],
    ['a filter without value', entry({ query: [{ field: 'agent_id' }] }), [['x.query[0].value', 'required', 'body']]],
    ['an unknown time zone', entry({}), [['timezone', 'format', 'query']], 'Mars/Olympus_Mons'],
    ['a POSIX zone spec', entry({}), [['timezone', 'format', 'query']], 'UTC+3'],
    ['a body that is not an object', [1, 2], [['', 'type', 'body']]],
    [
      'more than 100 entries',
      Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`e${i}`, { name: 'new_conversation', range: ALL_TIME }])),
      [['', 'maxProperties', 'body']],
    ],
  ];
  for (const [what, body, expected, timezone] of cases) {
    it(`rejects ${what} with a precise 422`, async () => {
      const { account } = await newAccount();
      const res = await stats(account, body, timezone);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(errorsOf(res.body), expected);
    });
  }

  it('explains a range value of the wrong form in words, not as a regular expression', async () => {
    const { account } = await newAccount();
    const res = await stats(account, { x: { name: 'response_time', range: { from: '2024-05-06', to: null } } });
    assert.equal(res.body.errors[0].message, 'x.range.from must be a local time YYYY-MM-DDTHH:MM:SS (optionally with Z or an offset)');
  });

  it('rejects a response of more than 10,000 buckets, counting every entry and level', async () => {
    const { account } = await newAccount();
    const days = (from: string, to: string, aggs: unknown[] = []) => ({
      name: 'new_conversation',
      range: { from, to },
      aggs: [{ type: 'date', interval: 'day' }, ...aggs],
    });
    const tooLong = await stats(account, { long: days('2000-01-01T00:00:00', '2030-12-31T23:59:59') });
    assert.equal(tooLong.status, 422);
    assert.deepEqual(errorsOf(tooLong.body), [['long.aggs', 'maxBuckets', 'body']]);
    // One year by day and hour is 8,784 buckets; twice is too many.
    const year = days('2024-01-01T00:00:00', '2024-12-31T23:59:59', [{ type: 'date', interval: 'hour_of_day' }]);
    assert.equal((await stats(account, { a: year })).status, 200);
    const twice = await stats(account, { a: year, b: year });
    assert.equal(twice.status, 422);
    assert.deepEqual(errorsOf(twice.body), [['b.aggs', 'maxBuckets', 'body']]);
  });

  it('rejects unknown query parameters', async () => {
    const { account } = await newAccount();
    const res = await t.client(account.token).post('/v2/statistics?tz=Europe/Prague', { x: { name: 'new_conversation', range: ALL_TIME } });
    assert.equal(res.status, 422);
    assert.deepEqual(errorsOf(res.body), [['tz', 'additionalProperties', 'query']]);
  });

  it('accepts an empty body as no entries', async () => {
    const { account } = await newAccount();
    const res = await stats(account, {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
  });
});

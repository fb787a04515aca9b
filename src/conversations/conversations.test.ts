import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import { dereference } from '../test/openapi-operations.ts';
import { recentAvailability } from './recent.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const errorPaths = (body: Json) => body.errors.map((e: Json) => [e.path, e.code, e.location]);

async function setup() {
  const account = await t.account();
  const f = conversationFactory(t, account);
  return { account, f, api: t.client(account.token) };
}

async function countRows(accountId: string, table: 'conversations' | 'messages' | 'events' | 'paths'): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(`select count(*) as n from ${table} where account_id = $1`, [accountId]);
  return rows[0]!.n;
}

async function events(accountId: string): Promise<{ type: string; conversation_id: string | null; data: Json }[]> {
  const { rows } = await t.db.query<{ type: string; conversation_id: string | null; data: Json }>(
    'select type, conversation_id, data from events where account_id = $1 and type like $2 order by id',
    [accountId, 'conversation.%'],
  );
  return rows;
}

describe('POST /v2/conversations', () => {
  it('creates a pending conversation with every record field', async () => {
    const { f, api } = await setup();
    const contact = await f.contact();
    const res = await api.post('/v2/conversations', {
      contact_id: contact.id,
      ext_id: 'ext-1',
      variables: { plan: 'pro', seats: 3, trial: false },
    });
    assert.equal(res.status, 200);
    const conv = res.body;
    assert.match(conv.id, /^co[\w-]{12}$/);
    assert.deepEqual(Object.keys(conv).sort(), [
      'agent_ids',
      'assigned_ids',
      'channel',
      'close_type',
      'contact_id',
      'created_at',
      'domain',
      'ext_id',
      'finished_at',
      'group_id',
      'id',
      'is_offline',
      'is_served',
      'last_message',
      'rated_at',
      'rating_text',
      'rating_value',
      'status',
      'tags',
      'unread',
      'updated_at',
      'variables',
    ]);
    assert.deepEqual(
      { ...conv, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        ext_id: 'ext-1',
        status: 'pending',
        channel: { type: 'default', id: null },
        contact_id: contact.id,
        group_id: null,
        domain: null,
        assigned_ids: [],
        agent_ids: [],
        tags: [],
        variables: { plan: 'pro', seats: 3, trial: false },
        rating_value: null,
        rating_text: null,
        rated_at: null,
        is_offline: false,
        is_served: false,
        unread: 0,
        last_message: null,
        created_at: undefined,
        updated_at: undefined,
        finished_at: null,
        close_type: null,
      },
    );
    assert.match(conv.created_at, ISO);
    const read = await api.get(`/v2/conversations/${conv.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, conv);
  });

  it('stores text as an open conversation with an offline contact message when nobody is available', async () => {
    const { account, f } = await setup();
    t.clock.set('2026-03-01T10:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'Hello there' });
      assert.equal(conv.status, 'open');
      assert.equal(conv.is_offline, true);
      assert.equal(conv.unread, 1);
      assert.deepEqual(conv.last_message, { text: 'Hello there', created_at: '2026-03-01T10:00:00.000Z' });
      assert.equal(conv.created_at, '2026-03-01T10:00:00.000Z');
      const full = await f.get(conv.id);
      assert.equal(full.messages.length, 1);
      assert.deepEqual(full.messages[0], {
        id: full.messages[0].id,
        conversation_id: conv.id,
        type: 'message',
        sub_type: 'contact',
        agent_id: null,
        trigger_id: null,
        content: { type: 'text', text: 'Hello there', html: null },
        attachments: [],
        is_reply: false,
        is_first_reply: false,
        is_offline: true,
        is_offline_reply: false,
        response_time: null,
        created_at: '2026-03-01T10:00:00.000Z',
      });
      const types = (await events(account.accountId)).map((e) => [e.type, e.conversation_id]);
      assert.deepEqual(types, [
        ['conversation.opened', conv.id],
        ['conversation.contact_replied', conv.id],
      ]);
    } finally {
      t.clock.reset();
    }
  });

  it('is online when an agent is available, and html is sanitised with a derived text', async () => {
    const { f } = await setup();
    await f.agent({ available: true });
    const conv = await f.conversation({ html: 'Hi <b>there</b><br><a href="javascript:alert(1)">x</a><script>alert(1)</script>' });
    assert.equal(conv.is_offline, false);
    const [message] = (await f.get(conv.id)).messages;
    assert.equal(message.is_offline, false);
    assert.doesNotMatch(message.content.html, /script|javascript|<b>/i);
    assert.match(message.content.html, /<br/);
    assert.equal(message.content.text.includes('<'), false);
    assert.match(message.content.text, /Hi there/);
  });

  it('counts an agent available exactly while GET /v2/agents shows it online and connected', async () => {
    const { f, api } = await setup();
    t.clock.set('2026-03-02T10:00:00.000Z');
    try {
      const agent = await f.agent({ available: true });
      const ttl = t.deps.config.presenceTtlSeconds;
      // Just inside the TTL, at its end, and with a clock behind the ping (another instance's, say).
      for (const [at, connected] of [
        [new Date(Date.parse('2026-03-02T10:00:00.000Z') + (ttl - 1) * 1000), true],
        [new Date(Date.parse('2026-03-02T10:00:00.000Z') + ttl * 1000), false],
        [new Date('2026-03-02T09:59:55.000Z'), true],
      ] as const) {
        t.clock.set(at);
        assert.equal((await api.get(`/v2/agents/${agent.id}`)).body.is_connected, connected, at.toISOString());
        assert.equal((await f.conversation({ text: 'anyone?' })).is_offline, !connected, at.toISOString());
      }
      await f.makeUnavailable(agent.id);
      assert.equal((await api.get(`/v2/agents/${agent.id}`)).body.is_connected, true);
      assert.equal((await f.conversation({ text: 'anyone?' })).is_offline, true);
    } finally {
      t.clock.reset();
    }
  });

  it('keeps text as given and sanitises html when both are given', async () => {
    const { f } = await setup();
    const conv = await f.conversation({ text: 'plain <b>as given</b>', html: '<a href="https://example.com">link</a>' });
    const [message] = (await f.get(conv.id)).messages;
    assert.equal(message.content.text, 'plain <b>as given</b>');
    assert.match(message.content.html, /href="https:\/\/example.com"/);
  });

  it('imports messages in created_at order; those with a given created_at are never offline', async () => {
    const { account, f } = await setup();
    t.clock.set('2026-03-01T12:00:00.000Z');
    try {
      const conv = await f.conversation({
        messages: [
          { sub_type: 'bot', content: { type: 'text', text: 'How can I help?' }, created_at: '2026-03-01T09:00:05.000Z' },
          { sub_type: 'contact', content: { type: 'text', text: 'later, no time' } },
          { sub_type: 'contact', content: { type: 'text', html: 'first <i>one</i>' }, created_at: '2026-03-01T09:00:00.000Z' },
        ],
      });
      assert.equal(conv.created_at, '2026-03-01T09:00:00.000Z');
      assert.equal(conv.status, 'open');
      assert.equal(conv.is_offline, false);
      assert.equal(conv.unread, 2);
      assert.deepEqual(conv.last_message, { text: 'later, no time', created_at: '2026-03-01T12:00:00.000Z' });
      const messages = (await f.get(conv.id)).messages;
      assert.deepEqual(
        messages.map((m: Json) => [m.sub_type, m.content.text, m.created_at, m.is_offline]),
        [
          ['contact', 'first one', '2026-03-01T09:00:00.000Z', false],
          ['bot', 'How can I help?', '2026-03-01T09:00:05.000Z', false],
          // Without created_at it is stamped now and judged like a live message: nobody is available.
          ['contact', 'later, no time', '2026-03-01T12:00:00.000Z', true],
        ],
      );
      const types = (await events(account.accountId)).map((e) => e.type);
      assert.deepEqual(types, [
        'conversation.opened',
        'conversation.contact_replied',
        'conversation.bot_replied',
        'conversation.contact_replied',
      ]);
    } finally {
      t.clock.reset();
    }
  });

  it('assigns agents, group and tags at creation', async () => {
    const { f } = await setup();
    const agent = await f.agent();
    const group = await f.group();
    const tag = await f.tag();
    const conv = await f.conversation({ assigned_ids: [agent.id, agent.id], group_id: group.id, tags: [tag.id], text: 'hi' });
    assert.deepEqual(conv.assigned_ids, [agent.id]);
    assert.equal(conv.status, 'served');
    assert.equal(conv.is_served, true);
    assert.equal(conv.group_id, group.id);
    assert.deepEqual(conv.tags, [tag.id]);
    const { rows } = await t.db.query<{ group_id: string }>('select group_id from messages where conversation_id = $1', [conv.id]);
    assert.deepEqual(rows, [{ group_id: group.id }]);
  });

  describe('rejects, storing nothing', () => {
    const cases: [
      string,
      (f: Awaited<ReturnType<typeof setup>>['f'], contactId: string) => Promise<Json>,
      number,
      string,
      string[][] | null,
    ][] = [
      ['an unknown contact', async () => ({ contact_id: 'ctnope' }), 422, 'contact_not_found', null],
      ['an unknown assigned agent', async (_f, c) => ({ contact_id: c, assigned_ids: ['999999999'] }), 422, 'agent_not_found', null],
      ['an unknown group', async (_f, c) => ({ contact_id: c, group_id: 'grnope' }), 422, 'group_not_found', null],
      ['an unknown tag', async (_f, c) => ({ contact_id: c, tags: ['tgnope'] }), 422, 'tag_not_found', null],
      [
        'messages with text',
        async (_f, c) => ({ contact_id: c, text: 'x', messages: [{ sub_type: 'contact', content: { type: 'text', text: 'y' } }] }),
        422,
        'invalid_arguments',
        [['messages', 'oneOf', 'body']],
      ],
      [
        'messages with html',
        async (_f, c) => ({ contact_id: c, html: 'x', messages: [{ sub_type: 'contact', content: { type: 'text', text: 'y' } }] }),
        422,
        'invalid_arguments',
        [['messages', 'oneOf', 'body']],
      ],
      [
        'no contact message',
        async (_f, c) => ({ contact_id: c, messages: [{ sub_type: 'bot', content: { type: 'text', text: 'y' } }] }),
        422,
        'no_contact_message',
        null,
      ],
      [
        'content with neither text nor html',
        async (_f, c) => ({ contact_id: c, messages: [{ sub_type: 'contact', content: { type: 'text', text: null } }] }),
        422,
        'invalid_arguments',
        [['messages[0].content', 'required', 'body']],
      ],
      [
        'an imported created_at in the future',
        async (_f, c) => ({
          contact_id: c,
          messages: [{ sub_type: 'contact', content: { type: 'text', text: 'y' }, created_at: '2999-01-01T00:00:00Z' }],
        }),
        422,
        'invalid_arguments',
        [['messages[0].created_at', 'formatMaximum', 'body']],
      ],
      [
        'an imported created_at that is no real instant',
        async (_f, c) => ({
          contact_id: c,
          messages: [{ sub_type: 'contact', content: { type: 'text', text: 'y' }, created_at: '2026-01-01T23:59:60Z' }],
        }),
        422,
        'invalid_arguments',
        [['messages[0].created_at', 'format', 'body']],
      ],
      [
        'an agent sub_type in imported messages',
        async (_f, c) => ({ contact_id: c, messages: [{ sub_type: 'agent', content: { type: 'text', text: 'y' } }] }),
        422,
        'invalid_arguments',
        [['messages[0].sub_type', 'enum', 'body']],
      ],
      [
        'an empty messages array',
        async (_f, c) => ({ contact_id: c, messages: [] }),
        422,
        'invalid_arguments',
        [['messages', 'minItems', 'body']],
      ],
      ['a missing contact_id', async () => ({ text: 'x' }), 422, 'invalid_arguments', [['contact_id', 'required', 'body']]],
      [
        'an unknown property',
        async (_f, c) => ({ contact_id: c, color: 'red' }),
        422,
        'invalid_arguments',
        [['color', 'additionalProperties', 'body']],
      ],
      [
        'attachments beside text (the create body has no top-level attachments)',
        async (_f, c) => ({ contact_id: c, text: 'x', attachments: [{ type: 'image', url: 'https://e.com/a.png' }] }),
        422,
        'invalid_arguments',
        [['attachments', 'additionalProperties', 'body']],
      ],
      [
        'six attachments',
        async (_f, c) => ({
          contact_id: c,
          messages: [
            {
              sub_type: 'contact',
              content: { type: 'text', text: 'y' },
              attachments: Array(6).fill({ type: 'image', url: 'https://e.com/a.png' }),
            },
          ],
        }),
        422,
        'invalid_arguments',
        [['messages[0].attachments', 'maxItems', 'body']],
      ],
      [
        'a carousel item with two actions',
        async (_f, c) => ({
          contact_id: c,
          messages: [
            {
              sub_type: 'bot',
              content: { type: 'text', text: 'y' },
              attachments: [
                {
                  type: 'template',
                  layout: 'carousel',
                  items: [
                    { title: 'a', actions: [{ type: 'open_url', title: 'Go', value: 'https://e.com' }] },
                    { title: 'b', actions: [{ type: 'open_url', title: 'Go', value: 'https://e.com' }] },
                    {
                      title: 'c',
                      actions: [
                        { type: 'open_url', title: 'Go', value: 'https://e.com' },
                        { type: 'open_url', title: 'Go', value: 'https://e.com' },
                      ],
                    },
                  ],
                },
              ],
            },
            { sub_type: 'contact', content: { type: 'text', text: 'y' } },
          ],
        }),
        422,
        'invalid_arguments',
        [['messages[0].attachments[0].items[2].actions', 'maxItems', 'body']],
      ],
      [
        'bad variables',
        async (_f, c) => ({ contact_id: c, variables: { nested: { a: 1 }, ['k'.repeat(65)]: 'v' } }),
        422,
        'invalid_arguments',
        null,
      ],
    ];
    for (const [name, makeBody, status, code, paths] of cases) {
      it(name, async () => {
        const { account, f, api } = await setup();
        const contact = await f.contact();
        const before = await countRows(account.accountId, 'events');
        const res = await api.post('/v2/conversations', await makeBody(f, contact.id));
        assert.equal(res.status, status, JSON.stringify(res.body));
        assert.equal(res.body.code, code);
        assert.equal(typeof res.body.message, 'string');
        if (paths) assert.deepEqual(errorPaths(res.body), paths);
        assert.equal(await countRows(account.accountId, 'conversations'), 0);
        assert.equal(await countRows(account.accountId, 'messages'), 0);
        assert.equal(await countRows(account.accountId, 'events'), before);
      });
    }
  });

  it('rejects a duplicate ext_id with invalid_arguments ext_id unique', async () => {
    const { account, f, api } = await setup();
    const first = await f.conversation({ ext_id: 'dup' });
    const res = await api.post('/v2/conversations', { contact_id: first.contact_id, ext_id: 'dup', text: 'x' });
    assert.equal(res.status, 422);
    assert.deepEqual(errorPaths(res.body), [['ext_id', 'unique', 'body']]);
    assert.equal(await countRows(account.accountId, 'conversations'), 1);
    // Another account may use the same ext_id.
    const other = conversationFactory(t, await t.account());
    assert.equal((await other.conversation({ ext_id: 'dup' })).ext_id, 'dup');
  });

  it("does not accept another account's contact, agent, group or tag", async () => {
    const { f, api } = await setup();
    const other = conversationFactory(t, await t.account());
    const contact = await f.contact();
    const [foreignContact, foreignAgent, foreignGroup, foreignTag] = await Promise.all([
      other.contact(),
      other.agent(),
      other.group(),
      other.tag(),
    ]);
    const attempts: [Json, string][] = [
      [{ contact_id: foreignContact.id }, 'contact_not_found'],
      [{ contact_id: contact.id, assigned_ids: [foreignAgent.id] }, 'agent_not_found'],
      [{ contact_id: contact.id, group_id: foreignGroup.id }, 'group_not_found'],
      [{ contact_id: contact.id, tags: [foreignTag.id] }, 'tag_not_found'],
    ];
    for (const [body, code] of attempts) {
      const res = await api.post('/v2/conversations', body);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, code);
    }
  });

  it("judges each create's live message with the availability at its time, not the one the create before assumed", async () => {
    const { account, f } = await setup();
    const availability = recentAvailability(t.deps.db);
    assert.equal((await f.conversation({ text: 'nobody there' })).is_offline, true);
    assert.equal(availability.get(account.accountId, ''), false);
    const agent = await f.agent({ available: true });
    assert.equal((await f.conversation({ text: 'someone came' })).is_offline, false);
    assert.equal((await f.conversation({ text: 'still there' })).is_offline, false);
    assert.equal(availability.get(account.accountId, ''), true);
    // Each group is judged apart: this one has nobody.
    const group = await f.group();
    assert.equal((await f.conversation({ group_id: group.id, text: 'to the group' })).is_offline, true);
    assert.equal(availability.get(account.accountId, group.id), false);
    await f.makeUnavailable(agent.id);
    assert.equal((await f.conversation({ text: 'gone again' })).is_offline, true);
    assert.equal(availability.get(account.accountId, ''), false);
    // An assumption planted against the truth is only ever a guess: the write checks it.
    availability.put(account.accountId, '', true);
    const conv = await f.conversation({ text: 'guessed wrong' });
    assert.equal(conv.is_offline, true);
    assert.equal((await f.get(conv.id)).messages[0].is_offline, true);
    assert.equal(availability.get(account.accountId, ''), false);
  });

  it('answers bad references as the check does when the create is written without reading first', async () => {
    const { account, f, api } = await setup();
    const other = conversationFactory(t, await t.account());
    const contact = await f.contact();
    const erasing = await f.contact();
    await t.db.query('update contacts set erasing_at = now() where account_id = $1 and id = $2', [account.accountId, erasing.id]);
    const [foreignContact, foreignAgent, foreignGroup, foreignTag] = await Promise.all([
      other.contact(),
      other.agent(),
      other.group(),
      other.tag(),
    ]);
    // The availability is known: a create with a live contact message goes straight to its conditional write.
    const first = await f.conversation({ contact_id: contact.id, ext_id: 'taken', text: 'first' });
    const events = await countRows(account.accountId, 'events');
    const attempts: [Json, string, string[][] | null][] = [
      [{ contact_id: 'ctnope' }, 'contact_not_found', null],
      [{ contact_id: foreignContact.id }, 'contact_not_found', null],
      [{ contact_id: erasing.id }, 'contact_not_found', null],
      [{ contact_id: 'ctnope', ext_id: 'taken' }, 'contact_not_found', null],
      [{ contact_id: contact.id, assigned_ids: [foreignAgent.id] }, 'agent_not_found', null],
      [{ contact_id: contact.id, group_id: foreignGroup.id }, 'group_not_found', null],
      [{ contact_id: contact.id, tags: [foreignTag.id], ext_id: 'taken' }, 'tag_not_found', null],
      [{ contact_id: contact.id, ext_id: 'taken' }, 'invalid_arguments', [['ext_id', 'unique', 'body']]],
    ];
    for (const [body, code, paths] of attempts) {
      for (const content of [{ text: 'x' }, {}]) {
        const res = await api.post('/v2/conversations', { ...body, ...content });
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, code, JSON.stringify(body));
        if (paths) assert.deepEqual(errorPaths(res.body), paths);
      }
    }
    assert.equal(await countRows(account.accountId, 'conversations'), 1);
    assert.equal(await countRows(account.accountId, 'messages'), 1);
    assert.equal(await countRows(account.accountId, 'events'), events);
    assert.equal((await f.get(first.id)).ext_id, 'taken');
  });

  it('needs conversations:create', async () => {
    const { account, f } = await setup();
    const contact = await f.contact();
    const token = await t.token(account, ['conversations:read', 'conversations:write']);
    const res = await t.client(token).post('/v2/conversations', { contact_id: contact.id });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope conversations:create' });
    assert.equal((await t.client().post('/v2/conversations', { bogus: 1 })).status, 401);
  });
});

describe('GET /v2/conversations/{id}', () => {
  it("answers 404 for an unknown id and for another account's conversation", async () => {
    const { f, api } = await setup();
    const conv = await f.conversation();
    const other = await t.account();
    for (const res of [await api.get('/v2/conversations/conope'), await t.client(other.token).get(`/v2/conversations/${conv.id}`)]) {
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
      assert.match(res.body.message, /Conversation/);
    }
  });

  it('includes messages, paths and statistics only when asked', async () => {
    const { f, api } = await setup();
    const agent = await f.agent();
    t.clock.set('2026-04-01T08:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'q1' });
      t.clock.advance(10);
      await f.agentSays(conv.id, agent.id, 'a1');
      t.clock.advance(20);
      await f.contactSays(conv.id, 'q2');
      t.clock.advance(2.5);
      await f.agentSays(conv.id, agent.id, 'a2');
      t.clock.advance(60);
      await f.close(conv.id);
      const plain = (await api.get(`/v2/conversations/${conv.id}`)).body;
      assert.equal('messages' in plain || 'paths' in plain || 'statistics' in plain, false);
      const full = await f.get(conv.id);
      assert.deepEqual(full.paths, []);
      assert.deepEqual(full.statistics, {
        messages_count: 4,
        contact_messages_count: 2,
        agent_messages_count: 2,
        first_response_time: 10,
        avg_response_time: 6.25,
        duration: 92.5,
      });
      assert.deepEqual(
        full.messages.map((m: Json) => m.content.text),
        ['q1', 'a1', 'q2', 'a2'],
      );
    } finally {
      t.clock.reset();
    }
  });

  it('rejects an unknown query parameter or a non-boolean flag', async () => {
    const { f, api } = await setup();
    const conv = await f.conversation();
    const res = await api.get(`/v2/conversations/${conv.id}?messages=maybe`);
    assert.equal(res.status, 422);
    assert.deepEqual(errorPaths(res.body), [['messages', 'type', 'query']]);
  });
});

describe('messages: POST /v2/conversations/{id}/messages', () => {
  it('stores contact, agent and bot messages with statuses and events', async () => {
    const { account, f, api } = await setup();
    const agent = await f.agent();
    const conv = await f.conversation();
    assert.equal(conv.status, 'pending');
    const bot = await f.botSays(conv.id, 'Welcome');
    assert.equal(bot.sub_type, 'bot');
    assert.equal((await api.get(`/v2/conversations/${conv.id}`)).body.status, 'pending');
    await f.contactSays(conv.id, 'hi');
    assert.equal((await api.get(`/v2/conversations/${conv.id}`)).body.status, 'open');
    const reply = await f.agentSays(conv.id, agent.id, 'hello');
    assert.equal(reply.agent_id, agent.id);
    assert.equal(reply.is_reply, true);
    const after = (await api.get(`/v2/conversations/${conv.id}`)).body;
    assert.equal(after.status, 'served');
    assert.deepEqual(after.agent_ids, [agent.id]);
    assert.equal(after.is_served, true);
    assert.equal(after.unread, 0);
    const replied = (await events(account.accountId)).filter((e) => e.type.endsWith('_replied'));
    assert.deepEqual(
      replied.map((e) => [e.type, e.data.conversation_id, e.data.message.content.text]),
      [
        ['conversation.bot_replied', conv.id, 'Welcome'],
        ['conversation.contact_replied', conv.id, 'hi'],
        ['conversation.agent_replied', conv.id, 'hello'],
      ],
    );
  });

  it('puts in each event the message and the conversation exactly as the answers show them', async () => {
    // The events are written in the statement that stores the change, from the records known before it runs.
    const { account, f, api } = await setup();
    const agent = await f.agent();
    const created = await api.post('/v2/conversations', {
      contact_id: (await f.contact()).id,
      html: '<p>Hi <b>there</b> <a href="https://example.com/a">link</a></p>',
      variables: { order: 1042, gift: true },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const answered = await api.post(`/v2/conversations/${created.body.id}/messages`, {
      sub_type: 'agent',
      agent_id: agent.id,
      html: 'See <a href="https://example.com/b">this</a>',
      attachments: [{ type: 'file', url: 'https://files.example.com/guide.pdf', file_name: 'guide.pdf' }],
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    const stored = (await api.get(`/v2/conversations/${created.body.id}/messages`)).body.items;
    const recorded = await events(account.accountId);
    const opened = recorded.find((e) => e.type === 'conversation.opened');
    assert.deepEqual(opened?.data.conversation, created.body);
    const replies = recorded.filter((e) => e.type.endsWith('_replied')).map((e) => e.data.message);
    assert.deepEqual(replies, [...stored].reverse());
    assert.deepEqual(replies[1], answered.body);
    assert.equal(typeof answered.body.response_time, 'number');
  });

  it('records no replied event for an internal note', async () => {
    const { account, api, f } = await setup();
    const agent = await f.agent();
    const conv = await f.conversation({ text: 'hi' });
    const before = (await events(account.accountId)).length;
    const res = await api.post(`/v2/conversations/${conv.id}/messages`, {
      sub_type: 'agent',
      agent_id: agent.id,
      type: 'note',
      text: 'internal',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.type, 'note');
    assert.equal((await events(account.accountId)).length, before);
  });

  it('needs agent_id for an agent message and a known agent', async () => {
    const { account, f, api } = await setup();
    const conv = await f.conversation({ text: 'hi' });
    let res = await api.post(`/v2/conversations/${conv.id}/messages`, { sub_type: 'agent', text: 'x' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_parameters');
    res = await api.post(`/v2/conversations/${conv.id}/messages`, { sub_type: 'agent', agent_id: '999999999', text: 'x' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'agent_not_found');
    res = await api.post(`/v2/conversations/${conv.id}/messages`, { sub_type: 'contact' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
    res = await api.post(`/v2/conversations/${conv.id}/messages`, { sub_type: 'system', text: 'x' });
    assert.deepEqual(errorPaths(res.body), [['sub_type', 'enum', 'body']]);
    assert.equal(await countRows(account.accountId, 'messages'), 1);
  });

  it('imports history with created_at: not in the future, not before the latest message, never offline', async () => {
    const { f, api } = await setup();
    const agent = await f.agent();
    t.clock.set('2026-05-01T10:00:00.000Z');
    try {
      const conv = await f.conversation({
        messages: [{ sub_type: 'contact', content: { type: 'text', text: 'q' }, created_at: '2026-05-01T09:00:00.000Z' }],
      });
      const reply = await f.agentSays(conv.id, agent.id, 'a', { created_at: '2026-05-01T09:01:30.250Z' });
      assert.equal(reply.response_time, 90.25);
      assert.equal(reply.is_first_reply, true);
      const contact = await f.contactSays(conv.id, 'q2', { created_at: '2026-05-01T09:05:00.000Z' });
      assert.equal(contact.is_offline, false);
      let res = await api.post(`/v2/conversations/${conv.id}/messages`, {
        sub_type: 'contact',
        text: 'x',
        created_at: '2026-05-01T09:04:00.000Z',
      });
      assert.equal(res.status, 422);
      assert.deepEqual(errorPaths(res.body), [['created_at', 'formatMinimum', 'body']]);
      res = await api.post(`/v2/conversations/${conv.id}/messages`, {
        sub_type: 'contact',
        text: 'x',
        created_at: '2026-05-01T10:00:01.000Z',
      });
      assert.equal(res.status, 422);
      assert.deepEqual(errorPaths(res.body), [['created_at', 'formatMaximum', 'body']]);
      assert.equal((await f.get(conv.id)).messages.length, 3);
    } finally {
      t.clock.reset();
    }
  });

  it('reopens a closed conversation on a contact message', async () => {
    const { account, f, api } = await setup();
    const conv = await f.conversation({ text: 'hi' });
    await f.close(conv.id);
    const closed = (await api.get(`/v2/conversations/${conv.id}`)).body;
    assert.equal(closed.status, 'closed');
    assert.equal(closed.close_type, 'agent');
    assert.match(closed.finished_at, ISO);
    await f.contactSays(conv.id, 'again');
    const reopened = (await api.get(`/v2/conversations/${conv.id}`)).body;
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.finished_at, null);
    assert.equal(reopened.close_type, null);
    assert.ok((await events(account.accountId)).some((e) => e.type === 'conversation.closed' && e.data.conversation.id === conv.id));
  });

  it("answers 404 for another account's conversation", async () => {
    const { f } = await setup();
    const conv = await f.conversation();
    const other = await t.account();
    const res = await t.client(other.token).post(`/v2/conversations/${conv.id}/messages`, { sub_type: 'contact', text: 'x' });
    assert.equal(res.status, 404);
  });
});

describe('PATCH /v2/conversations/{id}/close', () => {
  it('closes once and is idempotent', async () => {
    const { account, f, api } = await setup();
    t.clock.set('2026-06-01T00:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'hi' });
      const res = await api.patch(`/v2/conversations/${conv.id}/close`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true });
      t.clock.advance(100);
      assert.deepEqual((await api.patch(`/v2/conversations/${conv.id}/close`)).body, { ok: true });
      const closed = (await api.get(`/v2/conversations/${conv.id}`)).body;
      assert.equal(closed.finished_at, '2026-06-01T00:00:00.000Z');
      assert.equal(closed.updated_at, '2026-06-01T00:00:00.000Z');
      assert.equal((await events(account.accountId)).filter((e) => e.type === 'conversation.closed').length, 1);
    } finally {
      t.clock.reset();
    }
  });

  it('answers 404 and needs conversations:write', async () => {
    const { account, f, api } = await setup();
    assert.equal((await api.patch('/v2/conversations/conope/close')).status, 404);
    const conv = await f.conversation();
    const reader = await t.token(account, ['conversations:read']);
    const res = await t.client(reader).patch(`/v2/conversations/${conv.id}/close`);
    assert.equal(res.status, 403);
    assert.equal(res.body.message, 'Missing scope conversations:write');
  });
});

describe('POST /v2/conversations/{id}/rating', () => {
  it('rates and re-rates', async () => {
    const { account, f, api } = await setup();
    const conv = await f.conversation({ text: 'hi' });
    t.clock.set('2026-06-02T00:00:00.000Z');
    try {
      const rated = await f.rate(conv.id, 5, 'great');
      assert.equal(rated.rating_value, 5);
      assert.equal(rated.rating_text, 'great');
      assert.equal(rated.rated_at, '2026-06-02T00:00:00.000Z');
      const again = await f.rate(conv.id, 1);
      assert.equal(again.rating_value, 1);
      assert.equal(again.rating_text, null);
      const res = await api.post(`/v2/conversations/${conv.id}/rating`, { value: 4 });
      assert.equal(res.status, 422);
      assert.deepEqual(errorPaths(res.body), [['value', 'enum', 'body']]);
      assert.equal((await api.get(`/v2/conversations/${conv.id}`)).body.rating_value, 1);
      assert.equal((await events(account.accountId)).filter((e) => e.type === 'conversation.rated').length, 2);
    } finally {
      t.clock.reset();
    }
  });
});

describe('paths: POST /v2/conversations/{id}/paths', () => {
  it('records paths and sets domain from the first', async () => {
    const { f, api } = await setup();
    const conv = await f.conversation();
    t.clock.set('2026-06-03T00:00:00.000Z');
    try {
      const path = await f.path(conv.id, 'https://Shop.Example.com/cart?x=1', 'Cart');
      assert.deepEqual(path, { url: 'https://Shop.Example.com/cart?x=1', title: 'Cart', created_at: '2026-06-03T00:00:00.000Z' });
      await f.path(conv.id, 'https://other.example.org/');
      const full = await f.get(conv.id);
      assert.equal(full.domain, 'shop.example.com');
      assert.deepEqual(
        full.paths.map((p: Json) => p.url),
        ['https://Shop.Example.com/cart?x=1', 'https://other.example.org/'],
      );
      const res = await api.post(`/v2/conversations/${conv.id}/paths`, { url: 'javascript:alert(1)' });
      assert.equal(res.status, 422);
      assert.deepEqual(errorPaths(res.body), [['url', 'pattern', 'body']]);
      assert.equal(res.body.errors[0].message, 'url must be an http or https URL with a host');
      const unparsable = await api.post(`/v2/conversations/${conv.id}/paths`, { url: 'http://[::1/cart' });
      assert.equal(unparsable.status, 422);
      assert.deepEqual(errorPaths(unparsable.body), [['url', 'format', 'body']]);
      assert.equal((await f.get(conv.id)).paths.length, 2);
    } finally {
      t.clock.reset();
    }
  });
});

describe('attachments on messages', () => {
  it('stores url and upload attachments, and rejects a bad one storing nothing', async () => {
    const { account, f, api } = await setup();
    const upload = await api.request({
      method: 'POST',
      url: '/v2/uploads?file_name=invoice.pdf',
      payload: Buffer.from('%PDF-1.4 test'),
      headers: { 'content-type': 'application/pdf' },
    });
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    const conv = await f.conversation({
      messages: [
        {
          sub_type: 'contact',
          content: { type: 'text', text: 'see attached' },
          attachments: [
            { type: 'image', url: 'https://cdn.example.com/a/photo.png' },
            { type: 'upload', token: upload.body.token },
          ],
        },
      ],
    });
    const [message] = (await f.get(conv.id)).messages;
    assert.deepEqual(message.attachments[0], {
      type: 'image',
      url: 'https://cdn.example.com/a/photo.png',
      file_name: 'photo.png',
      file_type: null,
    });
    assert.equal(message.attachments[1].type, 'upload');
    assert.equal(message.attachments[1].file_name, 'invoice.pdf');

    const before = await countRows(account.accountId, 'messages');
    const res = await api.post(`/v2/conversations/${conv.id}/messages`, {
      sub_type: 'contact',
      text: 'x',
      attachments: [{ type: 'image', url: 'https://cdn.example.com/run.exe' }],
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_attachment_data');
    assert.equal(res.body.errors[0].path, 'attachments[0].url');
    const bad = await api.post('/v2/conversations', {
      contact_id: conv.contact_id,
      messages: [{ sub_type: 'contact', content: { type: 'text', text: 'y' }, attachments: [{ type: 'upload', token: 'nope' }] }],
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.code, 'invalid_attachment_data');
    assert.equal(bad.body.errors[0].path, 'messages[0].attachments[0].token');
    assert.equal(await countRows(account.accountId, 'messages'), before);
    assert.equal(await countRows(account.accountId, 'conversations'), 1);
  });
});

describe('OpenAPI', () => {
  it('describes every field of the conversation, message and upload requests and responses', async () => {
    const doc = dereference((await t.client().get('/v2/openapi.json')).body);
    const undescribed: string[] = [];
    const walk = (schema: Json | undefined, at: string): void => {
      if (!schema || typeof schema !== 'object') return;
      for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
        if (!property.description) undescribed.push(`${at}.${name}`);
        walk(property, `${at}.${name}`);
      }
      walk(schema.items, `${at}[]`);
    };
    for (const [path, operations] of Object.entries<Json>(doc.paths)) {
      if (!/^\/v2\/(conversations|uploads)/.test(path)) continue;
      for (const [method, operation] of Object.entries<Json>(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (!parameter.description && !parameter.schema?.description) undescribed.push(`${method} ${path} ${parameter.name}`);
        }
        walk(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`);
        walk(operation.responses?.['200']?.content?.['application/json']?.schema, `${method} ${path} 200`);
      }
    }
    assert.deepEqual(undescribed, []);
  });
});

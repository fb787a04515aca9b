import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import * as repo from './repository.ts';
import { createRecent, recentConversations } from './recent.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const errorPaths = (body: Json) => body.errors.map((e: Json) => [e.path, e.code, e.location]);

async function setup() {
  const account = await t.account();
  return { account, f: conversationFactory(t, account), api: t.client(account.token) };
}

async function eventsOf(accountId: string, type: string): Promise<Json[]> {
  const { rows } = await t.db.query<{ data: Json; conversation_id: string }>(
    'select data, conversation_id from events where account_id = $1 and type = $2 order by id',
    [accountId, type],
  );
  return rows.map((row) => ({ ...row.data, _conversation_id: row.conversation_id }));
}

describe('GET /v2/conversations/find', () => {
  it('finds by ext_id within the account only', async () => {
    const { f, api } = await setup();
    const conv = await f.conversation({ ext_id: 'order 42/7' });
    const res = await api.get(`/v2/conversations/find?ext_id=${encodeURIComponent('order 42/7')}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, conv.id);
    assert.equal((await api.get('/v2/conversations/find?ext_id=missing')).status, 404);
    const other = await t.account();
    const foreign = await t.client(other.token).get(`/v2/conversations/find?ext_id=${encodeURIComponent('order 42/7')}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'not_found');
  });

  it('needs ext_id', async () => {
    const { api } = await setup();
    const res = await api.get('/v2/conversations/find');
    assert.equal(res.status, 422);
    assert.deepEqual(errorPaths(res.body), [['ext_id', 'required', 'query']]);
  });
});

describe('PATCH /v2/conversations/{id}', () => {
  it('updates group_id, tags, variables and ext_id, with an event', async () => {
    const { account, f, api } = await setup();
    const [group, tag] = [await f.group(), await f.tag()];
    const conv = await f.conversation({ ext_id: 'a', variables: { x: 1 }, text: 'hi' });
    const res = await api.patch(`/v2/conversations/${conv.id}`, { group_id: group.id, tags: [tag.id], variables: { y: 'z' }, ext_id: 'b' });
    assert.equal(res.status, 200);
    assert.equal(res.body.group_id, group.id);
    assert.deepEqual(res.body.tags, [tag.id]);
    assert.deepEqual(res.body.variables, { y: 'z' });
    assert.equal(res.body.ext_id, 'b');
    assert.deepEqual((await api.get(`/v2/conversations/${conv.id}`)).body, res.body);
    const [event] = await eventsOf(account.accountId, 'conversation.updated');
    assert.ok(event);
    assert.deepEqual(event.conversation, res.body);
    assert.equal(event._conversation_id, conv.id);
    // Messages stored afterwards carry the new group.
    await f.contactSays(conv.id, 'again');
    const { rows } = await t.db.query<{ group_id: string | null }>(
      'select group_id from messages where conversation_id = $1 order by seq',
      [conv.id],
    );
    assert.deepEqual(
      rows.map((row) => row.group_id),
      [null, group.id],
    );
    // Clearing.
    const cleared = await api.patch(`/v2/conversations/${conv.id}`, { group_id: null, ext_id: null, tags: [] });
    assert.equal(cleared.body.group_id, null);
    assert.equal(cleared.body.ext_id, null);
    assert.deepEqual(cleared.body.tags, []);
  });

  it('rejects unknown references and a taken ext_id, changing nothing', async () => {
    const { account, f, api } = await setup();
    await f.conversation({ ext_id: 'taken' });
    const conv = await f.conversation({ ext_id: 'mine' });
    const attempts: [Json, string, string[][] | null][] = [
      [{ group_id: 'grnope', ext_id: 'new' }, 'group_not_found', null],
      [{ tags: ['tgnope'], ext_id: 'new' }, 'tag_not_found', null],
      [{ ext_id: 'taken' }, 'invalid_arguments', [['ext_id', 'unique', 'body']]],
      [{ status: 'closed' }, 'invalid_arguments', [['status', 'additionalProperties', 'body']]],
      [{ variables: { a: { b: 1 } } }, 'invalid_arguments', [['variables.a', 'type', 'body']]],
    ];
    for (const [body, code, paths] of attempts) {
      const res = await api.patch(`/v2/conversations/${conv.id}`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, code);
      if (paths) assert.deepEqual(errorPaths(res.body), paths);
    }
    assert.equal((await api.get(`/v2/conversations/${conv.id}`)).body.ext_id, 'mine');
    assert.deepEqual(await eventsOf(account.accountId, 'conversation.updated'), []);
    // Its own ext_id again is fine.
    assert.equal((await api.patch(`/v2/conversations/${conv.id}`, { ext_id: 'mine' })).status, 200);
  });

  it("answers 404 for another account's conversation", async () => {
    const { f } = await setup();
    const conv = await f.conversation();
    const other = await t.account();
    assert.equal((await t.client(other.token).patch(`/v2/conversations/${conv.id}`, { variables: {} })).status, 404);
  });
});

describe('assign and unassign', () => {
  it('assigns with an event message and an event; re-assigning is a no-op', async () => {
    const { account, f, api } = await setup();
    const [boss, agent] = [await f.agent(), await f.agent()];
    t.clock.set('2026-07-01T00:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'hi' });
      const res = await api.patch(`/v2/conversations/${conv.id}/assign`, { agent_id: boss.id, assignee_id: agent.id });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.assigned_ids, [agent.id]);
      assert.equal(res.body.status, 'served');
      assert.equal(res.body.is_served, true);
      const again = await api.patch(`/v2/conversations/${conv.id}/assign`, { agent_id: boss.id, assignee_id: agent.id });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, res.body);
      const messages = (await f.get(conv.id)).messages;
      assert.equal(messages.length, 2);
      assert.deepEqual(
        { ...messages[1], id: undefined },
        {
          id: undefined,
          conversation_id: conv.id,
          type: 'event',
          sub_type: 'system',
          agent_id: boss.id,
          trigger_id: null,
          content: { type: 'agent_assigned', text: null, data: { agent_id: agent.id } },
          attachments: [],
          is_reply: false,
          is_first_reply: false,
          is_offline: false,
          is_offline_reply: false,
          response_time: null,
          created_at: '2026-07-01T00:00:00.000Z',
        },
      );
      const events = await eventsOf(account.accountId, 'conversation.agent_assigned');
      assert.deepEqual(events, [{ conversation_id: conv.id, agent_id: boss.id, assignee_id: agent.id, _conversation_id: conv.id }]);
    } finally {
      t.clock.reset();
    }
  });

  it('parallel assigns and unassigns store their event messages in time order', async () => {
    const { f, api } = await setup();
    const [boss, agent] = [await f.agent(), await f.agent()];
    const conv = await f.conversation({ text: 'hi' });
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? api.patch(`/v2/conversations/${conv.id}/assign`, { agent_id: boss.id, assignee_id: agent.id })
        : api.patch(`/v2/conversations/${conv.id}/unassign`, { agent_id: boss.id, unassignee_id: agent.id }),
    );
    const replies = await Promise.all(calls);
    for (const res of replies)
      assert.ok(res.status === 200 || (res.status === 422 && res.body.code === 'invalid_parameters'), JSON.stringify(res.body));

    const { rows } = await t.db.query<{ kind: string; created_at: Date }>(
      "select content->>'type' as kind, created_at from messages where conversation_id = $1 and type = 'event' order by seq",
      [conv.id],
    );
    assert.ok(rows.length > 0);
    rows.forEach((row, i) => {
      // Only an unassigned agent can be assigned (a no-op stores nothing), only an assigned one unassigned.
      assert.equal(row.kind, i % 2 === 0 ? 'agent_assigned' : 'agent_unassigned', `event ${i}`);
      if (i > 0) assert.ok(row.created_at.getTime() >= rows[i - 1]!.created_at.getTime(), `event ${i} is earlier than event ${i - 1}`);
    });
    // Every unassign that found nobody to unassign was refused.
    const unassigned = rows.filter((row) => row.kind === 'agent_unassigned').length;
    assert.equal(replies.filter((res) => res.status === 422).length, 20 - unassigned);
    // The history as read back (created_at, then storage order) is the storage order.
    const history = (await f.get(conv.id)).messages.filter((m: Json) => m.type === 'event').map((m: Json) => m.content.type);
    assert.deepEqual(
      history,
      rows.map((row) => row.kind),
    );
    const final = (await api.get(`/v2/conversations/${conv.id}`)).body;
    assert.deepEqual(final.assigned_ids, rows.length % 2 === 1 ? [agent.id] : []);
  });

  it('unassigns, falling back to open when nobody serves it any more', async () => {
    const { account, f, api } = await setup();
    const agent = await f.agent();
    const conv = await f.conversation({ text: 'hi' });
    await f.assign(conv.id, agent.id);
    const res = await api.patch(`/v2/conversations/${conv.id}/unassign`, { agent_id: agent.id, unassignee_id: agent.id });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.assigned_ids, []);
    assert.equal(res.body.status, 'open');
    const messages = (await f.get(conv.id)).messages;
    assert.deepEqual(messages[2].content, { type: 'agent_unassigned', text: null, data: { agent_id: agent.id } });
    const events = await eventsOf(account.accountId, 'conversation.agent_unassigned');
    assert.deepEqual(events, [{ conversation_id: conv.id, agent_id: agent.id, unassignee_id: agent.id, _conversation_id: conv.id }]);
  });

  it('unassigns an agent deleted while assigned; a deleted agent cannot act', async () => {
    const { f, api } = await setup();
    const [boss, leaver] = [await f.agent(), await f.agent()];
    const conv = await f.conversation({ text: 'hi', assigned_ids: [leaver.id, boss.id] });
    assert.equal((await api.delete(`/v2/agents/${leaver.id}`)).status, 200);
    const res = await api.patch(`/v2/conversations/${conv.id}/unassign`, { agent_id: boss.id, unassignee_id: leaver.id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.assigned_ids, [boss.id]);
    const again = await api.patch(`/v2/conversations/${conv.id}/unassign`, { agent_id: boss.id, unassignee_id: leaver.id });
    assert.deepEqual([again.status, again.body.code], [422, 'agent_not_found']);
    const byLeaver = await api.patch(`/v2/conversations/${conv.id}/unassign`, { agent_id: leaver.id, unassignee_id: boss.id });
    assert.deepEqual([byLeaver.status, byLeaver.body.code], [422, 'agent_not_found']);
    assert.deepEqual((await api.get(`/v2/conversations/${conv.id}`)).body.assigned_ids, [boss.id]);
  });

  it('answers each error exactly and changes nothing', async () => {
    const { account, f, api } = await setup();
    const agent = await f.agent();
    const foreignAgent = await conversationFactory(t, await t.account()).agent();
    const conv = await f.conversation({ text: 'hi' });
    const closed = await f.conversation({ text: 'bye' });
    await f.close(closed.id);
    const cases: [string, string, Json, number, string, string[][] | null][] = [
      ['assign', conv.id, { agent_id: agent.id, assignee_id: '999999999' }, 422, 'agent_not_found', null],
      ['assign', conv.id, { agent_id: '999999999', assignee_id: agent.id }, 422, 'agent_not_found', null],
      ['assign', conv.id, { agent_id: agent.id, assignee_id: foreignAgent.id }, 422, 'agent_not_found', null],
      ['assign', closed.id, { agent_id: agent.id, assignee_id: agent.id }, 422, 'invalid_parameters', null],
      ['assign', conv.id, { agent_id: agent.id }, 422, 'invalid_arguments', [['assignee_id', 'required', 'body']]],
      ['assign', conv.id, { agent_id: agent.id, assignee_id: 5 }, 422, 'invalid_arguments', [['assignee_id', 'type', 'body']]],
      ['assign', 'conope', { agent_id: agent.id, assignee_id: agent.id }, 404, 'not_found', null],
      ['unassign', conv.id, { agent_id: agent.id, unassignee_id: agent.id }, 422, 'invalid_parameters', null],
      ['unassign', conv.id, { agent_id: agent.id, unassignee_id: '999999999' }, 422, 'agent_not_found', null],
      ['unassign', conv.id, { agent_id: agent.id, assignee_id: agent.id }, 422, 'invalid_arguments', null],
    ];
    for (const [action, id, body, status, code, paths] of cases) {
      const res = await api.patch(`/v2/conversations/${id}/${action}`, body);
      assert.equal(res.status, status, `${action} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, code);
      if (paths) assert.deepEqual(errorPaths(res.body), paths);
    }
    assert.deepEqual((await api.get(`/v2/conversations/${conv.id}`)).body.assigned_ids, []);
    assert.deepEqual(await eventsOf(account.accountId, 'conversation.agent_assigned'), []);
    const { rows } = await t.db.query("select 1 from messages where account_id = $1 and type = 'event'", [account.accountId]);
    assert.equal(rows.length, 0);
  });
});

describe('paging messages and paths', () => {
  it('pages messages newest first with an after cursor and a total', async () => {
    const { f, api } = await setup();
    t.clock.set('2026-08-01T00:00:00.000Z');
    const conv = await f.conversation({ text: 'm0' });
    try {
      for (let i = 1; i <= 6; i++) {
        t.clock.advance(1);
        await f.contactSays(conv.id, `m${i}`);
      }
    } finally {
      t.clock.reset();
    }
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/v2/conversations/${conv.id}/messages?size=3${after ? `&after=${after}` : ''}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.total, 7);
      seen.push(...res.body.items.map((m: Json) => m.content.text));
      after = res.body.after;
      pages++;
    } while (after !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['m6', 'm5', 'm4', 'm3', 'm2', 'm1', 'm0']);
    const whole = await api.get(`/v2/conversations/${conv.id}/messages`);
    assert.equal(whole.body.items.length, 7);
    assert.equal(whole.body.after, null);
  });

  it('rejects a bad size or a cursor of another conversation', async () => {
    const { f, api } = await setup();
    const conv = await f.conversation({ text: 'a' });
    await f.contactSays(conv.id, 'b');
    const other = await f.conversation({ text: 'c' });
    await f.contactSays(other.id, 'd');
    const { body } = await api.get(`/v2/conversations/${other.id}/messages?size=1`);
    for (const [query, path, code] of [
      ['size=0', 'size', 'minimum'],
      ['size=201', 'size', 'maximum'],
      ['size=x', 'size', 'type'],
      [`after=${body.after}`, 'after', 'cursor'],
      ['after=abc', 'after', 'pattern'],
    ]) {
      const res = await api.get(`/v2/conversations/${conv.id}/messages?${query}`);
      assert.equal(res.status, 422, query);
      assert.deepEqual(errorPaths(res.body), [[path, code, 'query']]);
      if (code === 'pattern') assert.equal(res.body.errors[0].message, 'after must be the `after` of a previous page');
    }
    assert.equal((await api.get('/v2/conversations/conope/messages')).status, 404);
  });

  it('pages paths, and GET with paths=true returns the last 200 oldest first', async () => {
    const { f, api } = await setup();
    const conv = await f.conversation();
    t.clock.set('2026-08-02T00:00:00.000Z');
    try {
      await t.db.query(
        `insert into paths (account_id, conversation_id, url, title, created_at)
         select $1, $2, 'https://example.com/p' || i, null, $3::timestamptz + make_interval(secs => i) from generate_series(1, 205) i`,
        [f.account.accountId, conv.id, t.clock.now()],
      );
    } finally {
      t.clock.reset();
    }
    const full = await f.get(conv.id);
    assert.equal(full.paths.length, 200);
    assert.equal(full.paths[0].url, 'https://example.com/p6');
    assert.equal(full.paths[199].url, 'https://example.com/p205');
    const page1 = (await api.get(`/v2/conversations/${conv.id}/paths?size=200`)).body;
    assert.equal(page1.total, 205);
    assert.equal(page1.items[0].url, 'https://example.com/p205');
    const page2 = (await api.get(`/v2/conversations/${conv.id}/paths?size=200&after=${page1.after}`)).body;
    assert.deepEqual(
      page2.items.map((p: Json) => p.url),
      ['p5', 'p4', 'p3', 'p2', 'p1'].map((p) => `https://example.com/${p}`),
    );
    assert.equal(page2.after, null);
  });

  it('GET with messages=true returns the last 200 messages oldest first', async () => {
    const { f } = await setup();
    const conv = await f.conversation({ text: 'first' });
    await t.db.query(
      `insert into messages (account_id, id, conversation_id, type, sub_type, content, text, created_at)
       select $1, 'ms' || lpad(i::text, 12, '0'), $2, 'message', 'contact', jsonb_build_object('type', 'text', 'text', 'n' || i, 'html', null),
              'n' || i, now() + make_interval(secs => i)
       from generate_series(1, 205) i`,
      [f.account.accountId, conv.id],
    );
    const messages = (await f.get(conv.id)).messages;
    assert.equal(messages.length, 200);
    assert.equal(messages[0].content.text, 'n6');
    assert.equal(messages[199].content.text, 'n205');
  });
});

describe('saving a conversation', () => {
  const versionOf = async (accountId: string, id: string) =>
    (await t.db.query<{ xmin: string }>('select xmin::text from conversations where account_id = $1 and id = $2', [accountId, id])).rows[0]
      ?.xmin;

  it('writes only the columns that changed, and nothing when none did', async () => {
    const { account, f } = await setup();
    const tag = await f.tag();
    const { id } = await f.conversation({ variables: { plan: 'pro', seats: 3 }, tags: [tag.id], text: 'hi' });
    const before = await repo.findConversation(t.db, account.accountId, id);
    assert.ok(before);
    const version = await versionOf(account.accountId, id);
    // Equal values in new objects (a copied date, array and variables) are no change: the row keeps its version.
    const same = {
      ...before,
      tags: [...before.tags],
      variables: { ...before.variables },
      updated_at: new Date(before.updated_at.getTime()),
    };
    await repo.writeConversation(t.db, account.accountId, same, before, [], { at: new Date(), items: [] });
    assert.equal(await versionOf(account.accountId, id), version);

    await repo.writeConversation(t.db, account.accountId, { ...same, unread: before.unread + 2 }, before, [], {
      at: new Date(),
      items: [],
    });
    assert.notEqual(await versionOf(account.accountId, id), version);
    assert.deepEqual(await repo.findConversation(t.db, account.accountId, id), { ...before, unread: before.unread + 2 });
  });

  it('writes a change read without a lock only while the row is still the version read, its messages and events included', async () => {
    const { account, f } = await setup();
    const { id } = await f.conversation({ text: 'hi' });
    const read = await repo.readConversationForChange(t.db, account.accountId, id);
    assert.ok(read);
    assert.equal(read.version, await versionOf(account.accountId, id));
    const counts = async () =>
      (
        await t.db.query<{ messages: number; events: number }>(
          `select (select count(*)::int from messages where account_id = $1 and conversation_id = $2) as messages,
                  (select count(*)::int from events where account_id = $1 and conversation_id = $2) as events`,
          [account.accountId, id],
        )
      ).rows[0];
    const message = (text: string) => ({
      id: `ms_${text}`,
      type: 'message' as const,
      sub_type: 'contact' as const,
      agent_id: null,
      content: { type: 'text', text },
      attachments: [],
      flags: { is_reply: false, is_first_reply: false, is_offline: false, is_offline_reply: false, response_time: null },
      group_id: null,
      created_at: new Date(),
    });
    const event = [{ type: 'conversation.contact_replied' as const, data: {}, conversationId: id }];
    // One more unread and one message with its event, written over the conversation as `read` found it.
    const writeOver = (read: repo.ConversationForChange, text: string, condition: Partial<repo.WriteCondition> = {}) =>
      repo.writeConversation(
        t.db,
        account.accountId,
        { ...read.conv, unread: read.conv.unread + 1 },
        read.conv,
        [message(text)],
        { at: new Date(), items: event },
        { version: read.version, ...condition },
      );
    const before = await counts();
    // Another writer came in between: the row is a new version, and nothing of the late write is stored.
    await f.contactSays(id, 'in between');
    const between = await counts();
    assert.equal(await writeOver(read, 'late'), null);
    assert.deepEqual(await counts(), between);
    assert.notDeepEqual(between, before);
    // Read again, the same write goes through, unless the agents' availability is no longer the one assumed; it
    // answers the row's new version.
    const again = await repo.readConversationForChange(t.db, account.accountId, id);
    assert.ok(again);
    const presence = { at: new Date(), ttlSeconds: 120 };
    assert.equal(await writeOver(again, 'assumed someone', { agentAvailable: { presence, available: true } }), null);
    assert.deepEqual(await counts(), between);
    const written = await writeOver(again, 'again', { agentAvailable: { presence, available: false } });
    assert.deepEqual(written, { version: await versionOf(account.accountId, id) });
    assert.deepEqual(await counts(), { messages: between!.messages + 1, events: between!.events + 1 });
    assert.equal((await repo.findConversation(t.db, account.accountId, id))?.unread, again.conv.unread + 1);
  });

  it('writes nothing over a conversation read without a lock once its contact is being erased', async () => {
    const { account, f } = await setup();
    const { id, contact_id: contactId } = await f.conversation({ text: 'hi' });
    const read = await repo.readConversationForChange(t.db, account.accountId, id);
    assert.ok(read);
    await t.db.query('update contacts set erasing_at = now() where account_id = $1 and id = $2', [account.accountId, contactId]);
    const written = await repo.writeConversation(
      t.db,
      account.accountId,
      { ...read.conv, unread: read.conv.unread + 1 },
      read.conv,
      [],
      { at: new Date(), items: [] },
      { version: read.version },
    );
    assert.equal(written, null);
    const { rows } = await t.db.query<{ unread: number }>('select unread from conversations where account_id = $1 and id = $2', [
      account.accountId,
      id,
    ]);
    assert.deepEqual(rows, [{ unread: read.conv.unread }]);
  });

  it('writes no new conversation whose assumed availability or references no longer hold', async () => {
    const { account, f } = await setup();
    const contact = await f.contact();
    const seed = await f.conversation({ contact_id: contact.id, text: 'hi' });
    const read = await repo.readConversationForChange(t.db, account.accountId, seed.id);
    assert.ok(read);
    const presence = { at: t.clock.now(), ttlSeconds: 60 };
    const fresh = (id: string): repo.ConversationRow => ({ ...read.conv, id, ext_id: null });
    const write = (id: string, condition: repo.WriteCondition) =>
      repo.writeConversation(t.db, account.accountId, fresh(id), null, [], { at: presence.at, items: [] }, condition);
    // Nobody is available: assuming someone is writes nothing.
    assert.equal(await write('co_assumed', { references: { contactId: contact.id }, agentAvailable: { presence, available: true } }), null);
    assert.equal(await write('co_gone', { references: { contactId: 'ctnope' } }), null);
    const written = await write('co_right', { references: { contactId: contact.id }, agentAvailable: { presence, available: false } });
    assert.match(written?.version ?? '', /^\d+$/);
    const { rows } = await t.db.query<{ id: string }>('select id from conversations where account_id = $1 order by id', [
      account.accountId,
    ]);
    assert.deepEqual(rows.map((row) => row.id).sort(), ['co_right', seed.id].sort());
  });

  it('keeps at most 4,096 conversations as last written, dropping the oldest, and hands each out once', async () => {
    const { account, f } = await setup();
    const { id } = await f.conversation({ text: 'hi' });
    const read = await repo.readConversationForChange(t.db, account.accountId, id);
    assert.ok(read);
    const recent = createRecent<repo.ConversationForChange>();
    for (let i = 0; i <= 4096; i++) recent.put(account.accountId, `co_${i}`, read);
    assert.equal(recent.take(account.accountId, 'co_0'), undefined);
    assert.equal(recent.take(account.accountId, 'co_1'), read);
    assert.equal(recent.take(account.accountId, 'co_1'), undefined);
    assert.equal(recent.take('another account', 'co_4096'), undefined);
    assert.equal(recent.take(account.accountId, 'co_4096'), read);
  });

  it('hands out a conversation as last written for a minute after its write, and never later', async () => {
    const { account, f } = await setup();
    const { id } = await f.conversation({ text: 'hi' });
    const read = await repo.readConversationForChange(t.db, account.accountId, id);
    assert.ok(read);
    let now = 0;
    const recent = createRecent<repo.ConversationForChange>(() => now);
    recent.put(account.accountId, 'co_a', read);
    recent.put(account.accountId, 'co_b', read);
    now = 60_000;
    assert.equal(recent.take(account.accountId, 'co_a'), read);
    now = 60_001;
    assert.equal(recent.take(account.accountId, 'co_b'), undefined);
    // Put again, an entry is as young as its last write.
    recent.put(account.accountId, 'co_a', read);
    now = 120_001;
    assert.equal(recent.take(account.accountId, 'co_a'), read);
  });

  it('takes a message over the conversation as this instance last wrote it only while nothing else changed it', async () => {
    const { account, f } = await setup();
    const { id } = await f.conversation({ text: 'hi' });
    await f.contactSays(id, 'one');
    // Another instance's write, which this one's entry does not know of.
    await t.db.query('update conversations set unread = 40, tags = $3 where account_id = $1 and id = $2', [account.accountId, id, ['vip']]);
    await f.contactSays(id, 'two');
    const after = await f.get(id);
    assert.equal(after.unread, 41);
    assert.deepEqual(after.tags, ['vip']);
    // An agent available since the last message: the next one is judged with it, not with the entry's.
    await f.agent({ available: true });
    assert.equal((await f.contactSays(id, 'three')).is_offline, false);
    assert.equal((await f.get(id)).unread, 42);
    // Written over this instance's own last write: counted on from it.
    await f.contactSays(id, 'four');
    assert.equal((await f.get(id)).unread, 43);
    // Without reading it: the row as remembered is what the write builds on while its version holds.
    const recent = recentConversations(t.deps.db);
    const entry = recent.take(account.accountId, id);
    assert.ok(entry);
    assert.equal(entry.version, await versionOf(account.accountId, id));
    recent.put(account.accountId, id, { ...entry, conv: { ...entry.conv, unread: 99 } });
    await f.contactSays(id, 'five');
    assert.equal((await f.get(id)).unread, 100);
  });

  it('keeps a conversation this instance created without reading first as written, for its first message', async () => {
    const { account, f } = await setup();
    const contact = await f.contact();
    // The first create judges the availability; the second is written assuming it, in one statement.
    await f.conversation({ contact_id: contact.id, text: 'judged' });
    const { id } = await f.conversation({ contact_id: contact.id, text: 'assumed' });
    const recent = recentConversations(t.deps.db);
    const entry = recent.take(account.accountId, id);
    assert.ok(entry);
    assert.equal(entry.version, await versionOf(account.accountId, id));
    assert.equal(entry.agentAvailable, false);
    assert.equal(entry.conv.unread, 1);
    recent.put(account.accountId, id, { ...entry, conv: { ...entry.conv, unread: 99 } });
    assert.equal((await f.contactSays(id, 'second')).is_offline, true);
    assert.equal((await f.get(id)).unread, 100);
  });

  it('locks the row where another session could write it (PostgreSQL), not where nothing runs beside the transaction (PGlite)', async () => {
    const { account, f } = await setup();
    const { id } = await f.conversation({ text: 'hi' });
    // A row lock stamps the row with the locking transaction (xmax), which stays after the commit.
    const lockerOf = async () =>
      (
        await t.db.query<{ xmax: string }>('select xmax::text from conversations where account_id = $1 and id = $2', [
          account.accountId,
          id,
        ])
      ).rows[0]?.xmax;
    const before = await lockerOf();
    await t.db.transaction(async (tx) => {
      assert.equal(tx.alone, t.db.engine === 'pglite');
      assert.equal((await repo.lockConversation(tx, account.accountId, id))?.conv.id, id);
    });
    assert.equal((await lockerOf()) !== before, t.db.engine === 'postgres');
  });
});

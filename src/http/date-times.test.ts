import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';

// Every date-time the API accepts lies between these instants (src/http/instants.ts, docs/behaviour.md §2).
const EARLIEST = '0001-01-02T00:00:00.000Z';
const LATEST = '9999-12-30T23:59:59.999Z';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const tooEarly = (path: string) => ({
  code: 'invalid_arguments',
  message: `Invalid arguments: ${path} must not be before ${EARLIEST}`,
  errors: [{ path, code: 'formatMinimum', message: `${path} must not be before ${EARLIEST}`, location: 'body' }],
});

it('refuses imported message times before year 1 with 422 and stores nothing (they answered 500)', async () => {
  const account = await t.account();
  const f = conversationFactory(t, account);
  const api = t.client(account.token);
  const contact = await f.contact();
  const imported = (created_at: string) => ({
    contact_id: contact.id,
    messages: [{ sub_type: 'contact', content: { type: 'text', text: 'Hi' }, created_at }],
  });

  // Year 0000 (1 BC), and an offset that puts 0001-01-01 into it.
  for (const at of ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '0001-01-01T23:59:59.999Z']) {
    const refused = await api.post('/v2/conversations', imported(at));
    assert.deepEqual([refused.status, refused.body], [422, tooEarly('messages[0].created_at')], at);
  }
  const stored = async () =>
    (await t.db.query<{ n: number }>('select count(*) as n from conversations where account_id = $1', [account.accountId])).rows[0]!.n;
  assert.equal(await stored(), 0);

  const earliest = await api.post('/v2/conversations', imported(EARLIEST));
  assert.equal(earliest.status, 200);
  const read = await api.get(`/v2/conversations/${earliest.body.id}?messages=true`);
  assert.deepEqual([read.body.created_at, read.body.messages.map((m: { created_at: string }) => m.created_at)], [EARLIEST, [EARLIEST]]);

  const conversation = await f.conversation({ contact_id: contact.id, text: 'Hello' });
  const message = await api.post(`/v2/conversations/${conversation.id}/messages`, {
    sub_type: 'contact',
    text: 'Hi',
    created_at: '0000-12-31T23:00:00Z',
  });
  assert.deepEqual([message.status, message.body], [422, tooEarly('created_at')]);
  assert.equal((await api.get(`/v2/conversations/${conversation.id}?messages=true`)).body.messages.length, 1);
});

it('refuses statistics ranges outside years 1 to 9999 with 422, local ends after their resolution in the zone', async () => {
  const account = await t.account();
  const api = t.client(account.token);
  const count = (range: { from: string | null; to: string | null }, timezone = 'UTC') =>
    api.post(`/v2/statistics?timezone=${timezone}`, { x: { name: 'new_conversation', range } });

  for (const [range, timezone] of [
    [{ from: EARLIEST, to: LATEST }, 'UTC'],
    [{ from: '0001-01-02T00:00:00', to: '9999-12-30T23:59:59' }, 'UTC'],
    [{ from: '0001-01-02T10:00:00', to: null }, 'Asia/Tokyo'],
  ] as const) {
    assert.equal((await count(range, timezone)).status, 200, JSON.stringify(range));
  }

  const refused = await count({ from: '0001-01-01T23:59:59Z', to: '9999-12-31T00:00:00Z' });
  assert.equal(refused.status, 422);
  assert.deepEqual(
    refused.body.errors.map((e: { path: string; code: string; message: string }) => [e.path, e.code, e.message]),
    [
      ['x.range.from', 'formatMinimum', `x.range.from must not be before ${EARLIEST}`],
      ['x.range.to', 'formatMaximum', `x.range.to must not be after ${LATEST}`],
    ],
  );
  // Tokyo's local mean time then was 9:18:59 ahead of UTC: 0001-01-02T09:00 there is 0001-01-01T23:41:01Z. The last second
  // of 9999-12-30 in Los Angeles is 9999-12-31T07:59:59Z.
  const local = await count({ from: '0001-01-02T00:00:00', to: null }, 'Asia/Tokyo');
  assert.deepEqual([local.status, local.body.errors[0].code], [422, 'formatMinimum']);
  const late = await count({ from: null, to: '9999-12-30T23:59:59' }, 'America/Los_Angeles');
  assert.deepEqual([late.status, late.body.errors[0].code], [422, 'formatMaximum']);
});

import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './test/harness.ts';
import { conversationFactory } from './test/conversations.ts';

// Every time the API returns comes from the service's clock (deps.now()), never from the database's now():
// with the clock set far from the real time, every record made now carries the clock's time.
const CLOCK = '2024-02-03T04:05:06.789Z';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

it("stamps every record and event with the service's clock, not the database's", async () => {
  t.clock.set(CLOCK);
  try {
    const account = await t.account();
    const api = t.client(account.token);
    const f = conversationFactory(t, account);
    const ok = (res: { status: number; body: Record<string, unknown> }) => {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };

    const accountRecord = ok(await api.get('/v2/account'));
    assert.equal(accountRecord.created_at, CLOCK);
    assert.equal(accountRecord.updated_at, CLOCK);
    assert.equal(ok(await api.post('/v2/tokens', { name: 'clock', scopes: ['agents:read'] })).created_at, CLOCK);

    const contact = await f.contact();
    assert.equal(contact.created_at, CLOCK);
    assert.equal(contact.updated_at, CLOCK);
    const agent = await f.agent();
    assert.equal(agent.created_at, CLOCK);
    assert.equal((await f.group()).created_at, CLOCK);
    assert.equal((await f.tag()).created_at, CLOCK);
    const bot = ok(await api.post('/v2/bots', { name: 'Greeter', trigger: { text: 'Hello' } }));
    assert.equal(bot.created_at, CLOCK);
    assert.equal(ok(await api.get(`/v2/bots/${bot.id}/trigger`)).updated_at, CLOCK);
    assert.equal(ok(await api.post('/v2/webhooks', { url: 'https://93.184.215.14/hook' })).created_at, CLOCK);

    const conversation = ok(await api.post('/v2/conversations', { contact_id: contact.id }));
    assert.equal(conversation.updated_at, CLOCK);
    assert.equal(
      ok(await api.post(`/v2/conversations/${conversation.id}/paths`, { url: 'https://shop.example.com/cart' })).created_at,
      CLOCK,
    );
    const upload = await api.request({
      method: 'POST',
      url: '/v2/uploads?file_name=a.pdf',
      payload: 'bytes',
      headers: { 'content-type': 'application/pdf' },
    });
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    const { rows: uploads } = await t.db.query<{ created_at: Date }>('select created_at from uploads where account_id = $1', [
      account.accountId,
    ]);
    assert.deepEqual(
      uploads.map((row) => row.created_at.toISOString()),
      [CLOCK],
    );

    // Events: the contact's and conversation's, as streams and webhooks send them (their `timestamp`).
    const { rows: events } = await t.db.query<{ type: string; created_at: Date }>(
      'select type, created_at from events where account_id = $1 order by id',
      [account.accountId],
    );
    assert.ok(events.length >= 2, JSON.stringify(events));
    for (const event of events) assert.equal(event.created_at.toISOString(), CLOCK, event.type);
  } finally {
    t.clock.reset();
  }
});

it('refuses a row whose time was left to the database', async () => {
  const account = await t.account();
  // No column of these tables defaults to the database's now() any more (migration 150).
  await assert.rejects(
    t.db.query("insert into tags (account_id, id, name) values ($1, 'tgNoTime', 'no time')", [account.accountId]),
    (error: Error & { code?: string }) => error.code === '23502',
  );
});

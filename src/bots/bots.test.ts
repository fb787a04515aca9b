import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /v2/bots and GET /v2/bots/{id}/trigger', () => {
  it('creates a bot whose trigger reads back as given', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/bots', {
      name: 'Greeter',
      trigger: {
        active: false,
        event: 'page_visit',
        conditions: { url_contains: '/pricing', after_seconds: 10 },
        text: 'Hi!',
        html: 'Hi <b>there</b>!',
      },
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^bo[\w-]{12}$/);
    assert.equal(res.body.name, 'Greeter');
    assert.match(res.body.created_at, ISO);
    assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'id', 'name']);

    const trigger = await t.client(await t.token(account, ['bots:read'])).get(`/v2/bots/${res.body.id}/trigger`);
    assert.equal(trigger.status, 200);
    assert.match(trigger.body.updated_at, ISO);
    assert.deepEqual(
      { ...trigger.body, updated_at: undefined },
      {
        bot_id: res.body.id,
        name: 'Greeter',
        active: false,
        event: 'page_visit',
        conditions: { url_contains: '/pricing', after_seconds: 10 },
        content: { text: 'Hi!', html: 'Hi there!' },
        updated_at: undefined,
      },
    );
  });

  it('defaults the trigger: active, on conversation_opened, no conditions, no content', async () => {
    const account = await t.account();
    const bot = (await t.client(account.token).post('/v2/bots', { name: 'Plain' })).body;
    const trigger = (await t.client(account.token).get(`/v2/bots/${bot.id}/trigger`)).body;
    assert.equal(trigger.active, true);
    assert.equal(trigger.event, 'conversation_opened');
    assert.deepEqual(trigger.conditions, {});
    assert.deepEqual(trigger.content, { text: null, html: null });
  });

  it('sanitises trigger HTML and derives the text from it when none is given', async () => {
    const account = await t.account();
    const bot = (
      await t.client(account.token).post('/v2/bots', {
        name: 'Linker',
        trigger: { html: '<script>alert(1)</script><a href="https://example.com" onclick="x()">Docs</a><br><i>now</i>' },
      })
    ).body;
    const { content } = (await t.client(account.token).get(`/v2/bots/${bot.id}/trigger`)).body;
    assert.doesNotMatch(content.html, /script|onclick|<i>/);
    assert.match(content.html, /<a href="https:\/\/example\.com"[^>]*>Docs<\/a>/);
    assert.match(content.text, /Docs/);
    assert.doesNotMatch(content.text, /alert|</);
  });

  it('takes the message as `content`, so a trigger read can be sent back as it is', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const first = (
      await client.post('/v2/bots', {
        name: 'Original',
        trigger: { event: 'idle', conditions: { after_seconds: 30 }, html: 'Still there? <a href="https://help.example">Help</a>' },
      })
    ).body;
    const { bot_id, name, updated_at, ...settings } = (await client.get(`/v2/bots/${first.id}/trigger`)).body;
    assert.deepEqual([bot_id, name, typeof updated_at], [first.id, 'Original', 'string']);
    assert.equal(settings.content.text, 'Still there? Help');

    const copy = await client.post('/v2/bots', { name: 'Copy', trigger: settings });
    assert.equal(copy.status, 200, JSON.stringify(copy.body));
    const read = (await client.get(`/v2/bots/${copy.body.id}/trigger`)).body;
    assert.deepEqual(
      { ...read, bot_id: undefined, name: undefined, updated_at: undefined },
      { ...settings, bot_id: undefined, name: undefined, updated_at: undefined },
    );

    const htmlOnly = await client.post('/v2/bots', { name: 'Html only', trigger: { content: { html: 'Hi <b>you</b>' } } });
    assert.deepEqual((await client.get(`/v2/bots/${htmlOnly.body.id}/trigger`)).body.content, { text: 'Hi you', html: 'Hi you' });
  });

  it('refuses `content` together with the flat `text` or `html` (422 oneOf) and a content with other properties', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const cases: [unknown, [string, string][]][] = [
      [{ content: { text: 'a' }, text: 'b' }, [['trigger.content', 'oneOf']]],
      [{ content: { text: null, html: null }, html: null }, [['trigger.content', 'oneOf']]],
      [{ content: { text: 'a', markdown: '*a*' } }, [['trigger.content.markdown', 'additionalProperties']]],
      [{ content: 'a' }, [['trigger.content', 'type']]],
    ];
    for (const [trigger, expected] of cases) {
      const res = await client.post('/v2/bots', { name: 'x', trigger });
      assert.equal(res.status, 422, JSON.stringify(trigger));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
    assert.deepEqual((await client.get('/v2/bots')).body, { bots: [] });
  });

  it('lists the bots of the account only', async () => {
    const account = await t.account();
    const other = await t.account();
    await t.client(other.token).post('/v2/bots', { name: 'Theirs' });
    const a = (await t.client(account.token).post('/v2/bots', { name: 'A' })).body;
    const b = (await t.client(account.token).post('/v2/bots', { name: 'B' })).body;
    const res = await t.client(account.token).get('/v2/bots');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { bots: [a, b] });
  });

  it('rejects bad bodies precisely and creates nothing', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const cases: [unknown, [string, string][]][] = [
      [{}, [['name', 'required']]],
      [{ name: 'x', trigger: { event: 'sunrise' } }, [['trigger.event', 'enum']]],
      [{ name: 'x', trigger: { active: 'yes' } }, [['trigger.active', 'type']]],
      [{ name: 'x', trigger: { conditions: [] } }, [['trigger.conditions', 'type']]],
      [{ name: 'x', trigger: { text: 5 } }, [['trigger.text', 'type']]],
      [{ name: 'x', trigger: { delay: 5 } }, [['trigger.delay', 'additionalProperties']]],
    ];
    for (const [body, expected] of cases) {
      const res = await client.post('/v2/bots', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
    assert.deepEqual((await client.get('/v2/bots')).body, { bots: [] });
  });

  it('refuses text the database cannot store (an unpaired surrogate) with 422, also inside the free-form conditions', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const payloads: [string, string][] = [
      ['{"name":"x","trigger":{"conditions":{"greeting":"\\ud800"}}}', 'trigger.conditions.greeting'],
      ['{"name":"x","trigger":{"conditions":{"\\udc00":1}}}', 'trigger.conditions.\udc00'],
      ['{"name":"bot \\udfff"}', 'name'],
    ];
    for (const [payload, path] of payloads) {
      const res = await client.request({
        method: 'POST',
        url: '/v2/bots',
        payload,
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      });
      assert.equal(res.status, 422, payload);
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [[path, 'pattern']],
      );
    }
    assert.deepEqual((await client.get('/v2/bots')).body, { bots: [] });
  });

  it("answers an unknown or another account's bot as 404 naming the bot", async () => {
    const account = await t.account();
    const other = await t.account();
    const theirs = (await t.client(other.token).post('/v2/bots', { name: 'Theirs' })).body;
    for (const id of [theirs.id, 'boDoesNotExist']) {
      const res = await t.client(account.token).get(`/v2/bots/${id}/trigger`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { code: 'not_found', message: `Bot ${id} not found` });
    }
  });

  it('needs bots:read for the trigger and account:manage for management', async () => {
    const account = await t.account();
    const bot = (await t.client(account.token).post('/v2/bots', { name: 'B' })).body;
    const manageOnly = await t.token(account, ['account:manage']);
    const readOnly = await t.token(account, ['bots:read']);
    const trigger = await t.client(manageOnly).get(`/v2/bots/${bot.id}/trigger`);
    assert.equal(trigger.status, 403);
    assert.deepEqual(trigger.body, { code: 'forbidden', message: 'Missing scope bots:read' });
    const create = await t.client(readOnly).post('/v2/bots', { name: 'C' });
    assert.equal(create.status, 403);
    assert.deepEqual(create.body, { code: 'forbidden', message: 'Missing scope account:manage' });
  });
});

describe('DELETE /v2/bots/{id}', () => {
  it('deletes the bot with its trigger, then answers 404; another account’s bot is not found and stays', async () => {
    const account = await t.account();
    const other = await t.account();
    const client = t.client(account.token);
    const kept = (await client.post('/v2/bots', { name: 'Kept' })).body;
    const doomed = (await client.post('/v2/bots', { name: 'Doomed' })).body;
    const theirs = (await t.client(other.token).post('/v2/bots', { name: 'Theirs' })).body;

    const res = await client.delete(`/v2/bots/${doomed.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.deepEqual((await client.get('/v2/bots')).body, { bots: [kept] });
    assert.equal((await client.get(`/v2/bots/${doomed.id}/trigger`)).status, 404);
    assert.deepEqual((await client.delete(`/v2/bots/${doomed.id}`)).body, { code: 'not_found', message: `Bot ${doomed.id} not found` });

    assert.equal((await client.delete(`/v2/bots/${theirs.id}`)).status, 404);
    assert.equal((await t.client(other.token).get(`/v2/bots/${theirs.id}/trigger`)).status, 200);
  });

  it('needs account:manage', async () => {
    const account = await t.account();
    const bot = (await t.client(account.token).post('/v2/bots', { name: 'B' })).body;
    const res = await t.client(await t.token(account, ['bots:read'])).delete(`/v2/bots/${bot.id}`);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    assert.equal((await t.client(account.token).get(`/v2/bots/${bot.id}/trigger`)).status, 200);
  });
});

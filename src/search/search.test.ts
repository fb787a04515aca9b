import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import { snippetOf } from './presenter.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const search = async (token: string, body: Json) => t.client(token).post('/v2/conversations/search', body);
const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((item) => item.id);

describe('POST /v2/conversations/search', () => {
  it('lists the account’s conversations, newest change first, page by page with cursors', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.set(`2026-03-0${i + 1}T10:00:00.000Z`);
      created.push((await f.conversation({ text: `hello ${i}` })).id);
    }
    t.clock.reset();
    // Another account's conversation is never listed.
    await conversationFactory(t, await t.account()).conversation({ text: 'hello' });
    const token = await t.token(account, ['conversations:read']);
    const first = await search(token, { size: 2 });
    assert.equal(first.status, 200);
    assert.deepEqual(ids(first), [created[4], created[3]]);
    assert.equal(typeof first.body.after, 'string');
    assert.equal(first.body.items[0].snippet, undefined);
    const second = await search(token, { size: 2, after: first.body.after });
    assert.deepEqual(ids(second), [created[2], created[1]]);
    // A new conversation arriving meanwhile does not move the pages.
    await f.conversation({ text: 'new' });
    const third = await search(token, { size: 2, after: second.body.after });
    assert.deepEqual(ids(third), [created[0]]);
    assert.equal(third.body.after, null);
    const byCreation = await search(token, { sort: 'created_at', size: 10 });
    assert.equal(byCreation.body.items.length, 6);
  });

  it('applies every filter given', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const agent = await f.agent();
    const group = await f.group();
    const tag = await f.tag();
    const contact = await f.contact();
    const pending = await f.conversation();
    const open = await f.conversation({ text: 'waiting', group_id: group.id, tags: [tag.id] });
    const served = await f.conversation({ text: 'hi', contact_id: contact.id });
    await f.assign(served.id, agent.id);
    const closed = await f.conversation({ text: 'bye' });
    await f.close(closed.id);
    const token = await t.token(account, ['conversations:read']);
    const find = async (body: Json) => {
      const res = await search(token, { ...body, size: 100 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return ids(res).sort();
    };
    assert.deepEqual(await find({ status: ['open', 'pending'] }), [pending.id, open.id].sort());
    assert.deepEqual(await find({ assigned: [agent.id] }), [served.id]);
    assert.deepEqual(await find({ assigned: null, status: ['open'] }), [open.id]);
    assert.deepEqual(await find({ group_id: group.id }), [open.id]);
    assert.deepEqual(await find({ group_id: null }), [pending.id, served.id, closed.id].sort());
    assert.deepEqual(await find({ contact_id: contact.id }), [served.id]);
    assert.deepEqual(await find({ tags: [tag.id, 'tgUnknown'] }), [open.id]);
    assert.deepEqual(await find({ unread: true }), [open.id, served.id, closed.id].sort());
    assert.deepEqual(await find({ unread: false }), [pending.id]);
    assert.deepEqual(await find({ created_at: { from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' } }), []);
    assert.deepEqual(await find({ updated_at: { from: pending.created_at, to: '9999-01-01T00:00:00Z' } }), await find({}));
    // Ids of another account find nothing.
    const other = conversationFactory(t, await t.account());
    const foreign = await other.conversation({ text: 'x' });
    assert.deepEqual(await find({ contact_id: foreign.contact_id }), []);
  });

  it('finds words in messages and the contact’s name and e-mail, without diacritics, with a snippet', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const czech = await f.conversation({ text: 'Dobrý den, příliš žluťoučký kůň úpěl ďábelské ódy. Chci vrátit peníze za objednávku.' });
    const other = await f.conversation({ text: 'Nothing to see here' });
    const byName = await f.conversation({
      text: 'hello',
      contact_id: (await f.contact({ name: 'Jiří Novák', email: 'jiri.novak@example.cz' })).id,
    });
    const token = await t.token(account, ['conversations:read']);
    const res = await search(token, { query: 'prilis' });
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res), [czech.id]);
    const { snippet } = res.body.items[0];
    const chars = [...snippet.text];
    assert.deepEqual(
      snippet.matches.map(([start, end]: [number, number]) => chars.slice(start, end).join('')),
      ['příliš'],
    );
    assert.ok(!snippet.text.includes('<'));
    // Case, several words (all must match), phrases.
    assert.deepEqual(ids(await search(token, { query: 'VRÁTIT penize' })), [czech.id]);
    assert.deepEqual(ids(await search(token, { query: 'vratit nothing' })), []);
    assert.deepEqual(ids(await search(token, { query: '"zlutoucky kun"' })), [czech.id]);
    assert.deepEqual(ids(await search(token, { query: 'vratit or nothing', sort: 'created_at' })), [other.id, czech.id]);
    // The contact: name without diacritics, e-mail whole or by its parts; no snippet then.
    for (const query of ['novak', 'Jiri', 'jiri.novak@example.cz', 'example']) {
      const found = await search(token, { query });
      assert.deepEqual(ids(found), [byName.id], query);
      assert.equal(found.body.items[0].snippet, null);
    }
    // Another account's words are not found.
    assert.deepEqual(ids(await search(await t.token(await t.account(), ['conversations:read']), { query: 'prilis' })), []);
  });

  it('treats operator text as words: no tsquery injection, never a 500', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const conv = await f.conversation({ text: 'alpha beta gamma' });
    const token = await t.token(account, ['conversations:read']);
    for (const query of [
      'a & !b | c:*',
      "'",
      '\\',
      '!!!',
      '&',
      '(alpha',
      'alpha:*',
      '-',
      '""',
      'or',
      ' ',
      'x'.repeat(256),
      '<b>alpha</b>',
    ]) {
      const res = await search(token, { query });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(ids(await search(token, { query: 'alpha & !beta' })), [conv.id]);
    assert.deepEqual(ids(await search(token, { query: 'alpha -beta' })), []);
    assert.deepEqual(ids(await search(token, { query: '(alpha:*)' })), [conv.id]);
  });

  it('sorts by relevance and pages with the relevance cursor', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const weak = await f.conversation({ text: 'refund maybe later, lots of other words here to dilute the match' });
    const strong = await f.conversation({ text: 'refund refund refund' });
    const token = await t.token(account, ['conversations:read']);
    const first = await search(token, { query: 'refund', sort: 'relevance', size: 1 });
    assert.deepEqual(ids(first), [strong.id]);
    const second = await search(token, { query: 'refund', sort: 'relevance', size: 1, after: first.body.after });
    assert.deepEqual(ids(second), [weak.id]);
    assert.equal(second.body.after, null);
  });

  it('refuses bad input with 422 invalid_arguments naming the field', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    await f.conversation({ text: 'one' });
    await f.conversation({ text: 'two' });
    const token = await t.token(account, ['conversations:read']);
    const page = await search(token, { size: 1 });
    const cases: [Json, string, string][] = [
      [{ colour: 'red' }, 'colour', 'additionalProperties'],
      [{ status: ['lost'] }, 'status[0]', 'enum'],
      [{ size: 101 }, 'size', 'maximum'],
      [{ query: 'x'.repeat(257) }, 'query', 'maxLength'],
      [{ created_at: { from: 'yesterday' } }, 'created_at.from', 'format'],
      [{ sort: 'relevance' }, 'sort', 'dependentRequired'],
      [{ after: 'garbage' }, 'after', 'cursor'],
      [{ after: Buffer.from('[1,2,3]').toString('base64url') }, 'after', 'cursor'],
      // A cursor of another query, or of another account.
      [{ size: 1, after: page.body.after, status: ['open'] }, 'after', 'cursor'],
      [{ size: 1, after: page.body.after, sort: 'created_at' }, 'after', 'cursor'],
    ];
    for (const [body, path, code] of cases) {
      const res = await search(token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: Json) => [e.path, e.code]),
        [[path, code]],
        JSON.stringify(body),
      );
    }
    const stranger = await t.account();
    const foreign = await search(await t.token(stranger, ['conversations:read']), { size: 1, after: page.body.after });
    assert.equal(foreign.status, 422);
    assert.equal(foreign.body.errors[0].path, 'after');
    // The same query pages on (size may change between pages).
    assert.equal((await search(token, { size: 5, after: page.body.after })).status, 200);
    // Scope.
    assert.equal((await search(await t.token(account, ['contacts:read']), {})).status, 403);
  });
});

describe('snippetOf', () => {
  it('turns marks into code point offsets', () => {
    assert.deepEqual(snippetOf('a \u0001😀b\u0002 c \u0001d\u0002'), {
      text: 'a 😀b c d',
      matches: [
        [2, 4],
        [7, 8],
      ],
    });
    assert.deepEqual(snippetOf('  \u0001x\u0002 '), { text: 'x', matches: [[0, 1]] });
  });
});

/**
 * The typed client (clients/typescript): its generated types match the document the
 * server serves, and it works against the real server listening on a port. `tsc`
 * checks this file against those types, so a wrong path or body here fails the build.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestAccount, type TestApp } from '../../src/test/harness.ts';
import { listen } from '../../src/test/browser.ts';
import { SCHEMA_FILE, clientSchema } from './generate.ts';
import { createChatClient, type ChatClient, type Schemas } from './index.ts';

let t: TestApp;
let account: TestAccount;
let chat: ChatClient;
before(async () => {
  t = await startTestApp();
  account = await t.account();
  chat = createChatClient(await listen(t), account.token);
});
after(() => t.close());

describe('the TypeScript client', () => {
  it('has types generated from the document the server serves (run `npm run client:generate` after an API change)', async () => {
    const served = (await t.client().get('/v2/openapi.json')).body;
    assert.ok(
      readFileSync(SCHEMA_FILE, 'utf8') === (await clientSchema(served)),
      'clients/typescript/schema.d.ts is stale: npm run client:generate',
    );
  });

  it('creates a contact and a conversation, reads it back and reads statistics, over HTTP', async () => {
    const contact = await chat.POST('/v2/contacts', { body: { name: 'Ada', email: 'ada@example.com' } });
    assert.equal(contact.response.status, 200);
    assert.ok(contact.data, JSON.stringify(contact.error));
    const contactId: string = contact.data.id;

    const created = await chat.POST('/v2/conversations', { body: { contact_id: contactId, text: 'Hello from the typed client' } });
    assert.ok(created.data, JSON.stringify(created.error));
    const conversation = created.data;
    assert.equal(conversation.contact_id, contactId);

    const read = await chat.GET('/v2/conversations/{id}', { params: { path: { id: conversation.id }, query: { messages: true } } });
    assert.ok(read.data, JSON.stringify(read.error));
    assert.equal(read.data.id, conversation.id);
    assert.deepEqual(
      read.data.messages?.map((message: Schemas['message']) => message.content.text),
      ['Hello from the typed client'],
    );

    // timezone has a default: the client may leave the query out.
    const day = new Date().toISOString().slice(0, 10);
    const stats = await chat.POST('/v2/statistics', {
      body: { opened: { name: 'new_conversation', range: { from: `${day}T00:00:00`, to: `${day}T23:59:59` } } },
    });
    const opened = stats.data?.opened;
    assert.ok(opened, JSON.stringify(stats.error));
    assert.deepEqual({ value: opened.value, count: opened.count }, { value: 1, count: 1 });
  });

  it('answers errors as error_payload, typed', async () => {
    const missing = await chat.GET('/v2/conversations/{id}', { params: { path: { id: 'nope' } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.data, undefined);
    assert.equal(missing.error?.code, 'not_found');
  });

  it('rejects, at compile time, a new conversation with both text and messages', async () => {
    const body = {
      contact_id: 'any',
      text: 'one message',
      messages: [{ sub_type: 'contact' as const, content: { type: 'text' as const, text: 'imported' } }],
    };
    // @ts-expect-error text/html and messages are exclusive (the document's oneOf)
    const both = await chat.POST('/v2/conversations', { body });
    // The server refuses it too.
    assert.equal(both.response.status, 422);
  });
});

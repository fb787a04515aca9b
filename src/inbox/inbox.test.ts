/**
 * The agent inbox: its static files over HTTP, then the page in a real Chromium against the real server listening on
 * a port. The visitor is played here through the /v2 API (a contact's messages), the agent in the browser; every
 * change the agent makes is checked in the API, and everything the visitor does must reach the page live.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, waitUntil, type TestAccount, type TestApp } from '../test/harness.ts';
import { launchBrowser, listen, screenshot, skipWithoutBrowser } from '../test/browser.ts';
import type { Scope } from '../auth/scopes.ts';

/** What the inbox needs (docs/inbox.md): no more. */
const INBOX_SCOPES: Scope[] = [
  'agents:read',
  'agents:manage',
  'contacts:read',
  'conversations:read',
  'conversations:write',
  'conversations:create',
  'events:read',
  'statistics:read',
];

let t: TestApp;
let base: string;

before(async () => {
  t = await startTestApp();
  base = await listen(t);
});
after(() => t.close());

describe('static files', () => {
  it('serves the page without a token, with ETag, no-cache and a same-origin CSP that allows blob: images', async () => {
    const page = await t.client().get('/inbox');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.match(String(page.headers.etag), /^"[\w-]{27}"$/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'.*img-src 'self' data: blob:.*connect-src 'self'.*form-action 'none'/);
    assert.match(page.body, /<title>Inbox · chat-service<\/title>/);
    const again = await t.client().request({ method: 'GET', url: '/inbox', headers: { 'if-none-match': String(page.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('serves every module the page imports, and 404 not_found for anything else', async () => {
    const seen = new Set<string>();
    const queue = ['/inbox/app.js', '/inbox/base.css', '/inbox/inbox.css'];
    while (queue.length > 0) {
      const url = queue.shift() as string;
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await t.client().get(url);
      assert.equal(res.status, 200, url);
      for (const [, imported] of String(res.body).matchAll(/from '\.\/([\w.-]+)'/g)) queue.push(`/inbox/${imported}`);
    }
    assert.deepEqual([...seen].sort(), ['/inbox/api.js', '/inbox/app.js', '/inbox/base.css', '/inbox/inbox.css', '/inbox/model.js']);
    const missing = await t.client().get('/inbox/routes.ts');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'Inbox file routes.ts not found');
  });
});

describe('the inbox in Chromium', { skip: skipWithoutBrowser }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: TestAccount;
  let token: string;
  let ann: { id: string };
  let bob: { id: string };
  let sales: { id: string };
  let vip: { id: string };
  let jane: { id: string };
  let chat: string;
  const problems: string[] = [];
  /** The server's end of every event stream the page opened. */
  const streamSockets: Socket[] = [];
  /** Streams the test cut: each leaves Chromium's console error for the truncated response, expected once. */
  let streamsCut = 0;

  const api = () => t.client(account.token);
  /** The visitor writes, as the widget would: a contact message. */
  const visitorSays = async (conversationId: string, text: string) => {
    const res = await api().post(`/v2/conversations/${conversationId}/messages`, { sub_type: 'contact', text });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const row = (id: string) => page.locator(`.conversations [data-id="${id}"]`);
  const messageCount = (text: string) => page.locator('#messages .body', { hasText: text }).count();

  before(async () => {
    account = await t.account();
    token = await t.token(account, INBOX_SCOPES);
    ann = (await api().post('/v2/agents', { email: 'ann@example.com', nickname: 'Ann' })).body;
    bob = (await api().post('/v2/agents', { email: 'bob@example.com', nickname: 'Bob' })).body;
    sales = (await api().post('/v2/groups', { name: 'Sales' })).body;
    vip = (await api().post('/v2/tags', { name: 'VIP' })).body;
    jane = (await api().post('/v2/contacts', { name: 'Jane Doe', email: 'jane@example.com', phone: '+420 777 123 456' })).body;
    const earlier = await api().post('/v2/conversations', { contact_id: jane.id, text: 'An earlier question' });
    await api().patch(`/v2/conversations/${earlier.body.id}/close`);
    t.app.server.on('request', (request: IncomingMessage) => {
      if (request.url?.startsWith('/v2/events')) streamSockets.push(request.socket);
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    await context.grantPermissions(['notifications'], { origin: base });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/^Failed to load resource: the server responded with a status of (401|403)/.test(message.text())) return;
      if (message.text().endsWith('net::ERR_INCOMPLETE_CHUNKED_ENCODING') && streamsCut > 0) return void (streamsCut -= 1);
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${base}/inbox`);
  });
  after(async () => {
    await browser?.close();
  });

  it('signs in with a token kept for the tab, lets the person choose their agent, and keeps that agent present', async () => {
    await page.fill('#token', 'cs_not_a_token');
    await page.press('#token', 'Enter');
    await page.locator('#sign-in-error', { hasText: 'unknown or has been revoked' }).waitFor();
    await page.fill('#token', token);
    await page.press('#token', 'Enter');
    await page.selectOption('#agent', ann.id);
    await page.click('#agent-form button');
    await page.locator('#connection', { hasText: 'Live' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('chat-service.inbox.token')), token);
    assert.equal(await page.textContent('#me'), 'Signed in as Ann');
    const agent = await api().get(`/v2/agents/${ann.id}`);
    assert.equal(agent.body.is_connected, true);
    await page.selectOption('#status', 'online');
    await waitUntil(async () => (await api().get(`/v2/agents/${ann.id}`)).body.status === 'online');
    assert.equal(await page.getAttribute('#tab-unassigned', 'aria-selected'), 'true');
  });

  it('shows a new chat in Unassigned without a reload, with the contact, the last message, the time and the unread count', async () => {
    const created = await api().post('/v2/conversations', {
      contact_id: jane.id,
      text: 'Hi, where is my order?',
      variables: { plan: 'pro', order: 1042 },
      tags: [vip.id],
    });
    chat = created.body.id;
    await row(chat).waitFor();
    await visitorSays(chat, 'It was due yesterday.');
    await row(chat).locator('.badge', { hasText: '2' }).waitFor();
    assert.equal(await row(chat).locator('.name').textContent(), 'Jane Doe');
    assert.equal(await row(chat).locator('.last').textContent(), 'It was due yesterday.');
    assert.match(
      (await row(chat).getAttribute('aria-label')) ?? '',
      /^New:, Jane Doe, It was due yesterday\., at \d{1,2}:\d\d( [AP]M)?, 2 unanswered$/,
    );
    assert.equal(await page.locator('.conversations [data-id]').count(), 1, 'the closed earlier chat is not in Unassigned');
    await screenshot(page, 'inbox-list', false);
  });

  it('opens the thread with the contact, the variables, the earlier conversations, and marks it read', async () => {
    await row(chat).click();
    await page.locator('#messages .body', { hasText: 'It was due yesterday.' }).waitFor();
    assert.equal(await page.textContent('#thread-title'), 'Jane Doe');
    await page.locator('#contact dd', { hasText: 'jane@example.com' }).waitFor();
    assert.deepEqual(await page.locator('#variables dt').allTextContents(), ['plan', 'order']);
    await page.locator('#history button', { hasText: 'An earlier question' }).waitFor();
    await waitUntil(async () => !(await row(chat).getAttribute('class'))?.includes('new'));
    assert.equal(await row(chat).getAttribute('aria-current'), 'true');
  });

  it('sends the agent typing signal, assigns the chat to the agent (out of Unassigned, into Mine)', async () => {
    await page.fill('#reply', 'Let me check');
    await waitUntil(async () => (await typingEvents()).some((data) => data.agent_id === ann.id && data.is_typing === true));
    await page.fill('#reply', '');
    await page.click('#assign-me');
    await waitUntil(async () => (await api().get(`/v2/conversations/${chat}`)).body.assigned_ids.includes(ann.id));
    await row(chat).waitFor({ state: 'detached' });
    await page.locator('#messages .event', { hasText: 'Ann took the chat' }).waitFor();
    await page.click('#tab-mine');
    await row(chat).waitFor();
  });

  it('replies with a link once, whether the stream or the answer comes first; notes stay internal', async () => {
    await page.fill('#reply', 'It ships today: https://track.example.com/1042 — sorry!');
    await page.press('#reply', 'Enter');
    const link = page.locator('#messages a[href="https://track.example.com/1042"]');
    await link.waitFor();
    // The event of the same message arrives too: wait until the list row shows it, then count.
    await row(chat).locator('.last', { hasText: 'It ships today' }).waitFor();
    await page.waitForTimeout(300);
    assert.equal(await messageCount('It ships today'), 1);
    const messages = (await api().get(`/v2/conversations/${chat}/messages`)).body.items;
    assert.equal(messages[0].sub_type, 'agent');
    assert.equal(messages[0].agent_id, ann.id);
    assert.match(messages[0].content.html, /<a href="https:\/\/track\.example\.com\/1042"/);
    assert.equal(messages[0].is_reply, true);

    await page.check('#note');
    await page.fill('#reply', 'Customer is VIP, be nice');
    await page.press('#reply', 'Enter');
    await page.locator('#messages .note', { hasText: 'Customer is VIP' }).waitFor();
    assert.match((await page.locator('#messages .note .author').textContent()) ?? '', /Internal note by Ann/);
    await page.uncheck('#note');
    const note = (await api().get(`/v2/conversations/${chat}/messages`)).body.items[0];
    assert.equal(note.type, 'note');
  });

  it('attaches a file through the upload interface', async () => {
    await page.setInputFiles('#file', { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 invoice') });
    await page.locator('#pending-files li', { hasText: 'invoice.pdf' }).waitFor();
    await page.fill('#reply', 'Your invoice');
    await page.press('#reply', 'Enter');
    await page.locator('#messages .file', { hasText: 'invoice.pdf' }).waitFor();
    const sent = (await api().get(`/v2/conversations/${chat}/messages`)).body.items[0];
    assert.equal(sent.attachments[0].type, 'upload');
    assert.equal(sent.attachments[0].file_name, 'invoice.pdf');
    assert.equal(await page.locator('#pending-files li').count(), 0);
  });

  it('shows the visitor’s messages live and announces them in the live region', async () => {
    await visitorSays(chat, 'Thank you!');
    await page.locator('#messages .body', { hasText: 'Thank you!' }).waitFor();
    await page.locator('#announcer', { hasText: 'Jane Doe: Thank you!' }).waitFor();
    await screenshot(page, 'inbox-thread', false);
  });

  it('shows a banner when the stream drops and catches up on reconnect with nothing lost or doubled', async () => {
    // Cut the page's event stream where the server holds it, as a network failure would (Chromium's offline
    // emulation and request routing leave a response already streaming alone).
    for (const socket of streamSockets.splice(0)) {
      socket.destroy();
      streamsCut += 1;
    }
    await page.locator('#banner', { hasText: 'Reconnecting' }).waitFor();
    for (const text of ['Missed one', 'Missed two', 'Missed three']) await visitorSays(chat, text);
    await page.locator('#banner').waitFor({ state: 'hidden', timeout: 10000 });
    await page.locator('#messages .body', { hasText: 'Missed three' }).waitFor();
    for (const text of ['Missed one', 'Missed two', 'Missed three', 'Thank you!']) assert.equal(await messageCount(text), 1, text);
  });

  it('pages older messages in when the thread is scrolled to the top', async () => {
    // The stream is held while an imported history is written and its thread opened, then let go: its 76 events
    // arrive on an open thread, and must not show the older messages ahead of paging nor out of order.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v2/events**', async (route) => {
      await held;
      // A request the page gave up on while it was held cannot go on; its retry is held too.
      await route.continue().catch(() => undefined);
    });
    for (const socket of streamSockets.splice(0)) {
      socket.destroy();
      streamsCut += 1;
    }
    await page.locator('#banner', { hasText: 'Reconnecting' }).waitFor();
    const start = Date.now() - 80_000;
    const long = await api().post('/v2/conversations', {
      contact_id: jane.id,
      messages: Array.from({ length: 75 }, (_, i) => ({
        sub_type: 'contact',
        content: { text: `History ${i + 1}` },
        created_at: new Date(start + i * 1000).toISOString(),
      })),
    });
    await page.click('#tab-open');
    await row(long.body.id).click();
    await page.locator('#messages .body', { hasText: 'History 75' }).waitFor();
    assert.equal(await page.locator('#messages .message').count(), 30);
    release();
    await page.locator('#banner').waitFor({ state: 'hidden', timeout: 10000 });
    // Only once the held requests went on: unrouting first would continue them itself, under the handlers' feet.
    await page.unroute('**/v2/events**');
    await visitorSays(long.body.id, 'After the history');
    await page.locator('#messages .body', { hasText: 'After the history' }).waitFor();
    const shown = await page.locator('#messages .message .body').allTextContents();
    assert.deepEqual(shown, [...Array.from({ length: 30 }, (_, i) => `History ${i + 46}`), 'After the history']);
    for (let i = 0; i < 5 && (await page.locator('#messages .message').count()) < 76; i++) {
      await page.evaluate(() => (document.getElementById('messages') as HTMLElement).scrollTo(0, 0));
      await page.waitForTimeout(200);
    }
    assert.deepEqual(await page.locator('#messages .message .body').allTextContents(), [
      ...Array.from({ length: 75 }, (_, i) => `History ${i + 1}`),
      'After the history',
    ]);
  });

  it('moves between conversations with j and k, transfers to a group, filters by group and tag, and searches', async () => {
    await page.locator('#messages').focus();
    const ids = await page.locator('.conversations [data-id]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id));
    assert.ok(ids.length >= 2);
    await page.keyboard.press('k');
    await page.locator(`.conversations [data-id="${ids[0]}"][aria-current="true"]`).waitFor();
    await page.keyboard.press('j');
    await page.locator(`.conversations [data-id="${ids[1]}"][aria-current="true"]`).waitFor();
    await row(chat).click();
    await page.selectOption('#transfer-agent', bob.id);
    await waitUntil(async () => (await api().get(`/v2/conversations/${chat}`)).body.assigned_ids.includes(bob.id));
    await page.selectOption('#transfer-group', sales.id);
    await waitUntil(async () => (await api().get(`/v2/conversations/${chat}`)).body.group_id === sales.id);
    await page.selectOption('#group-filter', sales.id);
    await waitUntil(async () => (await page.locator('.conversations [data-id]').count()) === 1);
    await page.selectOption('#group-filter', '');
    await page.selectOption('#tag-filter', vip.id);
    await waitUntil(async () => (await page.locator('.conversations [data-id]').count()) === 1);
    assert.equal(await page.locator('.conversations [data-id]').first().getAttribute('data-id'), chat);
    await page.selectOption('#tag-filter', '');
    await page.fill('#search', 'History 42');
    await waitUntil(async () => (await page.locator('.conversations [data-id]').count()) === 1 && !(await row(chat).count()));
    await page.fill('#search', '');
    await row(chat).waitFor();
  });

  it('notifies with a desktop notification while the tab is hidden, once opted in', async () => {
    // A recording Notification (a string: tsx would add helpers the page lacks to a class written here).
    await page.evaluate(`{
      window.shown = [];
      const Real = window.Notification;
      window.Notification = class extends Real {
        constructor(title, options) { super(title, options); window.shown.push(title); }
      };
    }`);
    await page.check('#notify');
    assert.equal(await page.evaluate(() => localStorage.getItem('chat-service.inbox.notify')), '1');
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' })`);
    await visitorSays(chat, 'Are you there?');
    await waitUntil(async () => ((await page.evaluate('window.shown')) as string[]).includes('Message from Jane Doe'));
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' })`);
  });

  it('closes with the c shortcut (into Closed), and works 800 pixels wide', async () => {
    await row(chat).click();
    await page.locator('#messages').focus();
    await page.keyboard.press('c');
    await waitUntil(async () => (await api().get(`/v2/conversations/${chat}`)).body.status === 'closed');
    await page.click('#tab-closed');
    await row(chat).waitFor();
    await page.setViewportSize({ width: 800, height: 900 });
    await row(chat).click();
    assert.equal(await page.isVisible('#details'), false);
    await screenshot(page, 'inbox-800', false);
    await page.click('#details-toggle');
    assert.equal(await page.isVisible('#details'), true);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 800), 'nothing wider than the window');
    await page.click('#details-toggle');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('keeps a chat that opened while its tab was being read, when the older answer comes after the event', async () => {
    // The search is read now and answered only after the chat's event arrived, as a slow search (or one on a
    // replica) would be: the page must not drop what the event brought.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let read = (): void => undefined;
    const searched = new Promise<void>((resolve) => (read = resolve));
    await page.route('**/v2/conversations/search', async (route) => {
      const response = await route.fetch();
      read();
      await held;
      await route.fulfill({ response });
    });
    await page.click('#tab-unassigned');
    await searched;
    const late = await api().post('/v2/conversations', { contact_id: jane.id, text: 'Opened during the search' });
    await row(late.body.id).waitFor();
    release();
    await page.waitForFunction(() => document.getElementById('conversations')?.getAttribute('aria-busy') === 'false');
    await page.unroute('**/v2/conversations/search');
    assert.equal(await row(late.body.id).count(), 1);
    assert.equal(await row(late.body.id).locator('.last').textContent(), 'Opened during the search');
  });

  it('signs out: the agent offline, the token forgotten', async () => {
    await page.click('#sign-out');
    await page.locator('#sign-in-form').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.equal((await api().get(`/v2/agents/${ann.id}`)).body.status, 'offline');
    assert.deepEqual(problems, []);
  });

  async function typingEvents(): Promise<Array<{ agent_id: string; is_typing: boolean }>> {
    const { rows } = await t.db.query<{ data: { agent_id: string; is_typing: boolean } }>(
      `select data from events where account_id = $1 and type = 'conversation.agent_typing' order by id`,
      [account.accountId],
    );
    return rows.map((r) => r.data);
  }
});

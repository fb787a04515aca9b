/**
 * The chat widget (issue 25 §2, §3): its script over HTTP (headers, caching, size), then the widget itself in a
 * real Chromium on a host page of another origin under a strict Content-Security-Policy, chatting with an agent
 * who answers through the /v2 API.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createHmac } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { launchBrowser, listen, screenshot, skipWithoutBrowser } from '../test/browser.ts';
import { conversationFactory, type ConversationFactory, type Json } from '../test/conversations.ts';
import { startHostPage, type HostPage } from '../test/widget-host.ts';
import { WIDGET_CACHE_CONTROL } from './routes.ts';

const SOURCE = readFileSync(new URL('./public/widget.js', import.meta.url));
/** Everything the widget loads is this one file: at most 30 KB gzipped (issue 25 §2). */
const BUDGET_GZIP_BYTES = 30 * 1024;

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('GET /widget.js', () => {
  it('serves the script without a token, cacheable, with an ETag, loadable from any origin', async () => {
    const res = await t.client().get('/widget.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['cache-control'], WIDGET_CACHE_CONTROL);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(res.headers['set-cookie'], undefined);
    assert.match(String(res.headers.etag), /^"[\w-]{27}"$/);
    assert.equal(res.raw.rawPayload.toString(), SOURCE.toString());

    const again = await t.client().request({ method: 'GET', url: '/widget.js', headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    const other = await t.client().request({ method: 'GET', url: '/widget.js', headers: { 'if-none-match': '"other"' } });
    assert.equal(other.status, 200);
  });

  it('goes out compressed, within the 30 KB budget', async () => {
    const res = await t.client().request({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.ok(res.raw.rawPayload.length <= BUDGET_GZIP_BYTES, `${res.raw.rawPayload.length} bytes gzipped`);
    assert.ok(gzipSync(SOURCE, { level: 9 }).length <= BUDGET_GZIP_BYTES);
  });

  it('names no host: every request goes to the origin that served it', () => {
    const urls = [...SOURCE.toString().matchAll(/\bhttps?:\/\/[^\s'"`)]+/g)].map((m) => m[0]);
    // The SVG namespace is a name, never fetched; the example in the header comment is a comment.
    assert.deepEqual(
      urls.filter((url) => url !== 'http://www.w3.org/2000/svg' && !url.startsWith('https://chat.example.com/')),
      [],
    );
  });
});

// ---------------------------------------------------------------- in Chromium

/** The widget's element on the host page; Playwright's CSS selectors reach into its (open) shadow root. */
const W = 'chat-service-widget';
const WELCOME = 'Hi! How can we help?';

/** The messages the panel shows, as a screen reader reads them ("You: ...", "Agent: ..."), welcome first. */
function shownMessages(page: Page): Promise<string[]> {
  return page.locator(`${W} .log .msg`).allTextContents();
}

/** Waits until `read` answers `expected` (deep-equal), then asserts it: the last answer is in the failure. */
async function eventually<T>(read: () => Promise<T>, expected: T, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  assert.deepEqual(last, expected, what);
}

/** The host page's record (src/test/widget-host.ts). */
interface HostLog {
  ready: number;
  messages: { id: string; conversation_id: string; text: string; from: string }[];
  unread: number[];
  longTasks: { start: number; duration: number }[];
  violations: string[];
}
const hostLog = (page: Page) => page.evaluate(() => (window as unknown as { hostLog: HostLog }).hostLog);

describe('in Chromium', { skip: skipWithoutBrowser }, () => {
  let base: string;
  let browser: Browser;
  let account: TestAccount;
  let f: ConversationFactory;
  let agent: Json;
  let host: HostPage;
  let stranger: HostPage;
  /** Every URL any page asked for: only the host pages' own and the service's. */
  const requested: string[] = [];
  const hostOrigins: string[] = [];

  before(async () => {
    base = await listen(t);
    account = await t.account();
    f = conversationFactory(t, account);
    agent = await f.agent({ available: true, nickname: 'Eva' });
    const key = (await t.client(account.token).get('/v2/account')).body.widget_key;
    host = await startHostPage(base, key);
    stranger = await startHostPage(base, key);
    const patched = await t.client(account.token).patch('/v2/account', { widget_origins: [host.origin] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await stranger?.close();
    const origins = new Set(requested.map((url) => new URL(url).origin));
    assert.deepEqual([...origins].sort(), [base, host.origin, stranger.origin, ...hostOrigins].sort());
  });

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, ...options });
    const page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => assert.fail(`page error: ${error.message}`));
    return { context, page };
  }

  /** Loads a host page and waits for the widget's `ready` event (it starts once the page is idle). */
  async function load(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { hostLog: HostLog }).hostLog.ready === 1);
  }

  const conversationOf = async (conversationId: string) =>
    (await t.client(account.token).get(`/v2/conversations/${conversationId}?messages=true`)).body;
  const conversationsOf = async (a: TestAccount) =>
    (await t.client(a.token).post('/v2/conversations/search', { size: 100 })).body.items as Json[];

  describe('a visitor chats with an agent', () => {
    let context: BrowserContext;
    let page: Page;
    let conversationId: string;
    const thread = [WELCOME, 'You: Hello, I need help with my order'];

    before(async () => {
      ({ context, page } = await newPage());
    });
    after(() => context.close());

    it('loads after the page is idle, under the strict CSP, isolated from the page CSS, and costs a looker no request or storage', async () => {
      await load(page, `${host.origin}/`);
      const launcher = page.locator(`${W} .launcher`);
      assert.equal(await launcher.getAttribute('aria-label'), 'Open chat');
      assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
      // The page's `button { background: yellow; border: 5px solid green }` does not reach it.
      const style = await launcher.evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.backgroundColor, s.borderTopWidth, s.width];
      });
      assert.deepEqual(style, ['rgb(29, 78, 216)', '0px', '56px']);
      assert.equal(await page.locator(`${W} .panel`).isVisible(), false);
      assert.deepEqual(
        requested.filter((url) => url.startsWith(base)),
        [`${base}/widget.js`],
      );
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      assert.deepEqual((await hostLog(page)).violations, []);
      await screenshot(page, 'widget-closed', false);
    });

    it('opens, and a double click on send starts one conversation with the page variables', async () => {
      await page.locator(`${W} .launcher`).click();
      assert.equal(await page.locator(`${W} .panel`).isVisible(), true);
      assert.equal(await page.locator(`${W} .launcher`).getAttribute('aria-expanded'), 'true');
      assert.equal(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.tagName), 'TEXTAREA');
      await page.locator(`${W} textarea`).fill('Hello, I need help with my order');
      // The stream the widget opens once the conversation has started (what the agent's typing needs: it is not stored).
      const streaming = page.waitForResponse((response) => response.url().startsWith(`${base}/widget/v1/events`) && response.ok());
      await page.locator(`${W} .send`).dblclick();
      await streaming;
      await eventually(() => shownMessages(page), thread, 'the visitor sees their message once');
      await page.waitForFunction(() => localStorage.length === 1);
      const conversations = await conversationsOf(account);
      assert.equal(conversations.length, 1);
      conversationId = conversations[0]!.id;
      const conversation = await conversationOf(conversationId);
      assert.deepEqual(
        conversation.messages.map((m: Json) => [m.sub_type, m.content.text]),
        [['contact', 'Hello, I need help with my order']],
      );
      assert.deepEqual(conversation.variables, { plan: 'gold', cart_items: 3 });
      assert.deepEqual(
        Object.keys(JSON.parse((await page.evaluate(() => localStorage.getItem(localStorage.key(0) as string))) as string)),
        ['token'],
      );
    });

    it('shows the agent typing, then the reply live, in the live region, and tells the host page', async () => {
      const typing = await t
        .client(account.token)
        .post(`/v2/conversations/${conversationId}/typing`, { agent_id: agent.id, is_typing: true });
      assert.equal(typing.status, 200);
      await page.locator(`${W} .typing`, { hasText: 'Agent is typing…' }).waitFor({ state: 'visible' });
      await f.agentSays(conversationId, agent.id, 'Hello! Which order is it?');
      thread.push('Agent: Hello! Which order is it?');
      await eventually(() => shownMessages(page), thread, 'the reply shows live');
      assert.equal(await page.locator(`${W} .typing`).isVisible(), false);
      assert.equal(await page.locator(`${W} .log`).getAttribute('aria-live'), 'polite');
      const log = await hostLog(page);
      assert.deepEqual(
        log.messages.map((m) => [m.from, m.text, m.conversation_id]),
        [
          ['contact', 'Hello, I need help with my order', conversationId],
          ['agent', 'Hello! Which order is it?', conversationId],
        ],
      );
      await screenshot(page, 'widget-open', false);
    });

    it('keeps the conversation after a reload', async () => {
      await page.reload();
      await page.waitForFunction(() => (window as unknown as { hostLog: HostLog }).hostLog.ready === 1);
      await eventually(() => shownMessages(page), thread, 'the conversation is back');
      await page.locator(`${W} .launcher`).click();
      const typingSignals: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/typing')) typingSignals.push(response.status());
      });
      // Ten keystrokes in well under 3 s: one typing signal.
      await page.keyboard.type('Order 1234');
      await page.keyboard.press('Enter');
      thread.push('You: Order 1234');
      await eventually(() => shownMessages(page), thread, 'a new message joins the same conversation');
      assert.equal((await conversationsOf(account)).length, 1);
      // Its answer may come after the message's: they travel on connections of their own.
      await eventually(async () => typingSignals, [200], 'one typing signal');
    });

    it('offline for 20 s and back: every message shows once, the one written offline is sent once', async () => {
      await context.setOffline(true);
      await f.agentSays(conversationId, agent.id, 'Let me check 1234.');
      await page.locator(`${W} textarea`).fill('Are you still there?');
      await page.keyboard.press('Enter');
      await f.agentSays(conversationId, agent.id, 'It ships tomorrow.');
      await new Promise((resolve) => setTimeout(resolve, 20_000));
      await screenshot(page, 'widget-network-offline', false);
      await context.setOffline(false);
      await eventually(
        async () => (await shownMessages(page)).slice(thread.length),
        ['Agent: Let me check 1234.', 'Agent: It ships tomorrow.', 'You: Are you still there?'],
        'each message once',
      );
      thread.push('Agent: Let me check 1234.', 'Agent: It ships tomorrow.', 'You: Are you still there?');
      const texts = (await conversationOf(conversationId)).messages.map((m: Json) => m.content.text);
      assert.equal(texts.filter((text: string) => text === 'Are you still there?').length, 1);
      assert.equal(texts.length, 6);
      assert.deepEqual(await shownMessages(page), thread);
    });

    it('counts unread replies on the launcher while closed', async () => {
      await page.locator(`${W} .x`).click();
      assert.equal(await page.locator(`${W} .panel`).isVisible(), false);
      await f.agentSays(conversationId, agent.id, 'Anything else?');
      await page.locator(`${W} .badge`).waitFor({ state: 'visible' });
      assert.equal(await page.locator(`${W} .badge`).textContent(), '1');
      assert.equal(await page.locator(`${W} .launcher`).getAttribute('aria-label'), 'Open chat (1 unread)');
      await page.locator(`${W} .launcher`).click();
      assert.equal(await page.locator(`${W} .badge`).isVisible(), false);
      assert.deepEqual((await hostLog(page)).unread, [1, 0]);
    });

    it('lets the visitor rate the chat once it is closed', async () => {
      await f.close(conversationId);
      await page.locator(`${W} .rating`).waitFor({ state: 'visible' });
      await page.locator(`${W} .rating button`, { hasText: 'Good' }).click();
      await page.locator(`${W} .note`, { hasText: 'Thank you for your rating!' }).waitFor();
      assert.equal(await page.locator(`${W} .rating`).isVisible(), false);
      assert.equal((await conversationOf(conversationId)).rating_value, 5);
      assert.deepEqual((await hostLog(page)).violations, []);
    });
  });

  it('works from the keyboard alone: open, write, stay in the panel, close', async () => {
    const { context, page } = await newPage();
    await load(page, `${host.origin}/`);
    const focused = () =>
      page.evaluate(() => {
        const shadow = document.activeElement?.shadowRoot?.activeElement;
        return shadow ? `${shadow.tagName}.${shadow.className}` : document.activeElement?.id;
      });
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'help');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'BUTTON.launcher right');
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'TEXTAREA.');
    await page.keyboard.type('Typed with the keyboard');
    await page.keyboard.press('Enter');
    await eventually(() => shownMessages(page), [WELCOME, 'You: Typed with the keyboard'], 'sent with Enter');
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 2 ? 'Tab' : 'Shift+Tab');
      await page.keyboard.press('Tab');
      seen.add(String(await focused()));
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      seen.add(String(await focused()));
    }
    assert.ok(![...seen].some((name) => name === 'help' || name === 'undefined'), [...seen].join(', '));
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(`${W} .panel`).isVisible(), false);
    assert.equal(await focused(), 'BUTTON.launcher right');
    await context.close();
  });

  it('fills the screen at 375x667, with 16 px inputs, in Czech from the page lang', async () => {
    const { context, page } = await newPage({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    await load(page, `${host.origin}/?lang=cs`);
    assert.equal(await page.locator(`${W} .launcher`).getAttribute('aria-label'), 'Otevřít chat');
    await page.locator(`${W} .launcher`).tap();
    assert.deepEqual(await page.locator(`${W} .panel`).boundingBox(), { x: 0, y: 0, width: 375, height: 667 });
    assert.equal(await page.locator(`${W} textarea`).evaluate((el) => getComputedStyle(el).fontSize), '16px');
    assert.equal(await page.locator(`${W} textarea`).getAttribute('placeholder'), 'Napište zprávu…');
    assert.deepEqual(await shownMessages(page), ['Dobrý den! S čím vám můžeme pomoci?']);
    await screenshot(page, 'widget-mobile', false);
    await context.close();
  });

  it('shows the offline message when no agent is online', async () => {
    const quiet = await t.account();
    const key = (await t.client(quiet.token).get('/v2/account')).body.widget_key;
    const page2 = await startHostPage(base, key);
    hostOrigins.push(page2.origin);
    try {
      assert.equal((await t.client(quiet.token).patch('/v2/account', { widget_origins: [page2.origin] })).status, 200);
      const { context, page } = await newPage();
      await load(page, `${page2.origin}/`);
      await page.locator(`${W} .launcher`).click();
      await page.locator(`${W} textarea`).fill('Is anyone there?');
      await page.keyboard.press('Enter');
      await page.locator(`${W} .note`, { hasText: 'Nobody is online right now' }).waitFor();
      await screenshot(page, 'widget-offline', false);
      assert.equal((await conversationsOf(quiet))[0]!.is_offline, true);
      await context.close();
    } finally {
      await page2.close();
    }
  });

  it('takes its position and z-index from the tag; gives a page from an origin not on the list no session', async () => {
    const before = await conversationsOf(account);
    const { context, page } = await newPage();
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/widget/v1/')) answers.push(response.status());
    });
    await load(page, `${stranger.origin}/?position=left&z-index=7`);
    // The tag's position and z-index (this page's widget sits bottom left, under anything above 7).
    const launcher = page.locator(`${W} .launcher`);
    assert.deepEqual(await launcher.boundingBox(), { x: 20, y: 760 - 20 - 56, width: 56, height: 56 });
    assert.equal(await launcher.evaluate((el) => getComputedStyle(el).zIndex), '7');
    await launcher.click();
    await page.locator(`${W} textarea`).fill('Let me in');
    await page.keyboard.press('Enter');
    await page.locator(`${W} .failed`).waitFor();
    assert.ok(
      answers.every((status) => status >= 400),
      answers.join(),
    );
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.deepEqual(await conversationsOf(account), before);
    await context.close();
  });

  it("sends a file with a message, shows the agent's file as a link it downloads, and says why a file is refused", async () => {
    const { context, page } = await newPage({ acceptDownloads: true });
    await load(page, `${host.origin}/`);
    await page.locator(`${W} .launcher`).click();
    /**
     * Picks a file for the attach button, which the keyboard reaches from the message input. The file goes to the
     * button's file input: Chromium's file chooser, opened by a key press, sometimes never opened under load.
     */
    const attach = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      await page.locator(`${W} textarea`).focus();
      await page.keyboard.press('Shift+Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label')),
        'Attach a file',
      );
      await page.locator(`${W} input[type=file]`).setInputFiles(file);
    };
    const error = page.locator(`${W} .note`);

    await attach({ name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await error.filter({ hasText: 'This type of file cannot be sent.' }).waitFor();
    assert.equal(await page.locator(`${W} .chip`).isVisible(), false);

    const invoice = '%PDF-1.4 the invoice of order 1234';
    await attach({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(invoice) });
    assert.equal(await page.locator(`${W} .chip`).textContent(), 'invoice.pdf×');
    assert.equal(await error.count(), 0);
    await page.locator(`${W} textarea`).fill('Here is my invoice');
    await page.keyboard.press('Enter');
    // A start takes text only: the file follows in the next message.
    await eventually(() => shownMessages(page), [WELCOME, 'You: Here is my invoice', 'You: invoice.pdf'], 'the visitor sees the file sent');
    const conversationId = (await hostLog(page)).messages[0]!.conversation_id;
    const messages = (await conversationOf(conversationId)).messages;
    assert.deepEqual(
      messages.map((m: Json) => [m.content.text, m.attachments.map((a: Json) => a.file_name)]),
      [
        ['Here is my invoice', []],
        [null, ['invoice.pdf']],
      ],
    );
    const download = await t.client(account.token).get(messages[1].attachments[0].url);
    assert.equal(download.raw.rawPayload.toString(), invoice);

    // The agent answers with a file: a link in the panel, downloaded with the visitor's token.
    const label = 'the shipping label';
    const uploaded = await t.client(account.token).request({
      method: 'POST',
      url: '/v2/uploads?file_name=label.pdf',
      payload: label,
      headers: { 'content-type': 'application/pdf' },
    });
    await f.agentSays(conversationId, agent.id, 'Here is your label', { attachments: [{ type: 'upload', token: uploaded.body.token }] });
    await eventually(async () => (await shownMessages(page)).slice(3), ['Agent: Here is your label\nlabel.pdf'], "the agent's file shows");
    const link = page.locator(`${W} .log a`, { hasText: 'label.pdf' });
    assert.match(String(await link.getAttribute('href')), new RegExp(`^${base}/widget/v1/uploads/up[\\w-]+/content$`));
    const downloading = page.waitForEvent('download');
    await link.click();
    const file = await downloading;
    assert.equal(file.suggestedFilename(), 'label.pdf');
    assert.equal(readFileSync(await file.path()).toString(), label);
    assert.deepEqual((await hostLog(page)).violations, []);
    await screenshot(page, 'widget-attachment', false);
    await context.close();
  });

  describe('signed identity', () => {
    let secret: string;
    const now = () => Math.floor(Date.now() / 1000);
    const sign = (identity: Json) => ({
      ...identity,
      signature: createHmac('sha256', secret)
        .update([identity.id, identity.name ?? '', identity.email ?? '', String(identity.expires_at)].join('\n'))
        .digest('hex'),
    });
    const urlWith = (identity: Json) => `${host.origin}/?identity=${encodeURIComponent(JSON.stringify(identity))}`;

    before(async () => {
      const rotated = await t.client(account.token).post('/v2/account/widget-identity-secret/rotate');
      assert.equal(rotated.status, 200);
      secret = rotated.body.widget_identity_secret;
    });

    /** Writes once from a fresh browser on a page identified so; the conversation's id, or null when none started. */
    async function chatAs(identity: Json): Promise<string | null> {
      const { context, page } = await newPage();
      await load(page, urlWith(identity));
      await page.locator(`${W} .launcher`).click();
      await page.locator(`${W} textarea`).fill(`I am ${identity.id}`);
      await page.keyboard.press('Enter');
      await page
        .locator(`${W} .msg:not(.pending)`, { hasText: `I am ${identity.id}` })
        .or(page.locator(`${W} .failed`))
        .waitFor();
      const started = (await hostLog(page)).messages.find((m) => m.from === 'contact');
      await context.close();
      return started?.conversation_id ?? null;
    }

    it('attaches the chat to the contact of a valid signed identity', async () => {
      const conversationId = await chatAs(
        sign({ id: 'user-42', name: 'Jana Nováková', email: 'jana@example.com', expires_at: now() + 600 }),
      );
      assert.ok(conversationId);
      const contact = (await t.client(account.token).get(`/v2/contacts/${(await conversationOf(conversationId)).contact_id}`)).body;
      assert.deepEqual([contact.identity_id, contact.name, contact.email], ['user-42', 'Jana Nováková', 'jana@example.com']);
    });

    it('refuses a forged or expired identity: no conversation starts', async () => {
      const before = (await conversationsOf(account)).length;
      const forged = { ...sign({ id: 'user-43', name: 'Mallory', expires_at: now() + 600 }), id: 'user-42' };
      assert.equal(await chatAs(forged), null);
      assert.equal(await chatAs(sign({ id: 'user-42', name: 'Jana Nováková', email: 'jana@example.com', expires_at: now() - 5 })), null);
      assert.equal((await conversationsOf(account)).length, before);
    });
  });
});

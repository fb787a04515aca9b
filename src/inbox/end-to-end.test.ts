/**
 * A chat end to end in two browser contexts (issue 26 §6): a host page on another origin embeds the widget
 * (/widget.js), the visitor writes; the agent's inbox (/inbox) shows the new chat in Unassigned without a reload; the
 * agent takes it and replies; the visitor sees the reply; typing shows on both sides; closing in the inbox lets the
 * visitor rate; the chat then counts in statistics.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, waitUntil, type TestAccount, type TestApp } from '../test/harness.ts';
import { startHostPage, type HostPage } from '../test/widget-host.ts';
import { launchBrowser, listen, screenshot, signInToInbox, skipWithoutBrowser } from '../test/browser.ts';

let t: TestApp;
let base: string;

before(async () => {
  t = await startTestApp();
  base = await listen(t);
});
after(() => t.close());

describe('a chat between the widget and the inbox', { skip: skipWithoutBrowser }, () => {
  let browser: Browser;
  let host: HostPage;
  let account: TestAccount;
  let ann: { id: string };
  let visitor: Page;
  let agent: Page;
  let conversationId: string;
  const problems: string[] = [];

  const api = () => t.client(account.token);
  /** Page errors, console errors and refused requests (with their address; the host page has no favicon). */
  const watch = (page: Page, who: string) => {
    page.on('pageerror', (error) => problems.push(`${who} page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(`${who} console: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
        problems.push(`${who}: ${response.status()} ${response.url()}`);
    });
  };

  before(async () => {
    account = await t.account();
    ann = (await api().post('/v2/agents', { email: 'ann@example.com', nickname: 'Ann' })).body;
    await api().patch(`/v2/agents/${ann.id}`, { status: 'online' });
    // The host page on another origin (another loopback port), under its strict CSP, embedding the widget.
    const settings = await api().get('/v2/account');
    host = await startHostPage(base, settings.body.widget_key);
    const allowed = await api().patch('/v2/account', { widget_origins: [host.origin] });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));

    browser = await launchBrowser();
    const agentContext = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    const visitorContext = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: 'en-US' });
    agent = await agentContext.newPage();
    visitor = await visitorContext.newPage();
    watch(agent, 'inbox');
    watch(visitor, 'host');
    await signInToInbox(agent, base, account.token, ann.id);
  });
  after(async () => {
    await browser?.close();
    await host?.close();
  });

  it('shows the visitor’s first message in Unassigned without a reload', async () => {
    await visitor.goto(`${host.origin}/`);
    await visitor.locator('.launcher').click();
    await visitor.locator('textarea').fill('Hello from the shop page');
    await visitor.locator('textarea').press('Enter');
    const row = agent.locator('.conversations [data-id]', { hasText: 'Hello from the shop page' });
    await row.waitFor();
    conversationId = (await row.getAttribute('data-id')) as string;
    assert.equal(await agent.getAttribute('#tab-unassigned', 'aria-selected'), 'true');
    await row.click();
    await agent.locator('#messages .body', { hasText: 'Hello from the shop page' }).waitFor();
  });

  it('shows typing on both sides', async () => {
    await visitor.locator('textarea').fill('I am writing');
    await agent.locator('#typing', { hasText: 'is typing' }).waitFor();
    await agent.fill('#reply', 'Let me see');
    await visitor.locator('.typing').waitFor({ state: 'visible' });
    await agent.fill('#reply', '');
    await visitor.locator('textarea').fill('');
  });

  it('lets the agent take the chat and reply, and the visitor sees the reply', async () => {
    await agent.click('#assign-me');
    await agent.locator(`.conversations [data-id="${conversationId}"]`).waitFor({ state: 'detached' });
    await agent.fill('#reply', 'Hi, I am Ann. How can I help? https://shop.example.com/help');
    await agent.press('#reply', 'Enter');
    await visitor.locator('.msg', { hasText: 'Hi, I am Ann' }).waitFor();
    const conversation = (await api().get(`/v2/conversations/${conversationId}`)).body;
    assert.deepEqual(conversation.assigned_ids, [ann.id]);
    assert.equal(conversation.status, 'served');
    await screenshot(visitor, 'e2e-widget', false);
    await screenshot(agent, 'e2e-inbox', false);
  });

  it('lets the visitor rate once the inbox closes the chat, and the chat counts in statistics', async () => {
    await agent.locator('#messages').focus();
    await agent.keyboard.press('c');
    await visitor.locator('.rating button').first().waitFor();
    await visitor.locator('.rating button', { hasText: 'Good' }).click();
    await waitUntil(async () => (await api().get(`/v2/conversations/${conversationId}`)).body.rating_value === 5);
    const today = new Date().toISOString().slice(0, 10);
    const statistics = await api().post('/v2/statistics', {
      closed: { name: 'closed_conversation', range: { from: `${today}T00:00:00`, to: null } },
      ratings: { name: 'conversation_ratings', range: { from: `${today}T00:00:00`, to: null } },
    });
    assert.equal(statistics.status, 200, JSON.stringify(statistics.body));
    assert.equal(statistics.body.closed.count, 1);
    assert.equal(statistics.body.ratings.count, 1);
    assert.deepEqual(problems, []);
  });
});

/**
 * The dashboard: its static files over HTTP, then the page itself in a real Chromium
 * (Debian's, driven by playwright-core) against the real server listening on a port,
 * over an account filled by the demo-data generator. Every number the page shows is
 * read from its table views and compared with the API's answer to the same request,
 * made here independently of the page's code.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { startTestApp, engine, type TestAccount, type TestApp } from '../test/harness.ts';
import { launchBrowser, listen, screenshot, skipWithoutBrowser } from '../test/browser.ts';
import { generateDemoData } from '../demo/service.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The browser's zone: not UTC (the accounts' zone), and with a daylight saving change in most 90-day ranges. */
const BROWSER_ZONE = 'America/New_York';

let t: TestApp;
let base: string;
let demo: TestAccount;
let empty: TestAccount;
let browser: Browser;

before(async () => {
  t = await startTestApp();
  base = await listen(t);
  demo = await t.account();
  empty = await t.account();
  // Dashboard presets are relative to today: the history ends now.
  await generateDemoData(t.db, {
    accountId: demo.accountId,
    conversations: 500,
    days: 120,
    seed: 'dashboard',
    now: new Date(),
    inactivityTimeoutSeconds: t.deps.config.inactivityTimeoutSeconds,
  });
});
after(async () => {
  await browser?.close();
  await t.close();
});

describe('static files', () => {
  it('serves the page without a token, with ETag, Cache-Control and a same-origin content security policy', async () => {
    const page = await t.client().get('/dashboard');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.match(String(page.headers.etag), /^"[\w-]{27}"$/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'.*connect-src 'self'/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(page.body, /<title>Statistics · chat-service<\/title>/);
    assert.equal((await t.client().get('/dashboard/')).body, page.body);

    const again = await t
      .client()
      .request({ method: 'GET', url: '/dashboard', headers: { 'if-none-match': `W/"other", ${page.headers.etag}` } });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, page.headers.etag);
    const changed = await t.client().request({ method: 'GET', url: '/dashboard', headers: { 'if-none-match': '"other"' } });
    assert.equal(changed.status, 200);
  });

  it('serves every file the page and its modules load, uPlot from the installed package, nothing from elsewhere', async () => {
    const html = (await t.client().get('/dashboard')).body as string;
    const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((url) => !url.startsWith('#') && url !== 'data:,');
    assert.deepEqual(referenced.sort(), ['/dashboard/app.js', '/dashboard/base.css', '/dashboard/dashboard.css', '/dashboard/uplot.css']);
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
    const seen = new Set<string>();
    const queue = [...referenced];
    while (queue.length > 0) {
      const url = queue.shift() as string;
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await t.client().get(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers['content-type'], types[url.split('.').pop() as string], url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.ok(res.headers.etag, url);
      // Module imports are relative: './x.js' under /dashboard/.
      for (const [, imported] of String(res.body).matchAll(/^import [^'"]*'\.\/([\w.-]+)'/gm)) queue.push(`/dashboard/${imported}`);
    }
    assert.deepEqual([...seen].sort(), [
      '/dashboard/app.js',
      '/dashboard/base.css',
      '/dashboard/charts.js',
      '/dashboard/dashboard.css',
      '/dashboard/format.js',
      '/dashboard/model.js',
      '/dashboard/uplot.css',
      '/dashboard/uplot.js',
    ]);
    const uplot = await t.client().get('/dashboard/uplot.js');
    assert.equal(uplot.body, readFileSync(path.join(ROOT, 'node_modules/uplot/dist/uPlot.esm.js'), 'utf8'));
  });

  it('answers unknown files with 404 not_found, and HEAD like GET', async () => {
    for (const url of ['/dashboard/nope.js', '/dashboard/..%2Froutes.ts', '/dashboard/routes.ts']) {
      const res = await t.client().get(url);
      assert.equal(res.status, 404, url);
      assert.equal(res.body.code, 'not_found');
      assert.match(res.body.message, /^Dashboard file .* not found$/);
    }
    const head = await t.client().request({ method: 'HEAD', url: '/dashboard/app.js' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(head.body, '');
  });
});

// The browser tests, in order: they share one browser, and each builds on the page the last one left.

interface Range {
  from: string;
  to: string;
}
interface View {
  range: Range;
  interval: 'day' | 'week' | 'month';
  group?: string;
  agent?: string;
  tag?: string;
}

/** Today in `zone`, and `days` days earlier. */
function daysEndingToday(zone: string, days: number): Range {
  const to = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** The statistics request a view needs (written from the issue, independently of the page's code). */
function statisticsRequest(view: View): Record<string, unknown> {
  const range = { from: `${view.range.from}T00:00:00`, to: `${view.range.to}T23:59:59` };
  const conversationQuery = [
    ...(view.group ? [{ field: 'group_id', value: view.group }] : []),
    ...(view.agent ? [{ field: 'agent_ids', value: view.agent }] : []),
    ...(view.tag ? [{ field: 'tags', value: view.tag }] : []),
  ];
  const messageQuery = [
    ...(view.group ? [{ field: 'group_id', value: view.group }] : []),
    ...(view.agent ? [{ field: 'agent_id', value: view.agent }] : []),
  ];
  const entry = (name: string, query: unknown[], aggs: unknown[]) => ({ name, range, ...(query.length ? { query } : {}), aggs });
  const byInterval = [{ type: 'date', interval: view.interval }];
  return {
    everything: { name: 'new_conversation', range: { from: null, to: null } },
    started: entry('new_conversation', conversationQuery, byInterval),
    closed: entry('closed_conversation', conversationQuery, byInterval),
    time_to_close: entry('time_to_close', conversationQuery, byInterval),
    ratings: entry('conversation_ratings', conversationQuery, [...byInterval, { type: 'terms', field: 'rating_value' }]),
    heatmap: entry('new_conversation', conversationQuery, [
      { type: 'date', interval: 'day_of_week' },
      { type: 'date', interval: 'hour_of_day' },
    ]),
    // Replies carry no tags: with a tag filter the page leaves them out.
    ...(view.tag
      ? {}
      : {
          first_response: entry('first_response_time', messageQuery, byInterval),
          response: entry('response_time', messageQuery, byInterval),
        }),
  };
}

interface Bucket {
  key: string;
  count: number;
  value: number;
  buckets: Bucket[] | null;
}
type Entry = { count: number; value: number; buckets: Bucket[] };
/** The answer to statisticsRequest(view): replies only without a tag filter. */
type Answer = Record<'everything' | 'started' | 'closed' | 'time_to_close' | 'ratings' | 'heatmap', Entry> &
  ({ first_response: Entry; response: Entry } | { first_response?: undefined; response?: undefined });

const cell = (n: number) => String(n);
const median = (bucket: Bucket) => (bucket.count > 0 ? String(bucket.value) : '');
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** What each table view must hold for an API answer: row header, then raw values (seconds for times). */
function expectedTables(answer: Answer, totals: { agents: Record<string, number | string>[] }, view: View) {
  const rating = (bucket: Bucket, key: string) => cell(bucket.buckets?.find((b) => b.key === key)?.count ?? 0);
  const tables: Record<string, string[][] | null> = {
    conversations: answer.started.buckets.map((b, i) => [b.key, cell(b.count), cell(answer.closed.buckets[i]!.count)]),
    'response-times': answer.first_response
      ? answer.first_response.buckets.map((b, i) => {
          const reply = answer.response.buckets[i]!;
          return [b.key, median(b), cell(b.count), median(reply), cell(reply.count)];
        })
      : null,
    'time-to-close': answer.time_to_close.buckets.map((b) => [b.key, median(b), cell(b.count)]),
    ratings: answer.ratings.buckets.map((b) => [b.key, rating(b, '5'), rating(b, '3'), rating(b, '1'), cell(b.count)]),
    heatmap: answer.heatmap.buckets.map((day) => [
      WEEKDAYS[Number(day.key) - 1]!,
      ...(day.buckets as Bucket[]).map((hour) => cell(hour.count)),
    ]),
  };
  const fields = ['nickname', 'completed', 'dropped', 'avgFirstResponse', 'avgResponse', 'avgDuration', 'totalDuration'];
  const agents = totals.agents.filter((agent) => !view.agent || String(agent.userId) === view.agent);
  const agentRows = agents.map((agent) => fields.map((field) => String(agent[field])));
  return { tables, agentRows };
}

/** Rows of a table: the row header's text, then each cell's raw value (data-value). */
function readTable(page: Page, selector: string): Promise<string[][]> {
  return page.$eval(selector, (table) =>
    [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((c, i) => (i === 0 ? (c.textContent ?? '') : ((c as HTMLElement).dataset.value ?? '?'))),
    ),
  );
}

const PANELS = ['conversations', 'response-times', 'time-to-close', 'ratings', 'heatmap'];

type Marked = { dashboardTestMark?: boolean };

/** Runs `action` and waits for the refresh it causes (or the first one of a page it loads) to finish drawing. */
async function refreshed(page: Page, action: () => Promise<unknown>): Promise<void> {
  const before = await page.evaluate(() => {
    (window as Marked).dashboardTestMark = true;
    return Number(document.getElementById('main')?.dataset.refresh ?? 0);
  });
  await action();
  await page.waitForFunction(
    (n) => {
      const main = document.getElementById('main') as HTMLElement;
      const sameDocument = (window as Marked).dashboardTestMark === true;
      return Number(main.dataset.refresh ?? 0) > (sameDocument ? n : 0) && main.dataset.state !== 'loading';
    },
    before,
    { timeout: 30_000 },
  );
}

let context: BrowserContext;
let page: Page;
/** Every request the browser made, with its body. */
const requests: { method: string; url: string; body: string | null }[] = [];
const problems: string[] = [];
let readToken: string;

function watch(p: Page) {
  p.on('request', (request: Request) => requests.push({ method: request.method(), url: request.url(), body: request.postData() }));
  p.on('console', (message) => {
    // The browser itself logs the answers to the refused tokens (401, 403) and to the range too large (422).
    if (/^Failed to load resource: the server responded with a status of (401|403|422)/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  p.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

async function newPage(): Promise<Page> {
  context = await browser.newContext({
    timezoneId: BROWSER_ZONE,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const created = await context.newPage();
  watch(created);
  return created;
}

async function signIn(p: Page, token: string) {
  await p.fill('#token', token);
  await p.press('#token', 'Enter');
}

/** Asserts every table view and card of the page equals the API's answer for `view`, and returns the answer. */
async function assertShows(p: Page, view: View): Promise<Answer> {
  const statistics = await t.client(readToken).post(`/v2/statistics?timezone=${encodeURIComponent(BROWSER_ZONE)}`, statisticsRequest(view));
  assert.equal(statistics.status, 200, JSON.stringify(statistics.body));
  const legacy = new URLSearchParams({ ...view.range, ...(view.group ? { group: view.group } : {}) });
  const totals = await t.client(readToken).get(`/stats/totals?${legacy}`);
  assert.equal(totals.status, 200, JSON.stringify(totals.body));
  const answer = statistics.body as Answer;
  assert.ok(answer.started.count > 0, 'the view has conversations');
  const { tables, agentRows } = expectedTables(answer, totals.body, view);
  for (const id of PANELS) {
    const expected = tables[id];
    if (expected === null) {
      assert.equal(await p.$eval(`#panel-${id} tbody`, () => 'table').catch(() => 'none'), 'none', id);
      assert.match((await p.textContent(`#panel-${id} .panel-status`)) ?? '', /Not available with a tag filter/);
    } else {
      assert.deepEqual(await readTable(p, `#panel-${id} table.numbers`), expected, id);
    }
  }
  // The agents table as sorted on the page; its rows as a set must be the export's.
  assert.deepEqual((await readTable(p, '#panel-agents table.numbers')).sort(), agentRows.sort(), 'agents');

  const cards = Object.fromEntries(
    await p.$$eval('#cards li', (items) =>
      items.map((li) => [(li as HTMLElement).dataset.card, (li.querySelector('.value') as HTMLElement).dataset.value]),
    ),
  );
  const good = answer.ratings.buckets.reduce((sum, b) => sum + (b.buckets?.find((r) => r.key === '5')?.count ?? 0), 0);
  assert.deepEqual(cards, {
    started: cell(answer.started.count),
    closed: cell(answer.closed.count),
    first_response: answer.first_response ? median(answer.first_response as Bucket) : '',
    response: answer.response ? median(answer.response as Bucket) : '',
    time_to_close: median(answer.time_to_close as Bucket),
    rated: cell(answer.ratings.count),
    good: answer.ratings.count > 0 ? String(good / answer.ratings.count) : '',
    ...Object.fromEntries(
      ['visitors', 'chats', 'completed', 'dropped', 'missed', 'offline'].map((field) => [field, String(totals.body.overview[field])]),
    ),
  });
  return answer;
}

/** The statistics requests the page made since request number `since`, and their bodies. */
function statisticsCalls(since: number) {
  return requests.slice(since).filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/v2/statistics');
}
function totalsCalls(since: number) {
  return requests.slice(since).filter((r) => new URL(r.url).pathname === '/stats/totals');
}

/** The hash parameters of the page's URL. */
async function hashOf(p: Page): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(new URL(p.url()).hash.slice(1)));
}

/** Durations as the page must write them: m:ss under an hour, h:mm from one. */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} min`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')} h`;
}

describe(`in Chromium (${engine})`, { skip: skipWithoutBrowser }, () => {
  let groups: { id: string; name: string }[];
  let tags: { id: string; name: string }[];

  before(async () => {
    browser = await launchBrowser();
    readToken = await t.token(demo, ['statistics:read']);
    groups = (await t.client(demo.token).get('/v2/groups')).body.groups;
    tags = (await t.client(demo.token).get('/v2/tags')).body.tags;
    page = await newPage();
  });

  it('asks for a token, and refuses one without statistics:read or a revoked one, keeping neither', async () => {
    await page.goto(`${base}/dashboard`);
    assert.equal(await page.isVisible('#sign-in'), true);
    assert.equal(await page.isVisible('#main'), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'token');

    await signIn(page, await t.token(demo, ['conversations:read', 'agents:read']));
    await page.waitForSelector('#sign-in-error:not(:empty)');
    assert.match((await page.textContent('#sign-in-error')) ?? '', /cannot read statistics \(Missing scope statistics:read\)/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);

    const revoked = (await t.client(demo.token).post('/v2/tokens', { name: 'revoked', scopes: ['statistics:read'] })).body;
    await t.client(demo.token).delete(`/v2/tokens/${revoked.id}`);
    await signIn(page, revoked.token);
    await page.waitForFunction(() => /revoked/.test(document.getElementById('sign-in-error')?.textContent ?? ''));
    assert.equal(await page.isVisible('#main'), false);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('shows an account without conversations how to load demo data', async () => {
    await refreshed(page, () => signIn(page, empty.token));
    assert.equal(await page.getAttribute('#main', 'data-state'), 'empty');
    assert.equal(await page.isVisible('#empty'), true);
    assert.equal(await page.isVisible('#views'), false);
    assert.match((await page.textContent('#empty')) ?? '', /npx chat-service demo-data --account <account id> --conversations/);
    await page.click('#sign-out');
    assert.equal(await page.isVisible('#sign-in'), true);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it("draws the last 30 days in the browser's zone from one batched request, every number equal to the API's", async () => {
    const since = requests.length;
    await refreshed(page, () => signIn(page, readToken));
    assert.equal(await page.getAttribute('#main', 'data-state'), 'ready');
    const view: View = { range: daysEndingToday(BROWSER_ZONE, 30), interval: 'day' };
    await assertShows(page, view);

    // One refresh: one POST /v2/statistics holding every view's metric, one legacy totals call; the filter lists once.
    const calls = statisticsCalls(since);
    assert.equal(calls.length, 1);
    assert.deepEqual(JSON.parse(calls[0]!.body as string), statisticsRequest(view));
    assert.equal(new URL(calls[0]!.url).searchParams.get('timezone'), BROWSER_ZONE);
    assert.equal(totalsCalls(since).length, 1);
    const paths = requests.slice(since).map((r) => new URL(r.url).pathname);
    assert.deepEqual(paths.filter((p) => p.startsWith('/v2/') || p.startsWith('/stats/')).sort(), [
      '/stats/totals',
      '/v2/groups',
      '/v2/statistics',
      '/v2/tags',
    ]);

    // The view is in the URL; the token only in this tab's session storage, and never in a URL.
    assert.deepEqual(await hashOf(page), { range: '30d', tz: BROWSER_ZONE, interval: 'day' });
    assert.equal(await page.evaluate(() => sessionStorage.getItem('chat-service.dashboard.token')), readToken);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.ok(requests.every((r) => !r.url.includes(readToken)));
    assert.match(
      (await page.textContent('#status')) ?? '',
      new RegExp(`Updated at .* in [\\d.]+ s: ${view.range.from} to ${view.range.to}, ${BROWSER_ZONE}`),
    );

    // Times read m:ss or h:mm with their unit.
    const timeCells = await page.$$eval('#panel-agents tbody td', (cells) =>
      cells.map((c) => [(c as HTMLElement).dataset.value, c.textContent]),
    );
    const durations = timeCells.filter((_, i) => i % 6 >= 2);
    assert.ok(durations.length > 0);
    for (const [value, text] of durations) assert.equal(text, duration(Number(value)));
    await screenshot(page, 'dashboard');
  });

  it('follows the range, interval and filters, keeps them in the URL, and a shared URL restores the view', async () => {
    const support = groups.find((g) => g.name === 'Support') as { id: string };
    await refreshed(page, () => page.selectOption('#range', '90d'));
    await refreshed(page, () => page.selectOption('#interval', 'week'));
    await refreshed(page, () => page.selectOption('#group', { label: 'Support' }));
    const quarter: View = { range: daysEndingToday(BROWSER_ZONE, 90), interval: 'week', group: support.id };
    await assertShows(page, quarter);

    // An agent of the group (the agent filter's options come from the legacy export).
    const agents = await page.$$eval('#agent option', (options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    const [agentId] = (await readTable(page, '#panel-agents table.numbers')).map((row) => agents.find(([, name]) => name === row[0])?.[0]);
    assert.ok(agentId);
    await refreshed(page, () => page.selectOption('#agent', agentId as string));
    await assertShows(page, { ...quarter, agent: agentId as string });
    assert.equal((await readTable(page, '#panel-agents table.numbers')).length, 1);

    // A tag: response times cannot be filtered by it and say so.
    const since = requests.length;
    const vip = tags.find((tag) => tag.name === 'vip') as { id: string };
    await refreshed(page, () => page.selectOption('#agent', ''));
    await refreshed(page, () => page.selectOption('#tag', vip.id));
    const tagged: View = { ...quarter, tag: vip.id };
    await assertShows(page, tagged);
    assert.equal(statisticsCalls(since).length, 2);
    assert.deepEqual(await hashOf(page), { range: '90d', tz: BROWSER_ZONE, interval: 'week', group: support.id, tag: vip.id });

    // The same tab after a reload: still signed in, the same view.
    await refreshed(page, () => page.reload());
    await assertShows(page, tagged);

    // Another browser opening the shared URL signs in first, then sees the same view.
    const shared = page.url();
    const other = await newPage();
    await other.goto(shared);
    assert.equal(await other.isVisible('#sign-in'), true);
    await refreshed(other, () => signIn(other, readToken));
    assert.equal(await other.$eval('#group', (select) => (select as HTMLSelectElement).value), support.id);
    await assertShows(other, tagged);
    await other.close();

    // Back to no tag and the time zone chosen explicitly.
    await refreshed(page, () => page.selectOption('#tag', ''));
    await refreshed(page, () => page.selectOption('#tz', 'UTC'));
    assert.equal(new URL(statisticsCalls(since).at(-1)?.url as string).searchParams.get('timezone'), 'UTC');
  });

  it('takes a custom range from the date inputs, and refuses one that ends before it starts', async () => {
    await refreshed(page, () => page.selectOption('#tz', BROWSER_ZONE));
    await refreshed(page, () => page.selectOption('#group', ''));
    await refreshed(page, () => page.selectOption('#interval', 'month'));
    // Custom starts from the range shown, then takes the days typed.
    assert.equal(await page.isVisible('#custom-range'), false);
    await refreshed(page, () => page.selectOption('#range', 'custom'));
    assert.equal(await page.isVisible('#custom-range'), true);
    const quarter = daysEndingToday(BROWSER_ZONE, 90);
    assert.deepEqual([await page.inputValue('#from'), await page.inputValue('#to')], [quarter.from, quarter.to]);
    await assertShows(page, { range: quarter, interval: 'month' });
    const range = { from: daysEndingToday(BROWSER_ZONE, 75).from, to: daysEndingToday(BROWSER_ZONE, 2).from };
    await refreshed(page, () => page.fill('#from', range.from));
    await refreshed(page, () => page.fill('#to', range.to));
    await assertShows(page, { range, interval: 'month' });
    assert.deepEqual(await hashOf(page), { range: 'custom', from: range.from, to: range.to, tz: BROWSER_ZONE, interval: 'month' });

    const since = requests.length;
    await page.fill('#from', '2099-01-01');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'invalid');
    assert.match((await page.textContent('#status')) ?? '', /must not be after the last/);
    assert.equal(statisticsCalls(since).length, 0);
    await refreshed(page, () => page.selectOption('#range', '30d'));
    assert.equal(await page.isVisible('#custom-range'), false);
  });

  it('writes interval labels that never overlap nor leave their chart, at every range and interval, 1,400 and 800 pixels wide', async () => {
    const year = daysEndingToday(BROWSER_ZONE, 120);
    const ranges = ['today', '7d', '30d', '90d', 'month', `custom&from=${year.from}&to=${year.to}`];
    for (const width of [1400, 800]) {
      await page.setViewportSize({ width, height: 900 });
      for (const interval of ['day', 'week', 'month']) {
        for (const range of ranges) {
          await refreshed(page, () =>
            page.evaluate((hash) => (location.hash = hash), `range=${range}&tz=${encodeURIComponent(BROWSER_ZONE)}&interval=${interval}`),
          );
          const faults = await page.$$eval('#views .chart', (charts) =>
            charts.flatMap((chart) => {
              const name = chart.closest('section')?.id;
              const box = chart.getBoundingClientRect();
              const labels = [...chart.querySelectorAll('.x-labels span')].map((label) => label.getBoundingClientRect());
              const found = labels.length === 0 ? [`${name}: no label`] : [];
              labels.forEach((label, i) => {
                if (label.left < box.left || label.right > box.right) found.push(`${name}: label ${i} leaves the chart`);
                if (i > 0 && label.left < labels[i - 1]!.right) found.push(`${name}: labels ${i - 1} and ${i} overlap`);
              });
              return found;
            }),
          );
          assert.deepEqual(faults, [], `${width} px, ${range}, by ${interval}`);
        }
      }
      await screenshot(page, `dashboard-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await refreshed(page, () => page.selectOption('#range', '30d'));
  });

  it("says each chart's figures over the whole range in its legend without a pointer, and an interval's under it", async () => {
    await refreshed(page, () => page.selectOption('#interval', 'day'));
    const answer = await assertShows(page, { range: daysEndingToday(BROWSER_ZONE, 30), interval: 'day' });
    const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
    const legend = (id: string) =>
      page.$eval(`#panel-${id} .legend`, (element) => [
        element.querySelector('.legend-heading')?.textContent,
        ...[...element.querySelectorAll('.legend-item')].map((item) => item.textContent),
      ]);
    const medianText = (bucket: Bucket) => (bucket.count > 0 ? duration(bucket.value) : '–');
    assert.deepEqual(await legend('conversations'), [
      'Whole range:',
      `Started ${count(answer.started.count)}`,
      `Closed ${count(answer.closed.count)}`,
    ]);
    assert.deepEqual(await legend('response-times'), [
      'Whole range:',
      `Median first response ${medianText(answer.first_response as Bucket)}`,
      `Median response ${medianText(answer.response as Bucket)}`,
    ]);
    assert.deepEqual(await legend('time-to-close'), ['Whole range:', `Median time to close ${medianText(answer.time_to_close as Bucket)}`]);
    const rated = (key: string) => answer.ratings.buckets.reduce((sum, b) => sum + (b.buckets?.find((r) => r.key === key)?.count ?? 0), 0);
    assert.deepEqual(await legend('ratings'), [
      'Whole range:',
      `Good ${count(rated('5'))}`,
      `Neutral ${count(rated('3'))}`,
      `Bad ${count(rated('1'))}`,
    ]);
    // The same figures close the table.
    assert.deepEqual(await page.$$eval('#panel-conversations tfoot tr > *', (cells) => cells.map((c) => c.textContent)), [
      'Whole range',
      count(answer.started.count),
      count(answer.closed.count),
    ]);

    // Under the pointer: that interval's figures; away from the chart, the whole range again.
    const over = (await page.$('#panel-conversations .u-over'))!;
    const box = (await over.boundingBox())!;
    const intervals = answer.started.buckets.length;
    const i = Math.floor(intervals / 2);
    await page.mouse.move(box.x + ((i + 0.5) * box.width) / intervals, box.y + box.height / 2);
    assert.deepEqual(await legend('conversations'), [
      `${answer.started.buckets[i]!.key}:`,
      `Started ${count(answer.started.buckets[i]!.count)}`,
      `Closed ${count(answer.closed.buckets[i]!.count)}`,
    ]);
    await page.mouse.move(0, 0);
    assert.equal((await legend('conversations'))[0], 'Whole range:');
  });

  it('shows every view loading while its request runs, and the error where a request failed', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v2/statistics?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.click('#refresh');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.state === 'loading');
    const loading = await page.$$eval('.panel', (panels) =>
      panels.map((p) => [
        p.getAttribute('aria-busy'),
        p.querySelector('.panel-status')?.textContent,
        (p.querySelector('.csv') as HTMLButtonElement).disabled,
      ]),
    );
    assert.deepEqual(loading, Array(7).fill(['true', 'Loading…', true]));
    assert.equal(await page.textContent('#status'), 'Loading statistics…');
    await refreshed(page, async () => release());
    await page.unroute('**/v2/statistics?*');

    // Ten years by day is more buckets than one statistics response may hold (422); the legacy export still answers.
    const decade = { from: daysEndingToday(BROWSER_ZONE, 3650).from, to: daysEndingToday(BROWSER_ZONE, 1).to };
    await refreshed(page, () =>
      page.evaluate((hash) => (location.hash = hash), `range=custom&from=${decade.from}&to=${decade.to}&tz=UTC&interval=day`),
    );
    assert.equal(await page.getAttribute('#main', 'data-state'), 'error');
    const failed = await page.$$eval('.panel.failed', (panels) =>
      panels.map((p) => [p.id, p.querySelector('.panel-status')?.getAttribute('role')]),
    );
    assert.deepEqual(
      failed,
      ['overview', ...PANELS].map((id) => [`panel-${id}`, 'alert']),
    );
    assert.match((await page.textContent('#panel-conversations .panel-status')) ?? '', /^Statistics failed: .*10000 buckets/);
    assert.equal(await page.$$eval('#panel-conversations .chart > *', (children) => children.length), 0);
    assert.ok((await readTable(page, '#panel-agents table.numbers')).length > 0);
    assert.match((await page.textContent('#status')) ?? '', /^Updated with errors/);
    await refreshed(page, () => page.selectOption('#range', '30d'));
    await refreshed(page, () => page.selectOption('#tz', BROWSER_ZONE));
    assert.equal(await page.$$eval('.panel.failed', (panels) => panels.length), 0);
  });

  it('sorts the agents table by any column, from the keyboard', async () => {
    const header = (i: number) => `#panel-agents thead th:nth-child(${i + 1})`;
    assert.equal(await page.getAttribute(header(1), 'aria-sort'), 'descending');
    const column = async (i: number) => (await readTable(page, '#panel-agents table.numbers')).map((row) => row[i]!);
    const completed = (await column(1)).map(Number);
    assert.deepEqual(
      completed,
      [...completed].sort((a, b) => b - a),
    );

    await page.focus(`${header(3)} button`);
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute(header(3), 'aria-sort'), 'descending');
    assert.equal(await page.getAttribute(header(1), 'aria-sort'), 'none');
    const firstResponse = (await column(3)).map(Number);
    assert.deepEqual(
      firstResponse,
      [...firstResponse].sort((a, b) => b - a),
    );
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute(header(3), 'aria-sort'), 'ascending');
    assert.deepEqual(
      (await column(3)).map(Number),
      [...firstResponse].sort((a, b) => a - b),
    );

    await page.click(`${header(0)} button`);
    const names = await column(0);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
  });

  it("downloads a view's numbers as CSV, times in seconds", async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#panel-response-times .csv')]);
    const { from, to } = daysEndingToday(BROWSER_ZONE, 30);
    assert.equal(download.suggestedFilename(), `chat-service-response-times-${from}-to-${to}.csv`);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    const rows = await readTable(page, '#panel-response-times table.numbers');
    const header = 'Interval,Median first response (seconds),First replies,Median response (seconds),Replies';
    assert.equal(csv, [header, ...rows.map((row) => row.join(','))].join('\r\n') + '\r\n');
  });

  it('labels every control and chart, and reaches the controls in order with Tab', async () => {
    const unlabelled = await page.$$eval('#controls select, #controls input', (controls) =>
      controls.filter((c) => (c as HTMLInputElement).labels?.length !== 1).map((c) => c.id),
    );
    assert.deepEqual(unlabelled, []);
    const charts = await page.$$eval('.chart', (elements) =>
      elements.map((e) => [e.getAttribute('role') ?? '', e.getAttribute('aria-label') ?? ''] as const),
    );
    assert.equal(charts.length, 4);
    for (const [role, label] of charts) {
      assert.equal(role, 'img');
      assert.match(label, /table that follows/);
    }
    const captions = await page.$$eval('#views table.numbers', (tables) =>
      tables.map((table) => table.querySelector('caption')?.textContent ?? ''),
    );
    assert.equal(captions.length, 6);
    assert.ok(captions.every((caption) => caption.length > 0));

    await page.focus('#sign-out');
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    }
    assert.deepEqual(order, ['range', 'tz', 'interval', 'group', 'agent', 'tag', 'refresh']);
    // Focus is on Refresh: Enter refreshes. (The controls are native selects and inputs, operable by keyboard.)
    await refreshed(page, () => page.keyboard.press('Enter'));
    assert.equal(await page.getAttribute('#main', 'data-state'), 'ready');
  });

  it('sends a token revoked meanwhile back to the sign-in at the next refresh', async () => {
    const created = (await t.client(demo.token).post('/v2/tokens', { name: 'soon revoked', scopes: ['statistics:read'] })).body;
    await page.click('#sign-out');
    // Signing out forgets the account's filter lists; the next sign-in lists its own.
    assert.deepEqual(await page.$$eval('#group option, #tag option, #agent option', (options) => options.map((o) => o.textContent)), [
      'All groups',
      'All agents',
      'All tags',
    ]);
    await refreshed(page, () => signIn(page, created.token));
    await page.waitForSelector('#tag option:nth-child(2)', { state: 'attached' });
    await t.client(demo.token).delete(`/v2/tokens/${created.id}`);
    await page.click('#refresh');
    await page.waitForSelector('#sign-in:not([hidden])');
    assert.match((await page.textContent('#sign-in-error')) ?? '', /unknown or has been revoked/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('loaded nothing from outside the service, and logged no errors', () => {
    const outside = requests.filter((r) => !r.url.startsWith(base) && !r.url.startsWith('blob:') && !r.url.startsWith('data:'));
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
  });
});

/**
 * `npm run bench:inbox`: how long a chat message takes between a visitor and the agent inbox (/inbox in Chromium),
 * against the real service (`chat-service serve`, bench/http/harness.ts), per engine, BENCH_MESSAGES (50) each way,
 * one at a time. The visitor is the widget on a host page of another origin (src/test/widget-host.ts) in a second
 * browser context, or with BENCH_VISITOR=api contact messages posted from here and the account's stream read here.
 *
 * - visitor → inbox: the visitor's send until the message is in the inbox's open thread, beside its arrival at a
 *   bare stream client (GET /v2/events read by this process): the baseline of the same run;
 * - inbox → visitor: the agent's Enter until the visitor has the message (in the widget, or at the stream client),
 *   beside the agent's own reply in its thread (its POST answered).
 *
 * Both pages stamp messages with a MutationObserver; times are epoch milliseconds with sub-millisecond precision
 * (performance.timeOrigin + now()), the same clock in the pages and here.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_MESSAGES=50               messages each way
 *   BENCH_VISITOR=widget            or api
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh database
 * Needs Debian's Chromium at /usr/bin/chromium.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { call, freshStorage, startService, type Engine } from './http/harness.ts';
import { percentile } from './dataset.ts';
import { startHostPage } from '../src/test/widget-host.ts';
import { launchBrowser, signInToInbox } from '../src/test/browser.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50);
const TARGET_P95_MS = 300;
const epoch = () => performance.timeOrigin + performance.now();
/** `widget` (default): the visitor is the widget on a host page of another origin; `api`: /v2 calls from here. */
const VISITOR = process.env.BENCH_VISITOR ?? 'widget';

/** Stamps, in a page, when each message (by its text) is added under `root` (a MutationObserver). */
const STAMP = (root: string) => `{
  window.arrivals = {};
  new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    for (const record of records) for (const node of record.addedNodes) {
      const text = (node.querySelector?.('.body') ?? node).textContent;
      // The widget says who wrote a message to screen readers first ("Agent: …").
      for (const key of text ? [text, text.replace(/^[^:]*: /, '')] : []) if (!(key in window.arrivals)) window.arrivals[key] = at;
    }
  }).observe(${root}, { childList: true, subtree: true });
}`;
const arrivedIn = (page: Page, text: string) => page.evaluate(`window.arrivals[${JSON.stringify(text)}]`) as Promise<number | undefined>;

/** The account's event stream read here: when each message (by its text) arrived. */
function openStream(base: string, token: string): { arrivals: Map<string, number>; connected: Promise<void>; close(): void } {
  const arrivals = new Map<string, number>();
  const controller = new AbortController();
  let ready: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (ready = resolve));
  (async () => {
    const response = await fetch(`${base}/v2/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const at = epoch();
      buffer += decoder.decode(value, { stream: true });
      if (buffer.includes(': connected')) ready();
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        const text = data ? JSON.parse(data.slice(6)).data?.message?.content?.text : undefined;
        if (text) arrivals.set(text, at);
      }
    }
  })().catch(() => undefined);
  return { arrivals, connected, close: () => controller.abort() };
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

interface Figures {
  visitorStream: number[];
  visitorToInbox: number[];
  inboxPost: number[];
  inboxToVisitor: number[];
}

async function benchEngine(engine: Engine, page: Page, visitorPage: Page): Promise<Figures> {
  const storage = await freshStorage(engine);
  // The per-visitor message limit (20 a minute) would measure itself.
  const service = await startService(storage, { WIDGET_MESSAGES_PER_MINUTE: '1000000' });
  const host =
    VISITOR === 'widget'
      ? await startHostPage(service.url, (await call(service.url, service.token, 'GET', '/v2/account')).widget_key)
      : null;
  try {
    const base = service.url;
    const agent = await call(base, service.token, 'POST', '/v2/agents', { email: 'bench@example.com', nickname: 'Bench' });
    await call(base, service.token, 'PATCH', `/v2/agents/${agent.id}`, { status: 'online' });
    const stream = openStream(base, service.token);
    await stream.connected;
    await signInToInbox(page, base, service.token, agent.id);

    /** The visitor's first message opens the conversation; answers the time its send started. */
    let send: (text: string) => Promise<number>;
    if (host) {
      await call(base, service.token, 'PATCH', '/v2/account', { widget_origins: [host.origin] });
      await visitorPage.goto(`${host.origin}/`);
      await visitorPage.locator('.launcher').click();
      send = async (text) =>
        (await visitorPage.evaluate(`{
          const root = document.querySelector('chat-service-widget').shadowRoot;
          const input = root.querySelector('textarea');
          input.value = ${JSON.stringify(text)};
          const at = performance.timeOrigin + performance.now();
          root.querySelector('form').requestSubmit();
          at;
        }`)) as number;
    } else {
      const contact = await call(base, service.token, 'POST', '/v2/contacts', { name: 'Visitor' });
      let conversationId = '';
      send = async (text) => {
        const at = epoch();
        if (!conversationId)
          conversationId = (await call(base, service.token, 'POST', '/v2/conversations', { contact_id: contact.id, text })).id;
        else await call(base, service.token, 'POST', `/v2/conversations/${conversationId}/messages`, { sub_type: 'contact', text });
        return at;
      };
    }
    await send('Hello');
    await page.locator('.conversations [data-id]', { hasText: 'Hello' }).click();
    await page.locator('#messages .body', { hasText: 'Hello' }).waitFor();
    await page.evaluate(STAMP("document.getElementById('messages')"));
    if (host) await visitorPage.evaluate(STAMP("document.querySelector('chat-service-widget').shadowRoot"));
    /** When the visitor has the message: in the widget, or at the visitor's stream client here. */
    const atVisitor = (text: string) => (host ? arrivedIn(visitorPage, text) : stream.arrivals.get(text));

    const figures: Figures = { visitorStream: [], visitorToInbox: [], inboxPost: [], inboxToVisitor: [] };
    for (let i = 0; i < MESSAGES; i++) {
      const text = `visitor ${i}`;
      const sent = await send(text);
      figures.visitorStream.push((await until(() => stream.arrivals.get(text), `${text} on the stream`)) - sent);
      figures.visitorToInbox.push((await until(() => arrivedIn(page, text), `${text} in the inbox`)) - sent);
      await sleep(20);
    }
    for (let i = 0; i < MESSAGES; i++) {
      const text = `agent ${i}`;
      const sent = (await page.evaluate(`{
        const reply = document.getElementById('reply');
        reply.value = ${JSON.stringify(text)};
        const at = performance.timeOrigin + performance.now();
        document.getElementById('composer').requestSubmit();
        at;
      }`)) as number;
      figures.inboxToVisitor.push((await until(() => atVisitor(text), `${text} at the visitor`)) - sent);
      figures.inboxPost.push((await until(() => arrivedIn(page, text), `${text} in the thread`)) - sent);
      await sleep(20);
    }
    stream.close();
    return figures;
  } finally {
    await host?.close();
    await service.stop();
    await storage.drop();
  }
}

const fixed = (value: number) => value.toFixed(1);
function row(name: string, samples: number[]): string {
  return `| ${name} | ${fixed(percentile(samples, 50))} | ${fixed(percentile(samples, 95))} | ${fixed(Math.max(...samples))} |`;
}

const browser = await launchBrowser();
try {
  console.log(
    `bench:inbox, visitor: ${VISITOR}, ${MESSAGES} messages each way, one at a time; load average before: ${os.loadavg().map(fixed).join(' ')}`,
  );
  for (const engine of ENGINES) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const visitorContext = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const figures = await benchEngine(engine, await context.newPage(), await visitorContext.newPage());
    await context.close();
    await visitorContext.close();
    const p95 = percentile(figures.visitorToInbox, 95);
    const back = percentile(figures.inboxToVisitor, 95);
    console.log(`\n${engine} (load average ${os.loadavg().map(fixed).join(' ')})\n`);
    console.log('| ms | p50 | p95 | max |\n|---|---:|---:|---:|');
    console.log(row('visitor → event at a bare stream client (baseline)', figures.visitorStream));
    console.log(row('**visitor → inbox thread**', figures.visitorToInbox));
    console.log(row("inbox's own reply in its thread (POST answered)", figures.inboxPost));
    console.log(row(`**inbox → visitor ${VISITOR === 'widget' ? 'widget' : 'stream'}**`, figures.inboxToVisitor));
    console.log(
      `\ntarget p95 ≤ ${TARGET_P95_MS} ms: visitor → inbox ${fixed(p95)} ms ${p95 <= TARGET_P95_MS ? 'met' : 'NOT met'}, ` +
        `inbox → visitor ${fixed(back)} ms ${back <= TARGET_P95_MS ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  await browser.close();
}

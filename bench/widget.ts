/**
 * `npm run bench:widget`: what the chat widget costs the page that embeds it (issue 25 §2's budget: at most 30 KB
 * gzipped, the host's main thread blocked at most 50 ms). Its size as served (raw, gzip, brotli), then in Debian's
 * Chromium the host page of src/test/widget-host.ts (another origin, strict CSP) loaded BENCH_RUNS times with the
 * widget and, as the baseline of the same run, without it: the main thread's busy time (Chromium's TaskDuration
 * and ScriptDuration, through the DevTools protocol) from navigation to the widget ready and idle, the long tasks
 * (50 ms or more) a long-task observer on the page saw, and the same for opening the panel and sending a message.
 *
 * Environment: BENCH_RUNS (default 10). Needs /usr/bin/chromium.
 */
import { loadavg } from 'node:os';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { startTestApp } from '../src/test/harness.ts';
import { itemAt } from '../src/arrays.ts';
import { launchBrowser, listen } from '../src/test/browser.ts';
import { startHostPage } from '../src/test/widget-host.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);

interface Sample {
  /** Main-thread busy time (Chromium's TaskDuration), ms. */
  taskMs: number;
  /** Of which running JavaScript (ScriptDuration), ms. */
  scriptMs: number;
  /** The widget's own start-up task (its `chat-widget:start` User Timing measure), ms; 0 without it. */
  startMs: number;
  /** Long tasks (50 ms or more) the page's long-task observer saw, by duration in ms. */
  longTasks: number[];
}

const median = (values: number[]) =>
  itemAt(
    [...values].sort((a, b) => a - b),
    Math.floor(values.length / 2),
  );
const max = (values: number[]) => Math.max(0, ...values);

/** Main-thread time of the page so far, in ms (Chromium's cumulative TaskDuration and ScriptDuration). */
async function busy(cdp: CDPSession): Promise<{ task: number; script: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { task: value('TaskDuration'), script: value('ScriptDuration') };
}

/** Waits until the page has been idle a moment (the widget starts in an idle callback). */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(() => requestIdleCallback(resolve), 200))));

/** What the page itself recorded: its long tasks and the widget's start-up measure. */
const recorded = (page: Page) =>
  page.evaluate(() => ({
    longTasks: (window as unknown as { hostLog: { longTasks: { duration: number }[] } }).hostLog.longTasks.map((t) => t.duration),
    startMs: performance.getEntriesByName('chat-widget:start')[0]?.duration ?? 0,
  }));

/** One first-time visit (a fresh browser context: nothing cached, nothing stored); with the widget, then a chat. */
async function visit(browser: Browser, url: string, withWidget: boolean): Promise<{ load: Sample; chat: Sample | null }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(url);
  if (withWidget) await page.waitForFunction(() => (window as unknown as { hostLog: { ready: number } }).hostLog.ready === 1);
  await settle(page);
  const loaded = await busy(cdp);
  const atLoad = await recorded(page);
  const load = { taskMs: loaded.task, scriptMs: loaded.script, ...atLoad };
  let chat: Sample | null = null;
  if (withWidget) {
    await page.locator('chat-service-widget .launcher').click();
    await page.locator('chat-service-widget textarea').fill('Hello from the benchmark');
    await page.keyboard.press('Enter');
    await page.locator('chat-service-widget .msg[data-at]', { hasText: 'Hello from the benchmark' }).waitFor();
    await settle(page);
    const after = await busy(cdp);
    const all = await recorded(page);
    chat = {
      taskMs: after.task - loaded.task,
      scriptMs: after.script - loaded.script,
      startMs: 0,
      longTasks: all.longTasks.slice(atLoad.longTasks.length),
    };
  }
  await context.close();
  return { load, chat };
}

function row(name: string, samples: Sample[]): string {
  const tasks = samples.flatMap((s) => s.longTasks);
  return [
    name.padEnd(42),
    median(samples.map((s) => s.taskMs))
      .toFixed(1)
      .padStart(8),
    median(samples.map((s) => s.scriptMs))
      .toFixed(1)
      .padStart(10),
    `${median(samples.map((s) => s.startMs)).toFixed(1)} / ${max(samples.map((s) => s.startMs)).toFixed(1)}`.padStart(14),
    `${tasks.length} (${tasks.map((d) => d.toFixed(0)).join(', ') || '-'})`.padStart(16),
  ].join(' ');
}

async function main() {
  const t = await startTestApp();
  const base = await listen(t);
  const account = await t.account();
  const key = (await t.client(account.token).get('/v2/account')).body.widget_key;
  const host = await startHostPage(base, key);
  await t.client(account.token).patch('/v2/account', { widget_origins: [host.origin] });

  const sizes: Record<string, number> = {};
  for (const encoding of ['identity', 'gzip', 'br']) {
    const res = await t.client().request({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': encoding } });
    sizes[encoding] = res.raw.rawPayload.length;
  }

  const browser = await launchBrowser();
  const baseline: Sample[] = [];
  const widget: Sample[] = [];
  const chat: Sample[] = [];
  // One warm-up of each, then alternating, so both see the same machine.
  await visit(browser, `${host.origin}/?widget=0`, false);
  await visit(browser, `${host.origin}/`, true);
  for (let run = 0; run < RUNS; run++) {
    baseline.push((await visit(browser, `${host.origin}/?widget=0`, false)).load);
    const withWidget = await visit(browser, `${host.origin}/`, true);
    widget.push(withWidget.load);
    chat.push(withWidget.chat as Sample);
  }
  await browser.close();
  await host.close();
  await t.close();

  console.log(`widget.js: ${sizes.identity} bytes, ${sizes.gzip} gzip, ${sizes.br} brotli (budget: 30720 gzipped)`);
  console.log(
    `Chromium, ${RUNS} first visits each; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${''.padEnd(42)} ${'task ms'.padStart(8)} ${'script ms'.padStart(10)} ${'start p50/max'.padStart(14)} ${'long tasks (ms)'.padStart(16)}`,
  );
  console.log(row('page without the widget (baseline)', baseline));
  console.log(row('page with the widget, until ready and idle', widget));
  console.log(row('then open, send, see the answer', chat));
  const added = median(widget.map((s) => s.taskMs)) - median(baseline.map((s) => s.taskMs));
  const starts = widget.map((s) => s.startMs);
  console.log(
    `the widget's start-up task: ${median(starts).toFixed(1)} ms median, ${max(starts).toFixed(1)} ms at most (budget: 50 ms); ` +
      `main-thread work it adds to a load, fetching and parsing included: ${added.toFixed(1)} ms (median difference)`,
  );
}

await main();

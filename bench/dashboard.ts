/**
 * `npm run bench:dashboard`: the whole dashboard in Chromium over the demo dataset
 * (bench/dataset.ts), 30 days by day in the dataset's zone, as a user opens it: the
 * real server listening on a port, the page loaded and signed in, then reloaded
 * BENCH_RUNS times (after 2 warm-up loads). Each load is timed by the page itself:
 * from navigation start to every view drawn, and its refresh (the batched
 * POST /v2/statistics and the legacy totals, in parallel, then drawing).
 *
 * Environment:
 *   BENCH_CONVERSATIONS  dataset size (default 100000)
 *   BENCH_RUNS           measured page loads (default 10)
 *   BENCH_ENGINES        comma-separated: postgres (default), pglite
 *   BENCH_DATABASE_URL   as for bench:stats
 * Needs Debian's Chromium at /usr/bin/chromium.
 */
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { loadConfig } from '../src/config.ts';
import { createToken } from '../src/tokens/service.ts';
import { SIZE, TIMEZONE, ensureDataset, openBenchDb, percentile } from './dataset.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WARMUP_RUNS = 2;
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres').split(',').map((name) => name.trim());
const TARGET_MS = 2000;
const DAYS = 30;

interface Load {
  /** Navigation start to every view drawn. */
  page: number;
  /** The refresh: both requests, then drawing. */
  refresh: number;
  statistics: number;
  totals: number;
  statisticsRequests: number;
}

/** Waits for the page's first refresh to finish, and reads its timings. */
async function timings(page: Page): Promise<Load> {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('main')?.dataset.state ?? ''), undefined, {
    timeout: 60_000,
  });
  // (No named functions inside: tsx would wrap them in a helper the page does not have.)
  const load = await page.evaluate(() => {
    const main = document.getElementById('main') as HTMLElement;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      path: new URL(r.name).pathname,
      ms: r.responseEnd - r.startTime,
    }));
    return {
      state: main.dataset.state,
      page: Number(main.dataset.readyAt),
      refresh: Number(main.dataset.refreshMs),
      statistics: resources.filter((r) => r.path === '/v2/statistics').map((r) => r.ms),
      totals: resources.filter((r) => r.path === '/stats/totals').map((r) => r.ms),
    };
  });
  if (load.state !== 'ready') throw new Error(`the dashboard ended in state ${load.state}: ${await page.textContent('#status')}`);
  const [statistics] = load.statistics;
  const [totals] = load.totals;
  if (statistics === undefined || totals === undefined)
    throw new Error('the dashboard loaded without asking /v2/statistics and /stats/totals');
  return {
    page: load.page,
    refresh: load.refresh,
    statistics,
    totals,
    statisticsRequests: load.statistics.length,
  };
}

async function benchEngine(engine: string): Promise<Load[]> {
  const db = await openBenchDb(engine);
  try {
    const { accountId, endsAt } = await ensureDataset(db);
    const { token } = await createToken({ db, now: () => new Date() }, accountId, { name: 'bench dashboard', scopes: ['statistics:read'] });
    const config = { ...loadConfig({}), rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 };
    const app = await buildApp({ db, config, now: () => new Date(), metrics: createMetrics() }, { logger: false });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      // The last 30 days of the history, which ends when the dataset was generated.
      const to = new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(endsAt);
      const from = new Date(Date.parse(`${to}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
      const page = await (await browser.newContext({ timezoneId: TIMEZONE, viewport: { width: 1280, height: 900 } })).newPage();
      await page.goto(`${address}/dashboard#range=custom&from=${from}&to=${to}&tz=${encodeURIComponent(TIMEZONE)}&interval=day`);
      await page.fill('#token', token);
      await page.press('#token', 'Enter');
      await timings(page);
      const loads: Load[] = [];
      for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
        await page.reload();
        const load = await timings(page);
        if (run >= WARMUP_RUNS) loads.push(load);
        console.error(`${engine}: load ${run + 1}: ${load.page.toFixed(0)} ms${run < WARMUP_RUNS ? ' (warm-up)' : ''}`);
      }
      return loads;
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    await db.close();
  }
}

const rows: string[][] = [];
for (const engine of ENGINES) {
  const loads = await benchEngine(engine);
  const figure = (pick: (load: Load) => number) => {
    const samples = loads.map(pick);
    return [`${percentile(samples, 50).toFixed(0)} ms`, `${percentile(samples, 95).toFixed(0)} ms`];
  };
  const pageP50 = percentile(
    loads.map((load) => load.page),
    50,
  );
  const requests = [...new Set(loads.map((load) => load.statisticsRequests))].join(', ');
  rows.push([
    engine,
    ...figure((load) => load.page),
    ...figure((load) => load.refresh),
    ...figure((load) => load.statistics),
    ...figure((load) => load.totals),
    requests,
    `<${TARGET_MS} ms ${pageP50 < TARGET_MS ? 'met' : 'MISSED'}`,
  ]);
}
const header = [
  'engine',
  'page p50',
  'page p95',
  'refresh p50',
  'refresh p95',
  'POST /v2/statistics p50',
  'p95',
  'GET /stats/totals p50',
  'p95',
  'statistics requests per load',
  'target',
];
console.log(
  `\nThe dashboard in Chromium: ${SIZE} conversations, last ${DAYS} days by day (${TIMEZONE}), ${RUNS} page loads (after ${WARMUP_RUNS} warm-up)\n`,
);
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);

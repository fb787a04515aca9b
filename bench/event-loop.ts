/**
 * `npm run bench:event-loop`: what running PGlite in a worker thread buys and costs.
 * Baseline, measured in the same run: PGlite on the main thread behind the same
 * node-postgres adapter. Figures: the event loop's worst stall while a heavy
 * query runs (what every other request waits), and the latency of small queries
 * (what the thread hop costs).
 */
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { openDb } from '../src/db/db.ts';
import { itemAt } from '../src/arrays.ts';

const SMALL_QUERIES = Number(process.env.BENCH_SMALL_QUERIES ?? 2000);
const HEAVY_ROWS = Number(process.env.BENCH_HEAVY_ROWS ?? 5_000_000);

interface Engine {
  name: string;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

async function mainThreadPglite(): Promise<Engine> {
  const lite = await PGlite.create('memory://');
  const pool = new pg.Pool({ ...createPgConfig(lite), max: 1 });
  return {
    name: 'PGlite on the main thread (baseline)',
    query: (sql, params) => pool.query(sql, params as unknown[]),
    close: async () => {
      await pool.end();
      await lite.close();
    },
  };
}

async function workerPglite(): Promise<Engine> {
  const db = await openDb({ dataDir: 'memory' });
  return { name: 'PGlite in a worker thread (the service)', query: (sql, params) => db.query(sql, params), close: () => db.close() };
}

function percentile(sorted: number[], p: number): number {
  return itemAt(sorted, Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length)));
}

async function measure(engine: Engine) {
  await engine.query('select 1');
  const latencies: number[] = [];
  for (let i = 0; i < SMALL_QUERIES; i++) {
    const start = performance.now();
    await engine.query('select $1::int as n', [i]);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);

  // A 5 ms ticker stands in for other requests: the longest gap between its
  // ticks is how long they would have waited.
  let last = performance.now();
  let maxStallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxStallMs = Math.max(maxStallMs, now - last);
    last = now;
  }, 5);
  const start = performance.now();
  await engine.query(`select count(*) from generate_series(1, ${HEAVY_ROWS})`);
  const heavyMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 30));
  clearInterval(ticker);
  return { smallP50: percentile(latencies, 50), smallP95: percentile(latencies, 95), heavyMs, maxStallMs };
}

const rows: [string, Awaited<ReturnType<typeof measure>>][] = [];
for (const open of [mainThreadPglite, workerPglite]) {
  const engine = await open();
  rows.push([engine.name, await measure(engine)]);
  await engine.close();
}

console.log(`\n${SMALL_QUERIES} small queries, then one count over ${HEAVY_ROWS.toLocaleString('en')} rows\n`);
console.log('| engine | small query p50 | small query p95 | heavy query | worst event-loop stall |');
console.log('|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(
    `| ${name} | ${r.smallP50.toFixed(2)} ms | ${r.smallP95.toFixed(2)} ms | ${r.heavyMs.toFixed(0)} ms | ${r.maxStallMs.toFixed(0)} ms |`,
  );
}

/**
 * `npm run bench:stats`: POST /v2/statistics against hand-written bare SQL
 * computing the same aggregates over the same rows, on PGlite and PostgreSQL.
 *
 * Environment:
 *   BENCH_CONVERSATIONS  dataset size (default 100000, about 10 messages each)
 *   BENCH_RUNS           measured runs per case and side (default 20)
 *   BENCH_ENGINES        comma-separated: pglite,postgres (default both)
 *   BENCH_DATABASE_URL   PostgreSQL server database (default postgres://postgres@127.0.0.1:5432/chat_bench, created if missing)
 * The dataset (bench/dataset.ts) is generated once per engine and size and reused by later runs.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { itemAt } from '../src/arrays.ts';
import { createToken } from '../src/tokens/service.ts';
import { SIZE, TIMEZONE, ensureDataset, openBenchDb, percentile } from './dataset.ts';
import { BASELINES, benchCases, type BenchCase, type Totals } from './cases.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP_RUNS = 3;
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((name) => name.trim());

interface Measurement {
  engine: string;
  bench: BenchCase;
  service: number[];
  bare: number[];
  /** Why the service side has no figures, or whether its totals equal the bare SQL's. */
  check: string;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
}

function totalsOf(body: Record<string, { count: number; value: number }>): Totals {
  return Object.fromEntries(Object.entries(body).map(([key, entry]) => [key, { count: entry.count, value: entry.value }]));
}

function sameTotals(a: Totals, b: Totals): boolean {
  return Object.entries(b).every(([key, expected]) => {
    const actual = a[key];
    return (
      actual && actual.count === expected.count && Math.abs(actual.value - expected.value) <= 1e-6 * Math.max(1, Math.abs(expected.value))
    );
  });
}

async function measure(engine: string, db: Db, app: FastifyInstance, token: string, bench: BenchCase): Promise<Measurement> {
  const request = () =>
    app.inject({
      method: 'POST',
      url: `/v2/statistics?timezone=${TIMEZONE}`,
      headers: { authorization: `Bearer ${token}` },
      payload: bench.body,
    });
  const bare = () => BASELINES[bench.id](db, bench);
  const probe = await request();
  const bareTotals = await bare();
  const measurement: Measurement = { engine, bench, service: [], bare: [], check: '' };
  if (probe.statusCode !== 200) {
    measurement.check = `service answered ${probe.statusCode}: ${probe.body.slice(0, 120)}`;
  } else {
    measurement.check = sameTotals(totalsOf(probe.json()), bareTotals) ? 'totals match' : 'TOTALS DIFFER';
  }
  const serviceWorks = probe.statusCode === 200;
  for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
    // Interleaved, so both sides meet the same cache conditions.
    const service = serviceWorks ? await timed(request) : null;
    const baseline = await timed(bare);
    if (run < WARMUP_RUNS) continue;
    if (service) measurement.service.push(service.ms);
    measurement.bare.push(baseline.ms);
  }
  return measurement;
}

async function benchEngine(engine: string): Promise<Measurement[]> {
  const db = await openBenchDb(engine);
  try {
    const { accountId, endsAt } = await ensureDataset(db);
    const { token } = await createToken({ db, now: () => new Date() }, accountId, { name: 'bench', scopes: ['statistics:read'] });
    const config = { ...loadConfig({}), rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 };
    const app = await buildApp({ db, config, now: () => new Date(), metrics: createMetrics() }, { logger: false });
    await app.ready();
    try {
      const measurements: Measurement[] = [];
      for (const bench of benchCases(accountId, TIMEZONE, endsAt)) {
        console.error(`${engine}: ${bench.title}`);
        measurements.push(await measure(engine, db, app, token, bench));
      }
      return measurements;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

function printTable(measurements: Measurement[]): void {
  const ms = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(1)} ms`);
  const header = ['engine', 'case', 'service p50', 'service p95', 'bare SQL p50', 'bare SQL p95', 'ratio p50', 'target', 'check'];
  const lines = measurements.map((m) => {
    const serviceP50 = m.service.length ? percentile(m.service, 50) : undefined;
    const bareP50 = percentile(m.bare, 50);
    const target = m.bench.targets[m.engine as 'pglite' | 'postgres'];
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    const targetText =
      serviceP50 === undefined
        ? '-'
        : [target !== undefined ? `≤${target} ms ${verdict(serviceP50 <= target)}` : null, `≤3x ${verdict(serviceP50 <= 3 * bareP50)}`]
            .filter(Boolean)
            .join(', ');
    return [
      m.engine,
      m.bench.title,
      ms(serviceP50),
      ms(m.service.length ? percentile(m.service, 95) : undefined),
      ms(bareP50),
      ms(percentile(m.bare, 95)),
      serviceP50 === undefined ? '-' : `${(serviceP50 / bareP50).toFixed(2)}x`,
      targetText,
      m.check,
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => itemAt(line, i).length)));
  const row = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(itemAt(widths, i))).join(' | ')} |`;
  console.log(
    `\nPOST /v2/statistics vs bare SQL: ${SIZE} conversations, ${RUNS} runs each (after ${WARMUP_RUNS} warm-up), timezone ${TIMEZONE}\n`,
  );
  console.log(row(header));
  console.log(row(widths.map((width) => '-'.repeat(width))));
  for (const line of lines) console.log(row(line));
}

const results: Measurement[] = [];
for (const engine of ENGINES) results.push(...(await benchEngine(engine)));
printTable(results);

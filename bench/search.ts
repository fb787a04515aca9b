/**
 * `npm run bench:search`: POST /v2/conversations/search (issue 23.5) against the same SQL statements run bare (the
 * search repository called directly, outside the heavy lane and HTTP), on the statistics benchmark's dataset.
 *
 * Environment: BENCH_CONVERSATIONS, BENCH_RUNS (default 200: a p95 of 20 runs is one run), BENCH_ENGINES, BENCH_DATABASE_URL as for bench:stats
 * (bench/dataset.ts builds or reuses the dataset).
 */
import { buildApp } from '../src/app.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { firstRow } from '../src/db/rows.ts';
import { createToken } from '../src/tokens/service.ts';
import { searchConversations, snippets, type SearchFilters } from '../src/search/repository.ts';
import type { SearchBody } from '../src/search/schema.ts';
import { SIZE, ensureDataset, openBenchDb, percentile } from './dataset.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP_RUNS = 3;
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((name) => name.trim());

/** Targets of issue 23.5: p95 on PostgreSQL; PGlite may take 3x. */
const TARGETS = { list: 30, fulltext: 100 };

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** A word in about 1% of the account's messages (from a sample's document frequencies). */
async function onePercentWord(db: Db, accountId: string): Promise<{ word: string; share: number }> {
  const sample = 20_000;
  const { rows } = await db.query<{ word: string; ndoc: number }>(
    `select word, ndoc from ts_stat(format('select text_search from messages where account_id = %L limit ${sample}', $1::text))
     where length(word) > 3 order by abs(ndoc - ${sample / 100}) limit 1`,
    [accountId],
  );
  const { word, ndoc } = firstRow(rows);
  return { word, share: ndoc / sample };
}

interface Row {
  engine: string;
  name: string;
  target: number;
  service: number[];
  bare: number[];
}

async function benchEngine(engine: string): Promise<Row[]> {
  const db = await openBenchDb(engine);
  try {
    const { accountId } = await ensureDataset(db);
    const { token } = await createToken({ db, now: () => new Date() }, accountId, { name: 'bench', scopes: ['conversations:read'] });
    const config = { ...loadConfig({}), rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 };
    const app = await buildApp({ db, config, now: () => new Date(), metrics: createMetrics() }, { logger: false });
    await app.ready();
    const { word, share } = await onePercentWord(db, accountId);
    const cases: { name: string; target: number; body: SearchBody; filters: SearchFilters }[] = [
      {
        name: 'filtered list (closed, newest 20)',
        target: TARGETS.list,
        body: { status: ['closed'], size: 20 },
        filters: { status: ['closed'] },
      },
      {
        name: `full text "${word}" (${(share * 100).toFixed(1)}% of messages)`,
        target: TARGETS.fulltext,
        body: { query: word, size: 20 },
        filters: { query: word },
      },
    ];
    const rows: Row[] = [];
    try {
      for (const bench of cases) {
        console.error(`${engine}: ${bench.name}`);
        const service = () =>
          app
            .inject({ method: 'POST', url: '/v2/conversations/search', headers: { authorization: `Bearer ${token}` }, payload: bench.body })
            .then((res) => {
              if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
            });
        const bare = async () => {
          const found = await searchConversations(db, accountId, bench.filters, 'updated_at', null, 21);
          if (bench.filters.query)
            await snippets(
              db,
              accountId,
              found.slice(0, 20).map((row) => row.id),
              bench.filters.query,
            );
        };
        const row: Row = {
          engine,
          name: bench.name,
          target: engine === 'postgres' ? bench.target : 3 * bench.target,
          service: [],
          bare: [],
        };
        for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
          const s = await timed(service);
          const b = await timed(bare);
          if (run < WARMUP_RUNS) continue;
          row.service.push(s);
          row.bare.push(b);
        }
        rows.push(row);
      }
    } finally {
      await app.close();
    }
    return rows;
  } finally {
    await db.close();
  }
}

const results: Row[] = [];
for (const engine of ENGINES) results.push(...(await benchEngine(engine)));
console.log(
  `\nPOST /v2/conversations/search vs the same SQL bare: ${SIZE} conversations, ${RUNS} runs each (after ${WARMUP_RUNS} warm-up)\n`,
);
console.log('| engine | case | service p50 | service p95 | bare p50 | bare p95 | p95 ratio | target p95 |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const [sp50, sp95, bp50, bp95] = [percentile(r.service, 50), percentile(r.service, 95), percentile(r.bare, 50), percentile(r.bare, 95)];
  const ratio = sp95 / bp95;
  console.log(
    `| ${r.engine} | ${r.name} | ${sp50.toFixed(1)} ms | ${sp95.toFixed(1)} ms | ${bp50.toFixed(1)} ms | ${bp95.toFixed(1)} ms | ` +
      `${ratio.toFixed(2)}x ${ratio <= 1.3 ? 'met' : 'MISSED'} | ≤${r.target} ms ${sp95 <= r.target ? 'met' : 'MISSED'} |`,
  );
}

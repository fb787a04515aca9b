/**
 * "GET /v2/agents while statistics run": small requests against heavy ones on one
 * database. The service on a fresh store filled by `demo-data`, then GET /v2/agents at
 * one connection, first alone (the baseline column) and then while two clients ask
 * the legacy export for a year of monthly overview records without pause.
 *
 *   BENCH_CONTENTION_CONVERSATIONS=10000   size of the demo history
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call, freshStorage, load, startProcess, startService, type Engine, type Row } from './harness.ts';

const CONVERSATIONS = Number(process.env.BENCH_CONTENTION_CONVERSATIONS ?? 10_000);
const HEAVY_CLIENTS = 2;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function benchContention(engine: Engine): Promise<Row & { heavy: string }> {
  const storage = await freshStorage(engine);
  try {
    // The first start creates the account; demo-data fills it with the server stopped (PGlite: one process per directory).
    const first = await startService(storage);
    const account = await call<{ id: string }>(first.url, first.token, 'GET', '/v2/account');
    await first.stop();
    const filled = spawnSync(
      process.execPath,
      ['bin/chat-service.js', 'demo-data', '--account', account.id, '--conversations', String(CONVERSATIONS)],
      {
        cwd: ROOT,
        env: { ...process.env, ...storage.env },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (filled.status !== 0) throw new Error('demo-data failed');

    const service = await startProcess(
      [path.join(ROOT, 'bin/chat-service.js'), 'serve'],
      { ...storage.env, PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
      /"url":"(http:\/\/[^"]+)"/,
    );
    try {
      const headers = { authorization: `Bearer ${first.token}` };
      const agents = { url: service.url, connections: 1, headers, path: '/v2/agents' };
      const alone = await load(agents);

      const year = new Date();
      const from = `${year.getUTCFullYear() - 1}-${String(year.getUTCMonth() + 1).padStart(2, '0')}-01`;
      const overview = `${service.url}/stats/overview?apiKey=${first.apiKey}&interval=month&from=${from}`;
      let running = true;
      const heavyTimes: number[] = [];
      const statuses = new Map<number, number>();
      const heavyClient = async () => {
        while (running) {
          const started = performance.now();
          const response = await fetch(overview).catch(() => null);
          await response?.arrayBuffer();
          heavyTimes.push(performance.now() - started);
          statuses.set(response?.status ?? 0, (statuses.get(response?.status ?? 0) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: HEAVY_CLIENTS }, heavyClient);
      const contended = await load(agents);
      running = false;
      await Promise.all(clients);

      heavyTimes.sort((a, b) => a - b);
      const median = heavyTimes[Math.floor(heavyTimes.length / 2)] ?? 0;
      const heavy = `${heavyTimes.length} overview requests (statuses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}), median ${Math.round(median)} ms`;
      return {
        case: `GET /v2/agents while statistics run (${CONVERSATIONS} conversations)`,
        engine,
        connections: 1,
        service: contended,
        baseline: alone,
        // One connection cannot stop a running statement: a small request waits for the heavy one under way.
        target: 'p99 <= 1,000 ms',
        met: contended.p99 <= 1000,
        heavy,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await storage.drop();
  }
}

/**
 * `BENCH_CASES=pooler npm run bench:http`: the service on PostgreSQL with DATABASE_URL through PgBouncer 1.18 in
 * transaction mode (DATABASE_DIRECT_URL direct, so statements unnamed: parsed on every use) against the same service
 * connected directly (named statements), same database, same run, at 32 connections: GET conversation and the write
 * path (create with 3 messages, POST message), side by side (bench/http/side-by-side.ts). Target (issue 21 §1): the
 * pooled service keeps at least 85% of the direct one's throughput.
 *
 *   BENCH_PGBOUNCER_PORT=6432   the pooler's loopback port (a free one otherwise)
 */
import { startPgBouncer } from '../../src/test/pgbouncer.ts';
import * as harness from './harness.ts';
import type { Row, RunningProcess } from './harness.ts';
import { CONNECTIONS, seed, sideBySide, type Kind } from './side-by-side.ts';

export async function benchPooler(): Promise<{ rows: Row[]; note: string }> {
  const storage = await harness.freshStorage('postgres');
  const direct = storage.location;
  const port = Number(process.env.BENCH_PGBOUNCER_PORT) || undefined;
  // As many server connections as the service's pool (10): the cost measured is the hop and the re-parsing, not scarcity.
  const bouncer = await startPgBouncer({ upstream: direct, poolSize: 10, port });
  const services: RunningProcess[] = [];
  try {
    // The direct service creates the account (and prints its token); the pooled one, beside it on the same database,
    // is ready once it listens. Both run throughout; each is measured while the other idles.
    const directService = await harness.startService(storage);
    services.push(directService);
    const pooled = await harness.startServiceOnPort({ DATABASE_URL: bouncer.pooled(direct), DATABASE_DIRECT_URL: direct });
    services.push(pooled);
    const target = await seed(directService.url, directService.token);
    const kinds: Kind[] = ['get', 'create', 'message'];
    const figures = await sideBySide(target, { ...target, url: pooled.url }, kinds);
    const names: Record<Kind, string> = {
      get: 'GET conversation through PgBouncer',
      create: 'create, 3 imported messages, through PgBouncer',
      message: 'POST message through PgBouncer',
    };
    const rows = kinds.map((kind): Row => {
      const service = figures.b.get(kind)!;
      const baseline = figures.a.get(kind)!;
      return {
        case: names[kind],
        engine: 'postgres',
        connections: CONNECTIONS,
        service,
        baseline,
        target: '>= 85% of direct',
        met: service.requestsPerSecond >= 0.85 * baseline.requestsPerSecond,
      };
    });
    return {
      rows,
      note: 'postgres: pooler rows: "baseline" is the same service connected directly (named statements), two rounds averaged',
    };
  } finally {
    for (const service of services) await service.stop();
    await bouncer.stop();
    await storage.drop();
  }
}

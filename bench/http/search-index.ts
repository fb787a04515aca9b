/**
 * `BENCH_CASES=search-index npm run bench:http` (issue 23 §5): what the conversation search's full-text columns cost
 * the write path. Two services on storages of their own, migrated alike; on one, the generated `text_search` columns
 * of messages and contacts (and with them their GIN indexes, migration 220) are dropped before it starts. Create with
 * 3 imported messages and POST message at 32 connections, side by side (bench/http/side-by-side.ts). Target: the
 * write path with the index loses at most 10% to the one without.
 */
import { openDb } from '../../src/db/db.ts';
import * as harness from './harness.ts';
import type { Engine, Row, RunningProcess, Storage } from './harness.ts';
import { CONNECTIONS, seed, sideBySide, type Kind } from './side-by-side.ts';

async function dropSearchColumns(storage: Storage): Promise<void> {
  const db = await openDb(storage.engine === 'postgres' ? { databaseUrl: storage.env.DATABASE_URL } : { dataDir: storage.env.DATA_DIR });
  try {
    await db.query('alter table messages drop column text_search');
    await db.query('alter table contacts drop column text_search');
  } finally {
    await db.close();
  }
}

export async function benchSearchIndex(engine: Engine): Promise<Row[]> {
  const storages: Storage[] = [];
  const services: RunningProcess[] = [];
  try {
    const indexed = await harness.freshStorage(engine);
    storages.push(indexed);
    const withIndex = await harness.startService(indexed);
    services.push(withIndex);

    // Migrated by a first start (which prints the account's token), stopped, then started again without the columns.
    const bare = await harness.freshStorage(engine);
    storages.push(bare);
    const first = await harness.startService(bare);
    await first.stop();
    await dropSearchColumns(bare);
    const withoutIndex = await harness.startServiceOnPort(bare.env);
    services.push(withoutIndex);

    const kinds: Kind[] = ['create', 'message'];
    const figures = await sideBySide(await seed(withIndex.url, withIndex.token), await seed(withoutIndex.url, first.token), kinds);
    const names: Record<Kind, string> = {
      get: 'GET conversation with the search index',
      create: 'create, 3 imported messages, with the search index',
      message: 'POST message with the search index',
    };
    return kinds.map((kind): Row => {
      const service = figures.a.get(kind)!;
      const baseline = figures.b.get(kind)!;
      return {
        case: names[kind],
        engine,
        connections: CONNECTIONS,
        service,
        baseline,
        target: '>= 90% of without',
        met: service.requestsPerSecond >= 0.9 * baseline.requestsPerSecond,
      };
    });
  } finally {
    for (const service of services) await service.stop();
    for (const storage of storages) await storage.drop();
  }
}

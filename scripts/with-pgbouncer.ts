/**
 * The suite (or any command) as production may run: statements through PgBouncer in transaction mode, heavy reads on
 * a streaming replica that applies WAL 300 ms late (docs/operations.md "Connection pooling" and "Read replica").
 * Starts a fresh primary and replica (src/test/replica.ts) and a PgBouncer in front of the primary
 * (src/test/pgbouncer.ts), then runs the command with TEST_ENGINE=postgres, TEST_DATABASE_URL pointing at the pooler,
 * TEST_DATABASE_DIRECT_URL at the primary and TEST_DATABASE_READ_URL at the replica; stops them all when it ends.
 * Without a command, every test file (`npm run test:pgbouncer`). Afterwards it prints the heavy reads the test apps
 * ran on the replica and on the primary (src/test/harness.ts records them), and fails when the replica served none.
 *
 *   npm run test:pgbouncer
 *   node --import tsx scripts/with-pgbouncer.ts node --import tsx --test src/events/events.test.ts
 *
 * TEST_REPLICA_PORTS=<primary>,<replica>,<pgbouncer> picks the loopback ports (free ones otherwise);
 * TEST_REPLICA_DELAY_MS the replica's apply delay (default 300).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPgBouncer } from '../src/test/pgbouncer.ts';
import { suiteTestFiles } from './test-files.mjs';
import { startReplicaPair } from '../src/test/replica.ts';
import type { ReplicaState } from '../src/db/replica.ts';
import { firstRow } from '../src/db/rows.ts';
import { itemAt } from '../src/arrays.ts';

async function serverSetting(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return firstRow((await client.query<{ value: string }>('select current_setting($1) as value', [name])).rows).value;
  } finally {
    await client.end();
  }
}

const given = process.argv.slice(2);
const command = given.length > 0 ? given : [process.execPath, '--import', 'tsx', '--test', '--test-concurrency=2', ...suiteTestFiles()];

const [primaryPort, replicaPort, bouncerPort] = (process.env.TEST_REPLICA_PORTS ?? '').split(',').map((port) => Number(port) || undefined);
const applyDelayMs = Number(process.env.TEST_REPLICA_DELAY_MS ?? 300);
// The new primary runs with TEST_DATABASE_URL's autovacuum setting when one is given (CI's server has it off, which
// src/db/maintenance.test.ts checks for), so the suite meets the server it meets on its plain PostgreSQL pass.
const autovacuum = process.env.TEST_DATABASE_URL ? await serverSetting(process.env.TEST_DATABASE_URL, 'autovacuum') : undefined;
const pair = await startReplicaPair({
  primaryPort,
  replicaPort,
  applyDelayMs,
  prefix: 'with-pgbouncer-',
  settings: autovacuum ? { autovacuum } : {},
});
// As many server connections per database as an instance's pool: the point is transaction pooling (each transaction
// on any server session), not scarcity, which src/db/pooler.test.ts covers.
const bouncer = await startPgBouncer({ upstream: pair.primaryUrl(), poolSize: 10, port: bouncerPort }).catch(async (error) => {
  await pair.stop();
  throw error;
});
const readsDir = mkdtempSync(path.join(os.tmpdir(), 'with-pgbouncer-reads-'));
console.log(
  `with-pgbouncer: PostgreSQL primary on 127.0.0.1:${pair.primaryPort}, PgBouncer (transaction mode) on 127.0.0.1:${bouncer.port} in front of it, ` +
    `replica on 127.0.0.1:${pair.replicaPort} applying WAL ${applyDelayMs} ms late`,
);
const child = spawn(itemAt(command, 0), command.slice(1), {
  stdio: 'inherit',
  env: {
    ...process.env,
    TEST_ENGINE: 'postgres',
    TEST_DATABASE_URL: bouncer.pooled(pair.primaryUrl()),
    TEST_DATABASE_DIRECT_URL: pair.primaryUrl(),
    TEST_DATABASE_READ_URL: pair.replicaUrl(),
    REPLICA_READS_DIR: readsDir,
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
let code = await new Promise<number>((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
await bouncer.stop();
await pair.stop();

const records = existsSync(readsDir)
  ? readdirSync(readsDir).map((name) => JSON.parse(readFileSync(path.join(readsDir, name), 'utf8')) as Omit<ReplicaState, 'lagMs'>)
  : [];
rmSync(readsDir, { recursive: true, force: true });
const total = (pick: (record: Omit<ReplicaState, 'lagMs'>) => Record<string, number>) => {
  const sum: Record<string, number> = {};
  for (const record of records) for (const [key, n] of Object.entries(pick(record))) sum[key] = (sum[key] ?? 0) + n;
  return sum;
};
const reads = total((record) => record.reads);
const fallbacks = total((record) => record.fallbacks);
console.log(
  `with-pgbouncer: heavy reads of the test apps: ${reads.replica ?? 0} on the replica, ${reads.primary ?? 0} on the primary ` +
    `(fallbacks: ${Object.entries(fallbacks)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ')})`,
);
if (given.length === 0 && !((reads.replica ?? 0) > 0)) {
  console.error('with-pgbouncer: the replica served no read: TEST_DATABASE_READ_URL was not used');
  code ||= 1;
}
process.exit(code);

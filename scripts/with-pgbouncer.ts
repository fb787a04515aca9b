/**
 * The suite (or any command) through PgBouncer in transaction mode, as production runs behind one
 * (docs/operations.md "Connection pooling"): starts a PgBouncer in front of the server TEST_DATABASE_URL
 * names (src/test/pgbouncer.ts), then runs the command with TEST_ENGINE=postgres,
 * TEST_DATABASE_URL pointing at the pooler and TEST_DATABASE_DIRECT_URL at the server, and stops
 * PgBouncer when it ends. Without a command, every test file on PostgreSQL (`npm run test:pgbouncer`).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run test:pgbouncer
 *   TEST_DATABASE_URL=… node --import tsx scripts/with-pgbouncer.ts node --import tsx --test src/events/events.test.ts
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startPgBouncer } from '../src/test/pgbouncer.ts';

const direct = process.env.TEST_DATABASE_URL;
if (!direct) {
  console.error('with-pgbouncer: set TEST_DATABASE_URL to the PostgreSQL server to put PgBouncer in front of');
  process.exit(2);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const given = process.argv.slice(2);
const command =
  given.length > 0
    ? given
    : [process.execPath, '--import', 'tsx', '--test', '--test-concurrency=2', ...[...testFiles('src'), ...testFiles('clients')].sort()];

// As many server connections per database as an instance's pool: the point is transaction pooling (each transaction
// on any server session), not scarcity, which src/db/pooler.test.ts covers; and the server's max_connections is shared.
const bouncer = await startPgBouncer({ upstream: direct, poolSize: 10 });
console.log(`with-pgbouncer: PgBouncer (transaction mode) on 127.0.0.1:${bouncer.port} in front of ${new URL(direct).host}`);
const child = spawn(command[0], command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, TEST_ENGINE: 'postgres', TEST_DATABASE_URL: bouncer.pooled(direct), TEST_DATABASE_DIRECT_URL: direct },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
await bouncer.stop();
process.exit(code);

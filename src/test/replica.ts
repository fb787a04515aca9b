/**
 * A PostgreSQL primary and a streaming replica of it, started fresh for tests and scripts that need a real
 * hot standby (DATABASE_READ_URL, docs/operations.md "Read replica"):
 *
 *   const pair = await startReplicaPair({ primaryPort: 5500, replicaPort: 5501, applyDelayMs: 300 });
 *   pair.primaryUrl('postgres')   // postgres://postgres@127.0.0.1:5500/postgres (trust, user postgres)
 *   pair.replicaUrl('postgres')   // the same database on the replica (read-only, hot_standby)
 *   await pair.caughtUp();        // resolves once the replica has replayed everything the primary wrote so far
 *   await pair.stopReplica(); await pair.startReplica();   // take the replica down and bring it back
 *   await pair.stop();            // stops both servers and removes their directory
 *
 * The primary is a new cluster (`initdb` from `pg_config --bindir`, or PG_BINDIR) in a temporary directory,
 * the replica a `pg_basebackup -R` of it that applies WAL `applyDelayMs` late (`recovery_min_apply_delay`).
 * As root both run as the `postgres` user (PostgreSQL refuses root). Ports are the caller's (loopback only);
 * without them, free ones. Everything started is stopped and removed by `stop()`, and also when the process
 * exits or gets SIGINT/SIGTERM, and when starting fails half-way.
 *
 * Test files put their part in `describe(..., { skip: skipWithoutPostgresServer }, ...)`: skipped, with one
 * line saying why, where the server binaries are missing, unless CI is set (then it fails).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { firstRow } from '../db/rows.ts';
import { freePort, postgresUser, unanswered } from './pgbouncer.ts';
import { waitUntilReady } from './server-process.ts';

/** The directory of PostgreSQL's server binaries (initdb, postgres, pg_basebackup), or undefined when absent. */
export const PG_BINDIR: string | undefined = (() => {
  const dir = process.env.PG_BINDIR || spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' }).stdout?.trim();
  return dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_basebackup')) ? dir : undefined;
})();

/** Why the replica tests are skipped here (a string node:test prints), or false to run them. */
export const skipWithoutPostgresServer: string | false =
  PG_BINDIR || process.env.CI
    ? false
    : 'PostgreSQL server binaries missing (initdb, pg_basebackup from `pg_config --bindir`): apt-get install -y postgresql, or set PG_BINDIR';

export interface ReplicaPairOptions {
  /** Loopback ports of the primary and the replica; free ones when unset. */
  primaryPort?: number;
  replicaPort?: number;
  /** The replica's recovery_min_apply_delay in milliseconds (0: none). CI uses 300. */
  applyDelayMs?: number;
  /** Extra postgresql.conf settings of both servers (e.g. max_connections), `name: value`. */
  settings?: Record<string, string | number>;
  /** Extra settings of the replica only (e.g. max_standby_streaming_delay, hot_standby_feedback). */
  replicaSettings?: Record<string, string | number>;
  /** Prefix of the temporary directory's name. */
  prefix?: string;
}

export interface ReplicaPair {
  primaryPort: number;
  replicaPort: number;
  /** A URL of `database` (default postgres) on the primary, user postgres, trusted. */
  primaryUrl(database?: string): string;
  /** The same on the replica. */
  replicaUrl(database?: string): string;
  /** Resolves once the replica has replayed all the WAL the primary had written when called (so after the apply delay). */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the replica (fast shutdown); its data stays, for startReplica. */
  stopReplica(): Promise<void>;
  /** Starts the stopped replica again; resolves once it accepts connections. */
  startReplica(): Promise<void>;
  /** Both servers' logs so far. */
  log(): string;
  /** Stops both servers and removes the directory; safe to call more than once. */
  stop(): Promise<void>;
}

/** Servers still running in this process, stopped (synchronously) if it exits or is signalled before `stop()`. */
const running = new Set<() => void>();
let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  const cleanAll = () => {
    for (const clean of [...running]) clean();
  };
  process.once('exit', cleanAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanAll();
      // Nobody else handles it: die of it, as without this handler.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

const url = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startReplicaPair(options: ReplicaPairOptions = {}): Promise<ReplicaPair> {
  const bindir = PG_BINDIR;
  if (!bindir) throw new Error(skipWithoutPostgresServer || 'PostgreSQL server binaries missing');
  const owner = postgresUser();
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const dir = mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'pg-replica-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const primaryPort = options.primaryPort ?? (await freePort());
  const replicaPort = options.replicaPort ?? (await freePort());
  const servers: { primary?: ChildProcess; replica?: ChildProcess } = {};
  const logs = { primary: path.join(dir, 'primary.log'), replica: path.join(dir, 'replica.log') };
  const log = () =>
    Object.entries(logs)
      .map(([name, file]) => `--- ${name} ---\n${existsSync(file) ? readFileSync(file, 'utf8') : ''}`)
      .join('\n');

  /** Runs a binary to completion as the server's user, throwing its output on failure. */
  const run = (binary: string, args: string[]) => {
    const result = spawnSync(path.join(bindir, binary), args, { encoding: 'utf8', cwd: dir, ...as });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  };
  const conf = (dataDir: string, settings: Record<string, string | number>) =>
    appendFileSync(
      path.join(dataDir, 'postgresql.auto.conf'),
      Object.entries(settings)
        .map(([name, value]) => `${name} = '${String(value).replace(/'/g, "''")}'\n`)
        .join(''),
    );

  /** Starts a server (the postgres binary, a child of this process) and waits until it answers. */
  const start = async (which: 'primary' | 'replica', dataDir: string, port: number) => {
    const child = spawn(path.join(bindir, 'postgres'), ['-D', dataDir, '-p', String(port), '-c', `unix_socket_directories=${dir}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: dir,
      ...as,
    });
    // A server's last lines (its shutdown) may come after cleanNow removed the directory on a signal: dropped.
    child.stderr?.on('data', (chunk) => existsSync(dir) && appendFileSync(logs[which], chunk));
    servers[which] = child;
    await waitUntilReady(child, {
      name: which,
      timeoutMs: 30_000,
      pollMs: 100,
      notReady: async () => {
        const error = await unanswered(url(port));
        return error && `${which} did not answer on port ${port}: ${error.message}`;
      },
      output: log,
      // Left running: the caller's stop() (or the process's exit) shuts it down as it does a running one.
      giveUp: () => undefined,
    });
  };
  /** Fast shutdown (SIGINT), waited for. */
  const halt = async (which: 'primary' | 'replica') => {
    const child = servers[which];
    servers[which] = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  };
  /** At exit or on a signal: immediate shutdown (SIGQUIT), a short wait for the processes to go, then the directory. */
  const cleanNow = () => {
    running.delete(cleanNow);
    for (const child of [servers.primary, servers.replica]) {
      if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
      child.kill('SIGQUIT');
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        try {
          process.kill(child.pid, 0);
        } catch {
          break;
        }
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  hookExit();
  running.add(cleanNow);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      running.delete(cleanNow);
      await halt('replica');
      await halt('primary');
      rmSync(dir, { recursive: true, force: true });
    })());

  try {
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
    const shared = { listen_addresses: '127.0.0.1', fsync: 'off', max_connections: 200, max_wal_senders: 5, ...options.settings };
    conf(primaryDir, { ...shared, wal_level: 'replica' });
    await start('primary', primaryDir, primaryPort);
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    conf(replicaDir, {
      ...shared,
      hot_standby: 'on',
      recovery_min_apply_delay: `${options.applyDelayMs ?? 0}ms`,
      ...options.replicaSettings,
    });
    await start('replica', replicaDir, replicaPort);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }

  return {
    primaryPort,
    replicaPort,
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    async caughtUp(timeoutMs = 30_000) {
      const primary = new pg.Client({ connectionString: url(primaryPort) });
      const replica = new pg.Client({ connectionString: url(replicaPort) });
      try {
        await primary.connect();
        await replica.connect();
        const { lsn } = firstRow((await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows);
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const replayed = await replica.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]);
          if (firstRow(replayed.rows).done) return;
          if (Date.now() > deadline) throw new Error(`The replica did not replay ${lsn} within ${timeoutMs} ms`);
          await sleep(20);
        }
      } finally {
        await primary.end().catch(() => undefined);
        await replica.end().catch(() => undefined);
      }
    },
    stopReplica: () => halt('replica'),
    startReplica: () => start('replica', replicaDir, replicaPort),
    log,
    stop,
  };
}

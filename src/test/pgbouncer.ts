/**
 * PgBouncer in front of a PostgreSQL server, for tests and scripts that need the deployed topology's
 * pooler (docs/operations.md "Connection pooling"): `startPgBouncer({ upstream })` runs Debian's
 * `/usr/sbin/pgbouncer` (or PGBOUNCER_PATH) from a temporary directory with a generated ini, on a free
 * loopback port, every database of the upstream server reachable by its name, and `stop()` ends it
 * and removes the directory. As root it runs as the `postgres` user (PgBouncer refuses to run as root).
 *
 * Test files put the pooler's part in `describe(..., { skip: skipWithoutPgBouncer }, ...)`: skipped,
 * with one line saying why, where the binary is missing, unless CI is set (then it fails).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { stopOnce, waitUntilReady } from './server-process.ts';

export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH || '/usr/sbin/pgbouncer';

/** Why the PgBouncer tests are skipped here (a string node:test prints), or false to run them. */
export const skipWithoutPgBouncer: string | false =
  existsSync(PGBOUNCER_PATH) || process.env.CI
    ? false
    : `PgBouncer missing (${PGBOUNCER_PATH}): apt-get install -y pgbouncer, or set PGBOUNCER_PATH`;

export interface PgBouncerOptions {
  /** The server to pool, as a URL (its host, port and user; the database part is ignored). */
  upstream: string;
  /** `transaction` (the default, what the service must work behind), `session` or `statement`. */
  poolMode?: 'transaction' | 'session' | 'statement';
  /** Server connections per database and user (PgBouncer's default_pool_size): fewer than a client's pool shows the multiplexing. */
  poolSize?: number;
  /** The loopback port it listens on (default: a free one). */
  port?: number;
  /** Extra `[pgbouncer]` settings, `name = value` each. */
  settings?: Record<string, string | number>;
}

export interface PgBouncer {
  port: number;
  /** `url` (a URL of the upstream server) with its host and port replaced by the pooler's: the same database and user, pooled. */
  pooled(url: string): string;
  /** PgBouncer's log so far. */
  log(): string;
  stop(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The uid and gid of `postgres` when this process runs as root (PgBouncer and PostgreSQL refuse root), else undefined. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('Running as root, and there is no postgres user to run PgBouncer as');
  return { uid, gid };
}

/** Why `url` does not answer `select 1` right now (a connection refused, a server starting up), or undefined once it does. */
export async function unanswered(url: string): Promise<Error | undefined> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const upstream = new URL(options.upstream);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const password = decodeURIComponent(upstream.password);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  const owner = postgresUser();
  const port = options.port ?? (await freePort());
  const file = (name: string) => path.join(dir, name);
  // The upstream's password (if any) goes in the [databases] line; clients are trusted (loopback only).
  const server = `host=${upstream.hostname} port=${upstream.port || 5432} user=${user}${password ? ` password=${password}` : ''}`;
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: file('userlist.txt'),
    pool_mode: options.poolMode ?? 'transaction',
    default_pool_size: options.poolSize ?? 5,
    max_client_conn: 1000,
    // node-postgres sends none of these, other clients (psql) may.
    ignore_startup_parameters: 'extra_float_digits,options,statement_timeout',
    logfile: file('pgbouncer.log'),
    pidfile: file('pgbouncer.pid'),
    admin_users: user,
    ...options.settings,
  };
  writeFileSync(
    file('pgbouncer.ini'),
    ['[databases]', `* = ${server}`, '', '[pgbouncer]', ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`), ''].join('\n'),
  );
  writeFileSync(file('userlist.txt'), `"${user}" ""\n`);
  writeFileSync(file('pgbouncer.log'), '');
  if (owner) for (const name of ['', 'pgbouncer.ini', 'userlist.txt', 'pgbouncer.log']) chownSync(file(name), owner.uid, owner.gid);
  const child: ChildProcess = spawn(PGBOUNCER_PATH, [file('pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => `${readFileSync(file('pgbouncer.log'), 'utf8')}${stderr}`;
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const pooled = (url: string) => {
    const next = new URL(url);
    next.hostname = '127.0.0.1';
    next.port = String(port);
    return next.toString();
  };
  // Ready once it answers a statement (which also proves the upstream reachable through it).
  const admin = new URL(options.upstream);
  admin.pathname = '/postgres';
  await waitUntilReady(child, {
    name: 'pgbouncer',
    timeoutMs: 15_000,
    pollMs: 100,
    notReady: async () => {
      const error = await unanswered(pooled(admin.toString()));
      return error && `pgbouncer did not answer on port ${port}: ${error.message}`;
    },
    output: log,
    giveUp: () => {
      child.kill('SIGKILL');
      cleanup();
    },
  });
  return {
    port,
    pooled,
    log,
    // SIGTERM: immediate shutdown (SIGINT would wait for clients to go).
    stop: stopOnce(child, exited, cleanup),
  };
}

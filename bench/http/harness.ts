/**
 * Shared plumbing of `npm run bench:http`: the real service as a child process
 * (`node bin/chat-service.js serve`, the command users and the container run) on
 * fresh storage of either engine, a load generator over real HTTP (autocannon),
 * and the table every case prints: service beside a baseline measured in the
 * same run, with the target and whether it is met.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../../src/test/pgbouncer.ts';

export type Engine = 'postgres' | 'pglite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The checkout whose service is measured: this one, or another one built (`npm run build`) to compare with in the same run. */
const SERVICE_ROOT = path.resolve(process.env.BENCH_SERVICE_DIR ?? ROOT);
/** Server that may create and drop the benchmark's databases. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Seconds each measurement runs (after a short warm-up). */
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

/** A database (PostgreSQL) or data directory (PGlite) of its own, removed by `drop`. */
export interface Storage {
  engine: Engine;
  env: Record<string, string>;
  /** The database URL (postgres) or the data directory (pglite). */
  location: string;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function freshStorage(engine: Engine): Promise<Storage> {
  if (engine === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-service-bench-'));
    return { engine, env: { DATA_DIR: dir }, location: dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_${process.pid}_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    engine,
    env: { DATABASE_URL: url.toString() },
    location: url.toString(),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

export interface RunningProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `command` and waits until it prints a line matching `ready` (whose first
 * group is the base URL), or, given a base URL, until its `/healthz` answers. Fails
 * with what it printed if it exits first.
 */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp | string): Promise<RunningProcess> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, PORT: _port, ...inherited } = process.env;
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = typeof ready === 'string' ? null : ready.exec(output);
      if (match?.[1]) resolve({ url: match[1], child, output: () => output, stop });
    };
    if (typeof ready === 'string') {
      const poll = () =>
        fetch(`${ready}/healthz`).then(
          (response) => (response.ok ? resolve({ url: ready, child, output: () => output, stop }) : setTimeout(poll, 100)),
          () => child.exitCode === null && setTimeout(poll, 100),
        );
      void poll();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${output}`)));
  });
}

/**
 * The service on a free port, ready once `/healthz` answers: for a second instance on a database that already has its
 * account, which prints nothing at `LOG_LEVEL=warn`. Instances a benchmark compares all run at `warn`, as
 * `startService`'s do: at `info` every request writes two log lines, which would weigh on one side only.
 */
export async function startServiceOnPort(env: Record<string, string>): Promise<RunningProcess> {
  const port = await freePort();
  return startProcess(
    [path.join(SERVICE_ROOT, 'bin/chat-service.js'), 'serve'],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', ...env, PORT: String(port) },
    `http://127.0.0.1:${port}`,
  );
}

export interface Service extends RunningProcess {
  token: string;
  apiKey: string;
}

/** The real service on `storage`: its first start creates the account whose token and apiKey it prints. */
export async function startService(storage: Storage, env: Record<string, string> = {}): Promise<Service> {
  const running = await startProcess(
    [path.join(SERVICE_ROOT, 'bin/chat-service.js'), 'serve'],
    {
      ...storage.env,
      PORT: '0',
      LOG_LEVEL: 'warn',
      // The load generator is one client: the per-token limit would measure itself.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    /Try: curl -H 'Authorization: Bearer \S+' (http:\/\/\S+)\/v2\/agents/,
  );
  const token = /owner token:\s+(\S+)/.exec(running.output())?.[1];
  const apiKey = /legacy apiKey:\s+(\S+)/.exec(running.output())?.[1];
  if (!token || !apiKey) throw new Error(`The service printed no first account:\n${running.output()}`);
  return { ...running, token, apiKey };
}

/** JSON request to a running process; throws on a non-2xx answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers name the answer's shape
export async function call<T = any>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

let counter = 0;

/** Bodies of `POST /v2/conversations` with 3 imported contact messages and an ext_id of their own. */
export const createWithThreeMessages = (contactId: string) => () =>
  JSON.stringify({
    contact_id: contactId,
    ext_id: `bench-${process.pid}-${Date.now()}-${counter++}`,
    messages: [1, 2, 3].map((n) => ({ sub_type: 'contact', content: { type: 'text', text: `Hello ${n}` } })),
  });

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

/** Figures of several runs as one: the mean rate, the worst latency percentiles, every failure. */
export function mergedFigures(runs: readonly Figures[]): Figures {
  return {
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length,
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

export interface LoadOptions {
  url: string;
  connections: number;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  /** A fixed body, or one made per request (e.g. a new ext_id each time). */
  body?: string | (() => string);
  /** A fixed path, or one chosen per request (e.g. a random conversation id). */
  path?: string | (() => string);
  durationSeconds?: number;
  /** Seconds of unmeasured load before the measurement (default 2). */
  warmUpSeconds?: number;
}

/** Drives `url` with `connections` concurrent connections for DURATION_S seconds (after a 2 s warm-up). */
export async function load(options: LoadOptions): Promise<Figures> {
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration,
      method: options.method ?? 'GET',
      headers: options.headers,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            ...(options.path === undefined ? {} : { path: typeof options.path === 'function' ? options.path() : options.path }),
            ...(options.body === undefined ? {} : { body: typeof options.body === 'function' ? options.body() : options.body }),
          }),
        },
      ],
    });
  const warmUp = options.warmUpSeconds ?? 2;
  if (warmUp > 0) await run(warmUp);
  const result = await run(options.durationSeconds ?? DURATION_S);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export interface Row {
  case: string;
  engine: Engine;
  connections: number;
  service: Figures;
  baseline?: Figures;
  /** What must hold, in words (e.g. ">= 60% of baseline"). */
  target: string;
  met: boolean;
}

const fixed = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The table every benchmark of this family prints (Markdown, so docs/benchmarks.md can quote it). */
export function printTable(rows: Row[]): void {
  // A case whose requests failed (the service's or the baseline's) measured nothing: never count it as met.
  rows = rows.map((row) => ({ ...row, met: row.met && row.service.failures === 0 && (row.baseline?.failures ?? 0) === 0 }));
  console.log('\n| case | engine | conns | service req/s | p50 ms | p99 ms | baseline req/s | baseline p99 ms | ratio | target | met |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const row of rows) {
    const { service, baseline } = row;
    const ratio = baseline ? `${fixed((100 * service.requestsPerSecond) / baseline.requestsPerSecond)}%` : '';
    const failed = [
      ...(service.failures > 0 ? [`${service.failures} failed`] : []),
      ...(baseline && baseline.failures > 0 ? [`baseline: ${baseline.failures} failed`] : []),
    ];
    const failures = failed.length > 0 ? ` (${failed.join('; ')})` : '';
    console.log(
      `| ${row.case}${failures} | ${row.engine} | ${row.connections} | ${fixed(service.requestsPerSecond)} | ${fixed(service.p50, 1)} | ${fixed(service.p99, 1)} | ` +
        `${baseline ? fixed(baseline.requestsPerSecond) : ''} | ${baseline ? fixed(baseline.p99, 1) : ''} | ${ratio} | ${row.target} | ${row.met ? 'yes' : 'NO'} |`,
    );
  }
}

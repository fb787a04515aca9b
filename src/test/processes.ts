/**
 * Tests of real processes: the CLI and `serve` spawned as a user would run them
 * (`node bin/chat-service.js ...`), each on its own fresh storage.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { engine, testDatabaseUrls } from './harness.ts';
import { randomString } from '../ids.ts';
import { loadConfig } from '../config.ts';
import { dbOptionsOf, openDb, type Db } from '../db/db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin/chat-service.js');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Storage {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Storage in a PostgreSQL database of its own, at DATABASE_URL. */
export type PostgresStorage = Storage & { env: { DATABASE_URL: string } };

/** A PGlite data directory of its own. */
export function tempDataDir(): Storage & { env: { DATA_DIR: string } } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-service-test-'));
  return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Fresh storage on the engine under test: a data directory, or a new PostgreSQL database. */
export async function freshStorage(): Promise<Storage> {
  if (engine === 'pglite') return tempDataDir();
  // Created on the direct connection; with a pooler in front (TEST_DATABASE_DIRECT_URL set), served through it; read on
  // the replica with TEST_DATABASE_READ_URL.
  const { url, directUrl } = testDatabaseUrls();
  const storage = await freshPostgresDatabase(directUrl, 'cs_proc');
  const name = new URL(storage.env.DATABASE_URL).pathname.slice(1);
  const { readUrl } = testDatabaseUrls(name);
  const read: Record<string, string> = readUrl ? { DATABASE_READ_URL: readUrl } : {};
  if (url === directUrl) return { ...storage, env: { ...storage.env, ...read } };
  return { ...storage, env: { DATABASE_URL: testDatabaseUrls(name).url, DATABASE_DIRECT_URL: storage.env.DATABASE_URL, ...read } };
}

/** The database of `storage`, opened as the CLI opens it (through DATABASE_URL, named statements only when direct). */
export function openStorage(storage: Storage): Promise<Db> {
  return openDb(dbOptionsOf(loadConfig(storage.env), false));
}

/** A new database on the server `adminUrl` names (`<prefix>_<pid>_<random>`), dropped by `cleanup`. */
export async function freshPostgresDatabase(adminUrl: string, prefix: string): Promise<PostgresStorage> {
  const name = `${prefix}_${process.pid}_${randomString(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, cleanup: () => admin(`drop database if exists ${name} with (force)`) };
}

function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  // Only what the test gives: no DATABASE_URL or DATA_DIR leaking in from the caller's shell.
  const {
    DATABASE_URL: _url,
    DATABASE_DIRECT_URL: _direct,
    DATABASE_READ_URL: _read,
    DATA_DIR: _dir,
    PORT: _port,
    HOST: _host,
    ...inherited
  } = process.env;
  return spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...inherited, LOG_LEVEL: 'info', ...env }, stdio: 'pipe' });
}

function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/**
 * Runs one CLI command to its end. A command still running after `timeoutMs`
 * (generous: a loaded machine is slow) is killed, and says so in its stderr.
 */
export async function runCli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Finished> {
  const child = spawnCli(args, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const result = await finished(child);
  clearTimeout(timer);
  if (result.signal === 'SIGKILL') result.stderr += `\n(killed: still running after ${timeoutMs} ms: chat-service ${args.join(' ')})`;
  return result;
}

export interface ServeProcess {
  pid: number;
  url: string;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  exited: Promise<Finished>;
  signal(signal: NodeJS.Signals): void;
}

/** Starts `serve` on a free port and resolves once it listens (its JSON log names the URL). */
export function startServe(env: Record<string, string>, timeoutMs = 120_000): Promise<ServeProcess> {
  const child = spawnCli(['serve'], { HOST: '127.0.0.1', PORT: '0', ...env });
  const exited = finished(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const onData = () => {
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'chat-service listening' && entry.url) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          resolve({
            pid: child.pid as number,
            url: entry.url,
            output: () => ({ stdout, stderr }),
            exited,
            signal: (signal) => child.kill(signal),
          });
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((result) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${result.code}:\n${result.stdout}\n${result.stderr}`));
    });
  });
}

/**
 * Backup and restore, as an operator runs them: PGlite with `chat-service backup` /
 * `restore`, PostgreSQL with pg_dump / pg_restore (docs/operations.md). Each restores
 * into new storage, and a server started on it serves the data (the old token works).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engine } from './test/harness.ts';
import { freshStorage, runCli, startServe, tempDataDir, type Storage } from './test/processes.ts';

/** Starts a server on `storage`, asserts it serves `token`'s account with its tag and created no first account, and stops it. */
async function assertServes(storage: Storage, token: string): Promise<void> {
  const server = await startServe(storage.env);
  try {
    const res = await fetch(`${server.url}/v2/tags`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    assert.deepEqual(
      (await res.json()).tags.map((tag: { name: string }) => tag.name),
      ['Backed up'],
    );
    assert.doesNotMatch(server.output().stdout, /Created the first account/);
  } finally {
    server.signal('SIGTERM');
  }
  assert.equal((await server.exited).code, 0);
}

/** An account with one tag on `storage`; its owner token. */
async function seed(storage: Storage): Promise<string> {
  const created = await runCli(['account', 'create', '--json'], storage.env);
  assert.equal(created.code, 0, created.stderr);
  const { account_id: accountId, token } = JSON.parse(created.stdout);
  assert.equal((await runCli(['tag', 'add', '--account', accountId, '--name', 'Backed up'], storage.env)).code, 0);
  return token;
}

describe('backup and restore', { timeout: 600_000 }, () => {
  it(
    'PGlite: backup --out and restore --from into a new DATA_DIR; refused while the directory is in use or not empty, or the file is not a backup',
    { skip: engine !== 'pglite' && 'PGlite only' },
    async () => {
      const work = mkdtempSync(path.join(os.tmpdir(), 'chat-service-backup-'));
      const source = tempDataDir();
      const target = tempDataDir();
      const file = path.join(work, 'chat.tar.gz');
      try {
        const token = await seed(source);
        const backup = await runCli(['backup', '--out', file], source.env);
        assert.equal(backup.code, 0, backup.stderr);
        assert.match(backup.stdout, new RegExp(`^Backed up .* to ${file} \\(\\d+ bytes\\)\\n$`));
        const intoDirectory = await runCli(['backup', '--out', work], source.env);
        assert.deepEqual([intoDirectory.code, intoDirectory.stderr], [1, `chat-service: ${work} is a directory: give --out a file name\n`]);
        assert.equal(existsSync(`${work}.partial`), false);

        const server = await startServe(source.env);
        try {
          const refused = await runCli(['backup', '--out', path.join(work, 'second.tar.gz')], source.env);
          assert.equal(refused.code, 1);
          assert.match(refused.stderr, new RegExp(`^chat-service: The data directory .* is in use by process ${server.pid}\\b`));
          assert.equal(existsSync(path.join(work, 'second.tar.gz')), false);
        } finally {
          server.signal('SIGTERM');
        }
        assert.equal((await server.exited).code, 0);

        // A file that is not a backup: one line naming it, and the directory stays empty for a real restore.
        const notBackup = path.join(work, 'notes.tar.gz');
        writeFileSync(notBackup, 'not a backup\n');
        const malformed = await runCli(['restore', '--from', notBackup], target.env);
        assert.equal(malformed.code, 1);
        assert.equal(
          malformed.stderr,
          `chat-service: ${notBackup} is not a backup written by chat-service backup (PGlite failed to initialize properly)\n`,
        );

        const restored = await runCli(['restore', '--from', file], target.env);
        assert.equal(restored.code, 0, restored.stderr);
        const again = await runCli(['restore', '--from', file], target.env);
        assert.equal(again.code, 1);
        assert.match(again.stderr, /^chat-service: .* already holds a database: restore into an empty or new DATA_DIR/);
        await assertServes(target, token);
      } finally {
        await Promise.all([source.cleanup(), target.cleanup()]);
        rmSync(work, { recursive: true, force: true });
      }
    },
  );

  it(
    'PostgreSQL: pg_dump -Fc and pg_restore into a new database; the CLI backup points there',
    { skip: engine !== 'postgres' && 'PostgreSQL only' },
    async () => {
      const work = mkdtempSync(path.join(os.tmpdir(), 'chat-service-backup-'));
      const source = await freshStorage();
      const target = await freshStorage();
      const file = path.join(work, 'chat.dump');
      try {
        const token = await seed(source);
        const refused = await runCli(['backup', '--out', file], source.env);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /^chat-service: backup copies PGlite's DATA_DIR; with DATABASE_URL use pg_dump and pg_restore/);

        // pg_dump and pg_restore need a session of their own: the direct connection, never a transaction pooler.
        const direct = (storage: Storage) => storage.env.DATABASE_DIRECT_URL ?? storage.env.DATABASE_URL!;
        const dump = spawnSync('pg_dump', ['--format=custom', `--file=${file}`, direct(source)], { encoding: 'utf8' });
        assert.equal(dump.status, 0, dump.stderr);
        const restore = spawnSync('pg_restore', ['--no-owner', `--dbname=${direct(target)}`, file], { encoding: 'utf8' });
        assert.equal(restore.status, 0, restore.stderr);
        await assertServes(target, token);
      } finally {
        await Promise.all([source.cleanup(), target.cleanup()]);
        rmSync(work, { recursive: true, force: true });
      }
    },
  );
});

import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { acquireDirectoryLock, DirectoryLockedError } from './lock.ts';

const CONTENDER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/lock-contender.ts');
const CONTENDERS = 4;
const ROUNDS = 25;

interface Contender {
  pid: number;
  send(command: string): Promise<string>;
  child: ChildProcess;
}

/** A process running src/test/lock-contender.ts on `directory`, once it is ready. */
async function contender(directory: string): Promise<Contender> {
  const child = spawn(process.execPath, ['--import', 'tsx', CONTENDER, directory], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value as string;
  assert.equal(await next(), 'ready');
  return {
    pid: child.pid!,
    child,
    send: (command) => {
      child.stdin!.write(`${command}\n`);
      return next();
    },
  };
}

/** The PID of a process that has exited: what a crashed server leaves in its lock. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

let directory: string;
let contenders: Contender[];
before(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'chat-service-lock-'));
  contenders = await Promise.all(Array.from({ length: CONTENDERS }, () => contender(directory)));
});
after(() => {
  for (const { child } of contenders) child.kill();
  rmSync(directory, { recursive: true, force: true });
});

it('lets exactly one of several processes starting together take a directory with a stale lock in it', { timeout: 300_000 }, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    // What a killed server leaves: an earlier version's lock file, or a claim, naming a process that is gone.
    if (round % 2 === 0) writeFileSync(path.join(directory, 'chat-service.lock'), String(deadPid()));
    else writeFileSync(path.join(directory, `chat-service.lock.${deadPid()}.0a1b2c`), '');
    const answers = await Promise.all(contenders.map((c) => c.send('take')));
    const winners = contenders.filter((_, i) => answers[i] === 'taken');
    assert.equal(winners.length, 1, `round ${round}: ${answers.join(', ')}`);
    const winner = winners[0]!;
    // A loser names the process whose claim it found: the winner, or another contender that stepped back after it.
    contenders.forEach((c, i) => {
      if (c === winner) return;
      const named = Number(/^locked (\d+)$/.exec(answers[i]!)?.[1]);
      assert.ok(named !== c.pid && contenders.some((other) => other.pid === named), `round ${round}: ${answers.join(', ')}`);
    });
    assert.equal(await winner.send('release'), 'released');
    assert.deepEqual(readdirSync(directory), [], 'the stale lock is gone and the released claim too');
  }
});

it('refuses a directory another live process holds, naming it, and takes it once released', async () => {
  const [holder] = contenders;
  assert.equal(await holder!.send('take'), 'taken');
  assert.throws(
    () => acquireDirectoryLock(directory),
    (error) => error instanceof DirectoryLockedError && error.pid === holder!.pid,
  );
  assert.equal(await holder!.send('release'), 'released');
  const lock = acquireDirectoryLock(directory);
  lock.release();
  assert.deepEqual(readdirSync(directory), []);
});

/**
 * A process that contends for a PGlite data directory's lock (src/db/lock.test.ts): it reads
 * commands from stdin, one per line, and answers each on stdout.
 *   take     -> "taken", or "locked <pid>" (DirectoryLockedError), or "error <message>"
 *   release  -> "released"
 * It prints "ready" once it can take commands.
 */
import { createInterface } from 'node:readline';
import { acquireDirectoryLock, DirectoryLockedError, type DirectoryLock } from '../db/lock.ts';

const directory = process.argv[2] as string;
let held: DirectoryLock | undefined;
createInterface({ input: process.stdin }).on('line', (command) => {
  if (command === 'take') {
    try {
      held = acquireDirectoryLock(directory);
      console.log('taken');
    } catch (error) {
      console.log(error instanceof DirectoryLockedError ? `locked ${error.pid}` : `error ${(error as Error).message}`);
    }
  } else if (command === 'release') {
    held?.release();
    held = undefined;
    console.log('released');
  }
});
console.log('ready');

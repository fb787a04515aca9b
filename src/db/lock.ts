import { openSync, closeSync, writeSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';

export interface DirectoryLock {
  release(): void;
}

/** Raised when another live process holds the data directory. */
export class DirectoryLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(`The data directory ${directory} is in use by process ${pid} (a running chat-service?). Stop it first, or use DATABASE_URL.`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it,
 * so we hold an exclusive lock file (created with O_EXCL) holding our PID.
 * A lock left by a dead process is taken over.
 */
export function acquireDirectoryLock(directory: string): DirectoryLock {
  const lockPath = path.join(directory, 'chat-service.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DirectoryLockedError(directory, pid);
      }
      unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not lock ${directory}`);
}

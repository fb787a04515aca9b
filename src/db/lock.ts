import { closeSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

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

/** A process's claim on the directory: `chat-service.lock.<pid>.<random>`, an empty file whose name says whose it is. */
const CLAIM = /^chat-service\.lock\.(\d+)\.[0-9a-f]+$/;
/** The one lock file of earlier versions, holding its process's PID: still honoured, and removed once its process is gone. */
const LEGACY_LOCK = 'chat-service.lock';
/** How often two processes that claimed the directory at the same moment both step back and try again before giving up. */
const ATTEMPTS = 8;

interface Claim {
  file: string;
  pid: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every claim in `directory`, live or not (a legacy lock file that names no PID counts as a dead one). */
export function directoryClaims(directory: string): Claim[] {
  const claims: Claim[] = [];
  for (const file of readdirSync(directory)) {
    const match = CLAIM.exec(file);
    if (match) claims.push({ file, pid: Number(match[1]) });
    else if (file === LEGACY_LOCK) {
      let pid = 0;
      try {
        pid = Number(readFileSync(path.join(directory, file), 'utf8').trim()) || 0;
      } catch {
        continue; // removed meanwhile
      }
      claims.push({ file, pid });
    }
  }
  return claims;
}

/** The first claim of another live process; the claims of dead processes are removed on the way. */
function otherLiveClaim(directory: string, own: string | undefined): Claim | undefined {
  for (const claim of directoryClaims(directory)) {
    if (claim.file === own) continue;
    // A claim with our own PID but not ours was left by an earlier process that had it (a container's PID 1).
    if (claim.pid > 0 && claim.pid !== process.pid && isAlive(claim.pid)) return claim;
    try {
      unlinkSync(path.join(directory, claim.file));
    } catch {
      // another process removed it first
    }
  }
  return undefined;
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it, so each process
 * holds a claim file in it. Taking the directory: no other live process may have a claim, then we
 * write ours, then no other live process may have one either; otherwise we remove ours again. Two
 * processes cannot both succeed: whichever wrote its claim second sees the first one's when it
 * looks again, since the first one's claim was there before and stays (a process that had to step
 * back removes its claim, and after a random pause, looks again). A claim left by a dead process
 * is removed by whoever finds it, never taken over, so no stale lock is ever checked and then
 * replaced (what let two processes starting together both open one directory).
 */
export function acquireDirectoryLock(directory: string): DirectoryLock {
  let blocker: Claim | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    blocker = otherLiveClaim(directory, undefined);
    if (blocker) throw new DirectoryLockedError(directory, blocker.pid);
    const own = `chat-service.lock.${process.pid}.${randomBytes(6).toString('hex')}`;
    const ownPath = path.join(directory, own);
    closeSync(openSync(ownPath, 'wx'));
    blocker = otherLiveClaim(directory, own);
    if (!blocker) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          unlinkSync(ownPath);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return { release };
    }
    unlinkSync(ownPath);
    sleepSync(5 + Math.random() * 50);
  }
  throw new DirectoryLockedError(directory, blocker!.pid);
}

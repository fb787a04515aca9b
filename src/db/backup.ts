import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { acquireDirectoryLock, DirectoryLockedError } from './lock.ts';
import { PGliteOpenError, PGliteThread } from './pglite-thread.ts';

/** A backup or restore that cannot run as asked: reported in one line. */
export class BackupError extends Error {}

/**
 * Opens the PGlite directory under its lock (so never beside a running server or CLI
 * command: DirectoryLockedError names the holder), runs fn, and closes it cleanly.
 */
async function withPglite<T>(dataDir: string, options: { loadDataDir?: Uint8Array }, fn: (lite: PGliteThread) => Promise<T>): Promise<T> {
  const lock = acquireDirectoryLock(dataDir);
  try {
    const lite = new PGliteThread(dataDir, options);
    try {
      await lite.waitReady;
      return await fn(lite);
    } finally {
      await lite.close();
    }
  } finally {
    lock.release();
  }
}

/** Writes the whole PGlite data directory to `file` (a gzipped tarball); returns its size in bytes. */
export async function backupPglite(dataDir: string, file: string): Promise<number> {
  const directory = path.resolve(dataDir);
  if (!existsSync(path.join(directory, 'PG_VERSION'))) throw new BackupError(`${directory} holds no database to back up (DATA_DIR)`);
  // Checked first: the rename at the end would fail only after the whole directory was dumped beside it.
  if (existsSync(file) && statSync(file).isDirectory()) throw new BackupError(`${file} is a directory: give --out a file name`);
  const bytes = await withPglite(directory, {}, (lite) => lite.dumpDataDir());
  // Written beside the target and renamed: an interrupted backup never leaves a truncated file under its name.
  const partial = `${file}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return bytes.byteLength;
}

/** Unpacks a backup into a PGlite data directory that holds no database yet (created when missing). */
export async function restorePglite(dataDir: string, file: string): Promise<void> {
  const directory = path.resolve(dataDir);
  if (!existsSync(file)) throw new BackupError(`No backup file ${file}`);
  mkdirSync(directory, { recursive: true });
  if (existsSync(path.join(directory, 'PG_VERSION'))) {
    throw new BackupError(`${directory} already holds a database: restore into an empty or new DATA_DIR (move the old one away first)`);
  }
  try {
    await withPglite(directory, { loadDataDir: readFileSync(file) }, async () => undefined);
  } catch (error) {
    if (error instanceof DirectoryLockedError || !(error instanceof Error)) throw error;
    // Not a gzipped tarball (the worker's unzip throws) or not a data directory (PGlite refuses to start on it).
    const reason =
      (error instanceof PGliteOpenError ? error.reason : error.message) || (error as NodeJS.ErrnoException).code || 'unreadable';
    throw new BackupError(`${file} is not a backup written by chat-service backup (${reason})`);
  }
}

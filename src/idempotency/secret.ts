import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

let processSecret: string | undefined;

/** A secret for this process only: for tests, the CLI and an in-memory database, whose keys die with the process anyway. */
export function processIdempotencySecret(): string {
  processSecret ??= randomBytes(32).toString('base64url');
  return processSecret;
}

/**
 * Where the generated secret of a PGlite data directory is kept: in it, so that it lives as long as the data (a
 * container's volume). The table never holds it; a backup of the whole directory does (docs/operations.md).
 */
export function idempotencySecretFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'idempotency-secret');
}

/**
 * The IDEMPOTENCY_SECRET `serve` uses (docs/operations.md "Idempotency secret"): the configured one; else, on a PGlite
 * directory, one generated at the first start and kept in `DATA_DIR/idempotency-secret` (mode 0600); else one for
 * this process, with a warning on PostgreSQL: stored answers then cannot be replayed after a restart or by another
 * instance, where the retry runs again.
 */
export function resolveIdempotencySecret(config: Config, warn: (message: string) => void): string {
  if (config.idempotencySecret) return config.idempotencySecret;
  if (config.databaseUrl) {
    warn(
      'IDEMPOTENCY_SECRET is not set: using a secret of this process only, so an Idempotency-Key retried after a restart or on another instance runs again; set it, the same on every instance (docs/operations.md)',
    );
    return processIdempotencySecret();
  }
  if (config.dataDir === 'memory') return processIdempotencySecret();
  const file = idempotencySecretFile(config.dataDir);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    // Only the process holding the directory's lock (src/db/lock.ts) gets here; 'wx' never overwrites one anyway.
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
    return secret;
  } catch (error) {
    warn(
      `IDEMPOTENCY_SECRET is not set and ${file} cannot be written (${(error as Error).message}): using a secret of this process only, so an Idempotency-Key retried after a restart runs again`,
    );
    return processIdempotencySecret();
  }
}

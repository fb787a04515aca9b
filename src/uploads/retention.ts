import type { Deps } from '../deps.ts';
import * as repo from './repository.ts';

/** Uploads deleted per statement (each can hold up to 20 MiB); a pass repeats until fewer are left. */
const BATCH_SIZE = 100;

/**
 * One pass of the upload retention: deletes, in every account, the uploads no
 * message references (never attached) whose token expired at deps.now(): nothing
 * can attach them any more. Attached uploads stay downloadable for as long as
 * their messages exist. Each batch is its own short statement; rows another
 * instance is deleting are skipped, so several instances can run it at once.
 * Returns how many it deleted.
 */
export async function deleteExpiredUploads(deps: Pick<Deps, 'db' | 'now'>): Promise<number> {
  const now = deps.now();
  let deleted = 0;
  for (;;) {
    const batch = await repo.deleteExpiredUnattachedUploads(deps.db, now, BATCH_SIZE);
    deleted += batch;
    if (batch < BATCH_SIZE) return deleted;
  }
}

import type { Deps } from '../deps.ts';
import { dropMonthsBefore } from '../db/partitions.ts';
import { deleteHistoryBefore } from './repository.ts';

/** Rows deleted per statement from a default partition; a pass repeats until fewer are left. */
const BATCH_SIZE = 1000;

/**
 * One pass of the message retention, when MESSAGE_RETENTION_DAYS is set (unset: history is kept for good): the
 * messages and page visits (paths) older than that at deps.now() go, a whole month partition (migration 230) at a
 * time once its whole month lies before the cutoff, and those of the default partition in batches. Conversations,
 * their contacts, ratings and attached uploads stay (docs/operations.md "Message retention"). Several instances can
 * run it at once. Returns how many rows it removed.
 */
export async function deleteOldMessages(deps: Pick<Deps, 'db' | 'config' | 'now'>): Promise<number> {
  if (deps.config.messageRetentionDays === null) return 0;
  const before = new Date(deps.now().getTime() - deps.config.messageRetentionDays * 24 * 3600 * 1000);
  let deleted = 0;
  for (const table of ['messages', 'paths'] as const) {
    deleted += await dropMonthsBefore(deps.db, table, before);
    for (;;) {
      const batch = await deleteHistoryBefore(deps.db, table, before, BATCH_SIZE);
      deleted += batch;
      if (batch < BATCH_SIZE) break;
    }
  }
  return deleted;
}

import type { Deps } from '../deps.ts';
import { deleteEventsBefore } from './repository.ts';

/** Events deleted per statement; a pass repeats until fewer are left. */
const BATCH_SIZE = 1000;

/**
 * One pass of the outbox retention: deletes, in every account, the events older
 * than EVENT_RETENTION_DAYS at deps.now() except those a webhook still has to
 * deliver (not queued yet, or queued and neither delivered nor given up). The
 * event stream's Last-Event-ID resume therefore reaches back that far. Each batch
 * is its own short statement; several instances can run it at once. Returns how
 * many it deleted.
 */
export async function deleteOldEvents(deps: Pick<Deps, 'db' | 'config' | 'now'>): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.config.eventRetentionDays * 24 * 3600 * 1000);
  let deleted = 0;
  for (;;) {
    const batch = await deleteEventsBefore(deps.db, before, BATCH_SIZE);
    deleted += batch;
    if (batch < BATCH_SIZE) return deleted;
  }
}

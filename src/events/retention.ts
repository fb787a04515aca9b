import type { Deps } from '../deps.ts';
import { dropMonthsBefore } from '../db/partitions.ts';
import { deleteEventsBefore, eventsStillNeeded } from './repository.ts';

/** Events deleted per statement from the default partition; a pass repeats until fewer are left. */
const BATCH_SIZE = 1000;

/**
 * One pass of the outbox retention (EVENT_RETENTION_DAYS before deps.now()), never removing an event a webhook still
 * has to deliver (not queued yet, or queued and neither delivered nor given up):
 * - a month partition (migration 230) whose whole month lies before the cutoff is dropped whole, or kept for a later
 *   pass while a webhook still needs one of its events: an event is kept at least EVENT_RETENTION_DAYS and at most
 *   a month longer, so the event stream's Last-Event-ID resume reaches back at least that far;
 * - events of the default partition (months without a partition) older than the cutoff are deleted in batches.
 * Several instances can run it at once. Returns how many events it removed.
 */
export async function deleteOldEvents(deps: Pick<Deps, 'db' | 'config' | 'now'>): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.config.eventRetentionDays * 24 * 3600 * 1000);
  let deleted = await dropMonthsBefore(deps.db, 'events', before, eventsStillNeeded);
  for (;;) {
    const batch = await deleteEventsBefore(deps.db, before, BATCH_SIZE);
    deleted += batch;
    if (batch < BATCH_SIZE) return deleted;
  }
}

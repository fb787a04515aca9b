import type { Deps } from '../deps.ts';
import { recordEvent } from '../events/outbox.ts';
import * as repo from './repository.ts';
import { toConversation } from './presenter.ts';

/** Conversations closed per transaction; a pass repeats until fewer are idle. */
const BATCH_SIZE = 500;

/**
 * One pass of the inactivity auto-close (docs/behaviour.md §7): closes every conversation
 * not closed whose last message is older than INACTIVITY_TIMEOUT_SECONDS at
 * deps.now(), with a conversation.closed event each. Returns how many it closed.
 */
export async function closeIdleConversations(deps: Pick<Deps, 'db' | 'config' | 'now'>): Promise<number> {
  const now = deps.now();
  let closed = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const rows = await repo.closeIdleConversations(tx, now, deps.config.inactivityTimeoutSeconds, BATCH_SIZE);
      // Events lock their account's row: take those locks in one order, so concurrent passes cannot deadlock.
      rows.sort((a, b) => (a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1 : 0));
      for (const row of rows) {
        await recordEvent(tx, row.account_id, now, 'conversation.closed', { conversation: toConversation(row) }, row.id);
      }
      return rows.length;
    });
    closed += batch;
    if (batch < BATCH_SIZE) return closed;
  }
}

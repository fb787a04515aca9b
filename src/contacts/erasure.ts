import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Queryable } from '../db/db.ts';
import { deleteConversations, lockContactConversations } from '../conversations/repository.ts';
import { deleteUploadsAttachedOnlyIn } from '../uploads/repository.ts';
import { deletePersonEvents } from '../events/repository.ts';
import { dropDeliveriesOfEvents } from '../webhooks/queue.ts';
import { deleteContactVisits } from '../visitors/repository.ts';
import * as repo from './repository.ts';

type ErasureDeps = Pick<Deps, 'db' | 'now'>;

/** Conversations erased per transaction: each batch holds its rows' locks (and on PGlite the one backend) briefly. */
export const ERASURE_BATCH = 200;

/** How often the last step is tried again when a conversation was started with the contact while the batches ran. */
const FINAL_ATTEMPTS = 5;

/**
 * DELETE /v2/contacts/{id} (docs/behaviour.md §4 "Erasure"): the person disappears atomically, then their data
 * goes in batches. One transaction marks the contact as erasing and records `contact.deleted` (its id only): from
 * its commit the contact is missing from every read and cannot start a conversation, and search lists none of its
 * conversations. Then batches of ERASURE_BATCH conversations, each one transaction, delete the conversations with
 * their messages, paths, uploads, events and pending webhook deliveries; last, the contact's own events and the
 * contact. A failure part-way leaves the contact marked: calling again (it is still found for this call) finishes
 * the job, and so does the erasure job (src/jobs.ts) for an erasure abandoned by a crash. Batches keep every lock
 * short, so other accounts (and on PGlite every other request) never wait on a long erasure, and the events'
 * settled horizon (src/events/horizon.ts) is never held back by one long transaction.
 */
export async function eraseContact(deps: ErasureDeps, accountId: string, id: string): Promise<void> {
  const marked = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const mark = await repo.markErasing(tx, accountId, id, now);
    if (mark?.started) await recordEvent(tx, accountId, now, 'contact.deleted', { contact_id: id });
    return mark;
  });
  if (!marked) throw notFound(`Contact ${id}`);
  await finishErasure(deps, accountId, id);
}

/** Erases what is left of a contact marked erasing (the batches and the last step of eraseContact). */
export async function finishErasure(deps: Pick<Deps, 'db'>, accountId: string, id: string, batch = ERASURE_BATCH): Promise<void> {
  for (let attempt = 0; attempt < FINAL_ATTEMPTS; attempt++) {
    while ((await deps.db.transaction((tx) => eraseConversationBatch(tx, accountId, id, batch))) === batch);
    const done = await deps.db.transaction(async (tx) => {
      await deleteContactVisits(tx, accountId, id);
      if (!(await repo.deleteErasedContact(tx, accountId, id))) return false;
      await dropDeliveriesOfEvents(tx, accountId, await deletePersonEvents(tx, accountId, { contactId: id }));
      return true;
    });
    if (done) return;
  }
  throw new Error(`Contact ${id} of account ${accountId}: conversations kept being started while it was erased`);
}

/** An erasure marked this long ago and not finished was abandoned (a crash, a lost connection): the job finishes it. */
export const STALLED_ERASURE_MS = 10 * 60_000;

/** One pass of the erasure job: finishes erasures abandoned part-way, a few at a time. Returns how many. */
export async function finishStalledErasures(deps: Pick<Deps, 'db' | 'now'>, limit = 10): Promise<number> {
  const stalled = await repo.stalledErasures(deps.db, new Date(deps.now().getTime() - STALLED_ERASURE_MS), limit);
  for (const contact of stalled) await finishErasure(deps, contact.account_id, contact.id);
  return stalled.length;
}

/**
 * One batch, in the caller's transaction: up to `limit` of the contact's conversations (locked) with their uploads,
 * events and pending deliveries, messages and paths, each deleted by its table's owner. Returns how many.
 */
async function eraseConversationBatch(tx: Queryable, accountId: string, contactId: string, limit: number): Promise<number> {
  const ids = await lockContactConversations(tx, accountId, contactId, limit);
  if (ids.length === 0) return 0;
  await deleteUploadsAttachedOnlyIn(tx, accountId, contactId, ids);
  await dropDeliveriesOfEvents(tx, accountId, await deletePersonEvents(tx, accountId, { conversationIds: ids }));
  await deleteConversations(tx, accountId, ids);
  return ids.length;
}

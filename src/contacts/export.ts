import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { exportContactConversations } from '../conversations/repository.ts';
import * as repo from './repository.ts';
import { toContact, toExportedConversation } from './presenter.ts';

/** Conversations read per query: a person's history is streamed a batch at a time, never held whole. */
export const EXPORT_BATCH = 100;

/**
 * GET /v2/contacts/{id}/export (docs/behaviour.md §4 "Export"): one JSON document (contact_export) with everything
 * stored about the contact, as text chunks: the contact first (a missing one throws before anything is sent), then
 * its conversations EXPORT_BATCH at a time, each with all its messages, paths and upload metadata. The caller
 * streams the chunks; with `deps.db` the heavy lane, each batch yields to small requests.
 */
export async function exportContact(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  id: string,
  batchSize = EXPORT_BATCH,
): Promise<AsyncIterable<string>> {
  const row = await repo.findContact(deps.db, accountId, id);
  if (!row) throw notFound(`Contact ${id}`);
  const contact = toContact(row);
  const exportedAt = deps.now().toISOString();
  async function* chunks(): AsyncGenerator<string> {
    yield `{"exported_at":${JSON.stringify(exportedAt)},"contact":${JSON.stringify(contact)},"conversations":[`;
    let after: string | null = null;
    let first = true;
    for (;;) {
      const batch = await exportContactConversations(deps.db, accountId, id, after, batchSize);
      for (const item of batch) {
        yield `${first ? '' : ','}${JSON.stringify(toExportedConversation(item))}`;
        first = false;
      }
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      after = last.row.id;
    }
    yield ']}';
  }
  return chunks();
}

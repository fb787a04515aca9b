import type { Deps } from '../deps.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import { recordEvent } from '../events/outbox.ts';
import { decodeCursor, encodeCursor, queryBinding } from '../http/cursor.ts';
import type { Contact, ContactPage, CreateContactBody, ListContactsQuery } from './schema.ts';
import * as repo from './repository.ts';

type ContactDeps = Pick<Deps, 'db' | 'now'>;

/** Always creates (docs/behaviour.md §4); identity_id is unique per account. */
export async function createContact(deps: ContactDeps, accountId: string, input: CreateContactBody): Promise<Contact> {
  return deps.db.transaction(async (tx) => {
    const contact = await repo.insertContact(tx, accountId, {
      email: input.email ?? null,
      identity_id: input.identity_id ?? null,
      name: input.name ?? null,
      phone: input.phone ?? null,
      created_at: deps.now(),
    });
    if (!contact) throw invalidArgument('identity_id', 'unique', 'is already used by another contact');
    await recordEvent(tx, accountId, deps.now(), 'contact.created', { contact });
    return contact;
  });
}

export async function getContact(deps: ContactDeps, accountId: string, id: string): Promise<Contact> {
  const contact = await repo.findContact(deps.db, accountId, id);
  if (!contact) throw notFound(`Contact ${id}`);
  return contact;
}

/** Without an e-mail there is nothing to find: 404 like a miss (docs/behaviour.md §4). */
export async function findContactByEmail(deps: ContactDeps, accountId: string, email: string | undefined): Promise<Contact> {
  const contact = email ? await repo.findContactByEmail(deps.db, accountId, email) : null;
  if (!contact) throw notFound(email ? `Contact with email ${email}` : 'Contact (no email given)');
  return contact;
}

/**
 * GET /v2/contacts (docs/behaviour.md §4): newest first, filtered by `q`; the cursor is bound to the account and `q`.
 */
export async function listContacts(deps: ContactDeps, accountId: string, query: ListContactsQuery): Promise<ContactPage> {
  const q = query.q?.trim() || undefined;
  const binding = queryBinding(accountId, { q: q ?? null });
  let after: { createdAt: string; id: string } | null = null;
  if (query.after !== undefined) {
    const [createdAt, id] = decodeCursor(query.after, binding, ['string', 'string'], 'after', 'query') as string[];
    if (Number.isNaN(new Date(createdAt).getTime()))
      throw invalidArgument('after', 'cursor', 'must be the `after` of a previous page', 'query');
    after = { createdAt, id };
  }
  const rows = await repo.listContacts(deps.db, accountId, q, after, query.size + 1);
  const page = rows.slice(0, query.size);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => row.contact),
    after: rows.length > query.size ? encodeCursor(binding, [last.position, last.contact.id]) : null,
  };
}

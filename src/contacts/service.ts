import type { Deps } from '../deps.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import { recordEvent } from '../events/outbox.ts';
import { decodeCursor, encodeCursor, queryBinding } from '../http/cursor.ts';
import type { Contact, ContactPage, CreateContactBody, ListContactsQuery } from './schema.ts';
import * as repo from './repository.ts';
import { toContact } from './presenter.ts';

type ContactDeps = Pick<Deps, 'db' | 'now'>;

/** Always creates (docs/behaviour.md §4); identity_id is unique per account. */
export async function createContact(deps: ContactDeps, accountId: string, input: CreateContactBody): Promise<Contact> {
  return deps.db.transaction(async (tx) => {
    const row = await repo.insertContact(tx, accountId, {
      email: input.email ?? null,
      identity_id: input.identity_id ?? null,
      name: input.name ?? null,
      phone: input.phone ?? null,
      created_at: deps.now(),
    });
    if (!row) throw invalidArgument('identity_id', 'unique', 'is already used by another contact');
    const contact = toContact(row);
    await recordEvent(tx, accountId, deps.now(), 'contact.created', { contact });
    return contact;
  });
}

/**
 * The contact a verified identity names (a signed-in visitor of the widget, docs/widget.md): the one with this
 * identity_id, created with the name and e-mail given when there is none yet. Null when that contact is being erased.
 */
export async function contactOfIdentity(
  deps: ContactDeps,
  accountId: string,
  identity: { identity_id: string; name: string | null; email: string | null },
): Promise<Contact | null> {
  const found = await repo.findContactByIdentityId(deps.db, accountId, identity.identity_id);
  if (found) return toContact(found);
  return deps.db.transaction(async (tx) => {
    const row = await repo.insertContact(tx, accountId, { ...identity, phone: null, created_at: deps.now() });
    if (!row) {
      // Taken meanwhile (a concurrent session), or by a contact being erased.
      const taken = await repo.findContactByIdentityId(tx, accountId, identity.identity_id);
      return taken && toContact(taken);
    }
    const contact = toContact(row);
    await recordEvent(tx, accountId, deps.now(), 'contact.created', { contact });
    return contact;
  });
}

export async function getContact(deps: ContactDeps, accountId: string, id: string): Promise<Contact> {
  const row = await repo.findContact(deps.db, accountId, id);
  if (!row) throw notFound(`Contact ${id}`);
  return toContact(row);
}

/** Without an e-mail there is nothing to find: 404 like a miss (docs/behaviour.md §4). */
export async function findContactByEmail(deps: ContactDeps, accountId: string, email: string | undefined): Promise<Contact> {
  const row = email ? await repo.findContactByEmail(deps.db, accountId, email) : null;
  if (!row) throw notFound(email ? `Contact with email ${email}` : 'Contact (no email given)');
  return toContact(row);
}

/**
 * GET /v2/contacts (docs/behaviour.md §4): newest first, filtered by `q`; the cursor is bound to the account and `q`.
 */
export async function listContacts(deps: ContactDeps, accountId: string, query: ListContactsQuery): Promise<ContactPage> {
  const q = query.q?.trim() || undefined;
  const binding = queryBinding(accountId, { q: q ?? null });
  let after: { createdAt: string; id: string } | null = null;
  if (query.after !== undefined) {
    const [createdAt, id] = decodeCursor(query.after, binding, ['string', 'string'], 'after', 'query');
    if (Number.isNaN(new Date(createdAt).getTime()))
      throw invalidArgument('after', 'cursor', 'must be the `after` of a previous page', 'query');
    after = { createdAt, id };
  }
  const rows = await repo.listContacts(deps.db, accountId, q, after, query.size + 1);
  const page = rows.slice(0, query.size);
  const last = rows.length > query.size ? page.at(-1) : undefined;
  return {
    items: page.map(toContact),
    after: last ? encodeCursor(binding, [last.position, last.id]) : null,
  };
}

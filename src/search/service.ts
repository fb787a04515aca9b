import type { Deps } from '../deps.ts';
import { invalidArgument } from '../http/errors.ts';
import { instantOutOfRange } from '../http/instants.ts';
import { decodeCursor, encodeCursor, queryBinding } from '../http/cursor.ts';
import type { SearchBody, SearchPage } from './schema.ts';
import * as repo from './repository.ts';
import { toSearchHit } from './presenter.ts';

type SearchDeps = Pick<Deps, 'db'>;

/** A date-time of a range filter: one the API accepts anywhere (docs/behaviour.md §2). */
function instant(value: string | undefined, path: string): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalidArgument(path, 'format', 'must be a valid date-time');
  const outside = instantOutOfRange(at);
  if (outside) throw invalidArgument(path, outside.code, outside.message);
  return at;
}

function range(value: { from?: string; to?: string } | undefined, path: string) {
  return value && { from: instant(value.from, `${path}.from`), to: instant(value.to, `${path}.to`) };
}

/**
 * POST /v2/conversations/search (docs/behaviour.md §5 "Search"): a page of the account's conversations matching
 * every filter given, newest change first unless asked otherwise, with a snippet per item for a `query`. The
 * cursor is bound to the account and to the body without `size` and `after`: another query's is a 422.
 * `deps.db` is the heavy lane (src/search/routes.ts), as for statistics.
 */
export async function searchConversations(deps: SearchDeps, accountId: string, body: SearchBody): Promise<SearchPage> {
  const sort = body.sort ?? 'updated_at';
  if (sort === 'relevance' && body.query === undefined) throw invalidArgument('sort', 'dependentRequired', 'relevance needs a query');
  const filters: repo.SearchFilters = {
    status: body.status,
    assigned: body.assigned,
    groupId: body.group_id,
    contactId: body.contact_id,
    tags: body.tags,
    createdAt: range(body.created_at, 'created_at'),
    updatedAt: range(body.updated_at, 'updated_at'),
    unread: body.unread,
    query: body.query,
  };
  const { size: _size, after: _after, ...query } = body;
  const binding = queryBinding(accountId, { ...query, sort });
  let after: repo.SearchPosition | null = null;
  if (body.after !== undefined) {
    const [key, id] = decodeCursor(body.after, binding, [sort === 'relevance' ? 'number' : 'string', 'string'], 'after', 'body');
    if (sort !== 'relevance' && Number.isNaN(new Date(key as string).getTime()))
      throw invalidArgument('after', 'cursor', 'must be the `after` of a previous page');
    after = { key, id };
  }
  const size = body.size ?? 20;
  const rows = await repo.searchConversations(deps.db, accountId, filters, sort, after, size + 1);
  const page = rows.slice(0, size);
  const last = rows.length > size ? page.at(-1) : undefined;
  const headlines =
    body.query === undefined
      ? undefined
      : await repo.snippets(
          deps.db,
          accountId,
          page.map((row) => row.id),
          body.query,
        );
  return {
    items: page.map((row) => toSearchHit(row, headlines)),
    after: last ? encodeCursor(binding, [last.sort_key, last.id]) : null,
  };
}

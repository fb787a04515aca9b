import type { Queryable } from '../db/db.ts';
import { SqlParams } from '../db/params.ts';
import type { Row } from '../db/rows.ts';
import { CONVERSATION_FIELDS, type ConversationRow } from '../conversations/repository.ts';
import { erasingContactIdsSql } from '../contacts/repository.ts';

/** What a search asks for, checked (docs/behaviour.md §5 "Search"). */
export interface SearchFilters {
  status?: Row<'conversations'>['status'][];
  /** null: assigned to nobody. */
  assigned?: string[] | null;
  /** null: in no group. */
  groupId?: string | null;
  contactId?: string;
  tags?: string[];
  createdAt?: { from?: Date; to?: Date };
  updatedAt?: { from?: Date; to?: Date };
  unread?: boolean;
  query?: string;
}

/** A page's last item: its sort key (a timestamp as text with microseconds, or a rank) and id. */
export interface SearchPosition {
  key: string | number;
  id: string;
}

export type SearchRow = ConversationRow & { sort_key: string | number };

/** The order of a search: newest first by one of the conversation's times, or best match first. */
export type SearchOrder = 'updated_at' | 'created_at' | 'relevance';

/** The text search configuration of every search (migration 220): `simple` with `unaccent` first. */
const CONFIG = `'chat_search'::regconfig`;

/** A timestamp as text exact to the microsecond, whatever the session's time zone (cursor positions). */
const exactTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page (`limit` rows) of the account's conversations matching `filters`, in `sort` order after `after`.
 * With a query, a conversation matches when one of its messages or its contact's name or e-mail does
 * (`websearch_to_tsquery`: the query's text is words, never tsquery operators).
 */
export async function searchConversations(
  db: Queryable,
  accountId: string,
  filters: SearchFilters,
  sort: SearchOrder,
  after: SearchPosition | null,
  limit: number,
): Promise<SearchRow[]> {
  const p = new SqlParams();
  const account = p.add(accountId);
  // Conversations of a contact being erased are gone at once, before their batch deletes them (docs/behaviour.md §4).
  const where: string[] = [`c.account_id = ${account}`, `not (c.contact_id = any(${erasingContactIdsSql(account)}))`];
  let source = 'conversations c';
  if (filters.query !== undefined) {
    const tsquery = `websearch_to_tsquery(${CONFIG}, ${p.add(filters.query)})`;
    const rank = (vector: string) => (sort === 'relevance' ? `ts_rank(${vector}, ${tsquery})::float8` : '0::float8');
    source = `(select id, max(rank) as rank from (
                 select m.conversation_id as id, ${rank('m.text_search')} as rank
                 from messages m where m.account_id = ${account} and m.text_search @@ ${tsquery}
                 union all
                 select cc.id, ${rank('ct.text_search')}
                 from contacts ct join conversations cc on cc.account_id = ct.account_id and cc.contact_id = ct.id
                 where ct.account_id = ${account} and ct.text_search @@ ${tsquery}
               ) hits group by id) h
               join conversations c on c.account_id = ${account} and c.id = h.id`;
  }
  if (filters.status) where.push(`c.status = any(${p.add(filters.status)}::text[])`);
  if (filters.assigned === null) where.push(`c.assigned_ids = '{}'`);
  else if (filters.assigned) where.push(`c.assigned_ids && ${p.add(filters.assigned)}::text[]`);
  if (filters.groupId === null) where.push('c.group_id is null');
  else if (filters.groupId !== undefined) where.push(`c.group_id = ${p.add(filters.groupId)}`);
  if (filters.contactId !== undefined) where.push(`c.contact_id = ${p.add(filters.contactId)}`);
  if (filters.tags) where.push(`c.tags && ${p.add(filters.tags)}::text[]`);
  for (const [column, range] of [
    ['created_at', filters.createdAt],
    ['updated_at', filters.updatedAt],
  ] as const) {
    if (range?.from) where.push(`c.${column} >= ${p.add(range.from)}::timestamptz`);
    if (range?.to) where.push(`c.${column} < ${p.add(range.to)}::timestamptz`);
  }
  if (filters.unread === true) where.push('c.unread > 0');
  if (filters.unread === false) where.push('c.unread = 0');

  const key = sort === 'relevance' ? 'h.rank' : `c.${sort}`;
  if (after) {
    const position = sort === 'relevance' ? `${p.add(after.key)}::float8` : `${p.add(after.key)}::timestamptz`;
    where.push(`(${key}, c.id) < (${position}, ${p.add(after.id)}::text)`);
  }
  const { rows } = await db.query<SearchRow>(
    `select ${CONVERSATION_FIELDS.map((field) => `c.${field}`).join(', ')},
            ${sort === 'relevance' ? key : exactTime(key)} as sort_key
     from ${source}
     where ${where.join(' and ')}
     order by ${key} desc, c.id desc
     limit ${p.add(limit)}`,
    p.values,
  );
  return rows;
}

/** Start and stop marks of ts_headline: control characters taken out of the text first, so they only mark matches. */
export const MATCH_START = '\u0001';
export const MATCH_END = '\u0002';

/**
 * For each of `conversationIds`, the best matching message's text around the match, the matched words between
 * MATCH_START and MATCH_END (ts_headline: the same parser and dictionaries as the search). Conversations found
 * only by their contact are missing.
 */
export async function snippets(db: Queryable, accountId: string, conversationIds: string[], query: string): Promise<Map<string, string>> {
  if (conversationIds.length === 0) return new Map();
  const { rows } = await db.query<{ conversation_id: string; headline: string }>(
    `with q as (select websearch_to_tsquery(${CONFIG}, $3) as q),
     best as (
       select distinct on (m.conversation_id) m.conversation_id, m.text
       from messages m, q
       where m.account_id = $1 and m.conversation_id = any($2::text[]) and m.text_search @@ q.q
       order by m.conversation_id, ts_rank(m.text_search, q.q) desc, m.created_at desc, m.seq desc
     )
     select b.conversation_id,
            ts_headline(${CONFIG}, translate(left(b.text, 100000), E'\\x01\\x02', '  '), q.q,
                        'StartSel=' || E'\\x01' || ', StopSel=' || E'\\x02' || ', MaxWords=30, MinWords=12, ShortWord=0') as headline
     from best b, q`,
    [accountId, conversationIds, query],
  );
  return new Map(rows.map((row) => [row.conversation_id, row.headline]));
}

import type { Queryable, Transaction } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import { SqlParams } from '../db/params.ts';
import { defaultPartition } from '../db/partitions.ts';
import { agentAvailableSql, missingAgentIdsSql, type PresenceAt } from '../agents/repository.ts';
import { contactExistsSql } from '../contacts/repository.ts';
import { insertEventsSql, type NewEvent } from '../events/outbox.ts';
import { missingNamedIdsSql } from '../named-resources/repository.ts';
import { GROUPS, TAGS } from '../named-resources/kinds.ts';
import type { StoredAttachment } from '../content/attachments.ts';
import type { ConversationMessageState, MessageFlags } from './flags.ts';

/** A conversation as stored; services change it in memory and save it whole. */
export type ConversationRow = Omit<Row<'conversations'>, 'account_id'> & ConversationMessageState & { variables: Record<string, unknown> };

export const CONVERSATION_FIELDS: (keyof ConversationRow)[] = [
  'id',
  'ext_id',
  'status',
  'contact_id',
  'group_id',
  'domain',
  'assigned_ids',
  'agent_ids',
  'tags',
  'variables',
  'rating_value',
  'rating_text',
  'rated_at',
  'is_offline',
  'is_served',
  'unread',
  'last_message_text',
  'last_message_at',
  'created_at',
  'updated_at',
  'finished_at',
  'close_type',
  'unanswered_since',
  'unanswered_offline',
  'has_reply',
  'has_contact_message',
  'latest_message_at',
];
const CONVERSATION_COLUMNS = CONVERSATION_FIELDS.join(', ');

// A conversation never changes its id, contact or creation time.
const CHANGEABLE_FIELDS = CONVERSATION_FIELDS.filter((field) => !['id', 'contact_id', 'created_at'].includes(field));

/** The column values of `row`, in the order of `fields`. */
function columnValues(row: ConversationRow, fields: readonly (keyof ConversationRow)[]): unknown[] {
  return fields.map((field) => (field === 'variables' ? JSON.stringify(row.variables) : row[field]));
}

/** Inserts the conversations of the JSON array `json` (conversationsJson) into `account`; the table's types decode it. */
const insertConversationsSql = (account: string, json: string) => `insert into conversations (account_id, ${CONVERSATION_COLUMNS})
  select ${account}, ${CONVERSATION_COLUMNS} from json_populate_recordset(null::conversations, ${json}::json)`;

const conversationsJson = (rows: readonly ConversationRow[]) =>
  JSON.stringify(rows.map((row) => Object.fromEntries(CONVERSATION_FIELDS.map((field) => [field, row[field]]))));

/** Inserts `rows` in one statement (the demo history's batches). */
export async function insertConversations(db: Queryable, accountId: string, rows: readonly ConversationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(insertConversationsSql('$1', '$2'), [accountId, conversationsJson(rows)]);
}

/** SQL: the conversation `$2` of account `$1`, unless its contact is being erased (docs/behaviour.md §4 "Erasure"). */
const VISIBLE_CONVERSATION = `account_id = $1 and id = $2 and ${contactExistsSql('$1', 'conversations.contact_id')}`;

/** The conversation; a conversation of a contact being erased is missing, as in every read by id. */
export async function findConversation(db: Queryable, accountId: string, id: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(`select ${CONVERSATION_COLUMNS} from conversations where ${VISIBLE_CONVERSATION}`, [
    accountId,
    id,
  ]);
  return rows[0] ?? null;
}

/** A conversation read for a change: its row, its version (the row's `xmin`), and whether an agent is available. */
export interface ConversationForChange {
  conv: ConversationRow;
  version: string;
  agentAvailable: boolean | null;
}

/**
 * The conversation as `findConversation` finds it, its row locked until the transaction ends (serialising writers;
 * no lock in a transaction that runs `alone`, which nothing can interleave with); with `presence`, whether an agent
 * of its group is available then (what a live contact message needs), in the same query, else null.
 */
export function lockConversation(
  tx: Transaction,
  accountId: string,
  id: string,
  presence?: PresenceAt,
): Promise<ConversationForChange | null> {
  return conversationForChange(tx, accountId, id, presence, !tx.alone);
}

/** The same without a lock, outside a transaction: a write of it is conditional on its version (writeConversation). */
export function readConversationForChange(
  db: Queryable,
  accountId: string,
  id: string,
  presence?: PresenceAt,
): Promise<ConversationForChange | null> {
  return conversationForChange(db, accountId, id, presence, false);
}

async function conversationForChange(
  db: Queryable,
  accountId: string,
  id: string,
  presence: PresenceAt | undefined,
  lock: boolean,
): Promise<ConversationForChange | null> {
  const { rows } = await db.query<ConversationRow & { agent_available: boolean | null; version: string }>(
    `select ${CONVERSATION_COLUMNS}, conversations.xmin::text as version,
            ${presence ? agentAvailableSql('$1', 'conversations.group_id', '$3', '$4') : 'null::boolean'} as agent_available
     from conversations where ${VISIBLE_CONVERSATION} ${lock ? 'for update of conversations' : ''}`,
    presence ? [accountId, id, presence.at, presence.ttlSeconds] : [accountId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const { agent_available: agentAvailable, version, ...conv } = row;
  return { conv, version, agentAvailable };
}

/** The contact's newest conversations, newest first (index conversations_contact). */
export async function contactConversations(db: Queryable, accountId: string, contactId: string, limit: number): Promise<ConversationRow[]> {
  const { rows } = await db.query<ConversationRow>(
    `select ${CONVERSATION_COLUMNS} from conversations where account_id = $1 and contact_id = $2
     order by created_at desc, id desc limit $3`,
    [accountId, contactId, limit],
  );
  return rows;
}

export async function findConversationByExtId(db: Queryable, accountId: string, extId: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(
    `select ${CONVERSATION_COLUMNS} from conversations where account_id = $1 and ext_id = $2 and ${contactExistsSql('$1', 'conversations.contact_id')}`,
    [accountId, extId],
  );
  return rows[0] ?? null;
}

/**
 * Closes up to `limit` conversations, of every account, whose last message is
 * older than the timeout at `now`: close_type inactivity, finished_at when they
 * went idle (last message + timeout; never before created_at, so no duration is negative). SKIP LOCKED: several instances, or a
 * message being stored, never close one twice or wait on each other.
 */
export async function closeIdleConversations(
  db: Queryable,
  now: Date,
  timeoutSeconds: number,
  limit: number,
): Promise<(ConversationRow & { account_id: string })[]> {
  const { rows } = await db.query<ConversationRow & { account_id: string }>(
    `with idle as (
       select account_id, id from conversations
       where status <> 'closed' and last_message_at < $1::timestamptz - make_interval(secs => $2)
       order by last_message_at
       limit $3
       for update skip locked
     )
     update conversations c
     set status = 'closed', close_type = 'inactivity',
         finished_at = greatest(c.last_message_at + make_interval(secs => $2), c.created_at), updated_at = $1
     from idle where c.account_id = idle.account_id and c.id = idle.id
     returning c.account_id, ${CONVERSATION_FIELDS.map((field) => `c.${field}`).join(', ')}`,
    [now, timeoutSeconds, limit],
  );
  return rows;
}

/** The references a write names, each checked when given (docs/behaviour.md §5). */
export interface ReferenceCheck {
  contactId?: string;
  agentIds?: string[];
  groupId?: string | null;
  tagIds?: string[];
  /** An ext_id that no conversation other than `exceptId` may use. */
  extId?: { value: string; exceptId: string | null };
  /** Also answer whether an agent is available, of `groupId` when not null (for a live contact message). */
  availability?: { groupId: string | null; presence: PresenceAt };
}

export interface ReferenceAnswer {
  contactMissing: boolean;
  /** In the order given. */
  missingAgentIds: string[];
  groupMissing: boolean;
  missingTagIds: string[];
  extIdTaken: boolean;
  /** Null when not asked. */
  agentAvailable: boolean | null;
}

/** The problems a reference check looks for, each an SQL column of the check's query, for the parts `check` asks. */
function referenceProblemsSql(p: SqlParams, account: string, check: Omit<ReferenceCheck, 'availability'>) {
  const problems: { column: keyof ReferenceProblems; sql: string; ids: boolean }[] = [];
  if (check.contactId !== undefined)
    problems.push({ column: 'contact_missing', sql: `not ${contactExistsSql(account, p.add(check.contactId))}`, ids: false });
  if (check.agentIds?.length)
    problems.push({ column: 'missing_agent_ids', sql: missingAgentIdsSql(account, p.add(check.agentIds)), ids: true });
  if (check.groupId)
    problems.push({ column: 'missing_group_ids', sql: missingNamedIdsSql(GROUPS, account, p.add([check.groupId])), ids: true });
  if (check.tagIds?.length)
    problems.push({ column: 'missing_tag_ids', sql: missingNamedIdsSql(TAGS, account, p.add(check.tagIds)), ids: true });
  if (check.extId) {
    const [extId, exceptId] = [p.add(check.extId.value), p.add(check.extId.exceptId)];
    problems.push({
      column: 'ext_id_taken',
      sql: `exists (select 1 from conversations where account_id = ${account} and ext_id = ${extId}
                    and (${exceptId}::text is null or id <> ${exceptId}))`,
      ids: false,
    });
  }
  return problems;
}

interface ReferenceProblems {
  contact_missing?: boolean;
  missing_agent_ids?: string[];
  missing_group_ids?: string[];
  missing_tag_ids?: string[];
  ext_id_taken?: boolean;
}

/** SQL: whether every reference of `check` holds (true when it asks nothing), for a write conditional on them. */
function referencesHoldSql(p: SqlParams, account: string, check: Omit<ReferenceCheck, 'availability'>): string {
  const problems = referenceProblemsSql(p, account, check);
  return problems.length === 0 ? 'true' : problems.map(({ sql, ids }) => (ids ? `cardinality(${sql}) = 0` : `not ${sql}`)).join(' and ');
}

/**
 * Checks every reference of `check` in one query (none when nothing is asked). Groups and tags found stay
 * locked (key share) until the transaction ends, so they cannot be deleted under the write.
 */
export async function checkReferences(db: Queryable, accountId: string, check: ReferenceCheck): Promise<ReferenceAnswer> {
  // Only what is asked goes into the query: a create naming a contact and an ext_id plans two lookups, not six.
  const p = new SqlParams();
  const account = p.add(accountId);
  const columns = referenceProblemsSql(p, account, check).map(({ column, sql }) => `${sql} as ${column}`);
  if (check.availability) {
    const { groupId, presence } = check.availability;
    columns.push(`${agentAvailableSql(account, p.add(groupId), p.add(presence.at), p.add(presence.ttlSeconds))} as agent_available`);
  }
  if (columns.length === 0)
    return { contactMissing: false, missingAgentIds: [], groupMissing: false, missingTagIds: [], extIdTaken: false, agentAvailable: null };
  const { rows } = await db.query<ReferenceProblems & { agent_available?: boolean }>(`select ${columns.join(', ')}`, p.values);
  const row = firstRow(rows);
  return {
    contactMissing: row.contact_missing ?? false,
    missingAgentIds: row.missing_agent_ids ?? [],
    groupMissing: (row.missing_group_ids?.length ?? 0) > 0,
    missingTagIds: row.missing_tag_ids ?? [],
    extIdTaken: row.ext_id_taken ?? false,
    agentAvailable: row.agent_available ?? null,
  };
}

/** The `content` jsonb of a message: its text and sanitised html, or for an event (`type`) its `data`. */
export interface MessageContent {
  type: string;
  text: string | null;
  html?: string | null;
  data?: Record<string, unknown>;
}

/** A message to store in a conversation. */
export interface NewMessageRow {
  id: string;
  type: Row<'messages'>['type'];
  sub_type: Row<'messages'>['sub_type'];
  agent_id: string | null;
  content: MessageContent;
  attachments: StoredAttachment[];
  flags: MessageFlags;
  group_id: string | null;
  created_at: Date;
}

export type MessageRow = Omit<Row<'messages'>, 'account_id' | 'text' | 'html' | 'group_id' | 'text_search'> & {
  content: MessageContent;
  attachments: StoredAttachment[];
};

const MESSAGE_COLUMNS = `id, conversation_id, seq, type, sub_type, agent_id, trigger_id, content, attachments,
  is_reply, is_first_reply, is_offline, is_offline_reply, response_time, created_at`;

/** A message as `writeConversation` stores it: every column a record shows (the database adds only `seq`). */
export type StoredMessageRow = Omit<MessageRow, 'seq'>;

/** The row `writeConversation` stores for `message` in conversation `conversationId`, known before it is written. */
export function storedMessageRow(conversationId: string, message: NewMessageRow): StoredMessageRow {
  return {
    id: message.id,
    conversation_id: conversationId,
    type: message.type,
    sub_type: message.sub_type,
    agent_id: message.agent_id,
    trigger_id: null,
    content: message.content,
    attachments: message.attachments,
    ...message.flags,
    created_at: message.created_at,
  };
}

/** Whether a column keeps its value: dates by instant, arrays item by item, `variables` by its JSON. */
function sameColumnValue(before: unknown, after: unknown): boolean {
  if (before === after) return true;
  if (before instanceof Date && after instanceof Date) return before.getTime() === after.getTime();
  if (Array.isArray(before) && Array.isArray(after)) return before.length === after.length && before.every((item, i) => item === after[i]);
  if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object')
    return JSON.stringify(before) === JSON.stringify(after);
  return false;
}

/** That an agent is available (or not), judged at `presence`: what a live contact message was judged with. */
export interface AvailabilityJudged {
  presence: PresenceAt;
  available: boolean;
}

/**
 * What a write made without reading first requires to be still true. Of a change to a conversation read without a
 * lock: the row is the version read (its `xmin`), and its contact is not being erased. Of a new conversation whose
 * references were not checked first: they hold (`references`: contact, agents, group, tags, ext_id). Either way, for a
 * live contact message, an agent's availability (of the conversation's group) is what the message was judged with.
 */
export type WriteCondition =
  | { version: string; agentAvailable?: AvailabilityJudged }
  | { references: Omit<ReferenceCheck, 'availability'>; agentAvailable?: AvailabilityJudged };

/**
 * Writes `conv`: inserted when there was none `before` (null), else the columns whose value changed saved (under the
 * row lock the transaction took, so nothing else changed them meanwhile; none when none did). Inserts `messages` after
 * the conversation's current ones, in their order, and records `events` in the outbox, in one statement (so one round
 * trip, and one worker trip on PGlite). The caller announces the events (`announceEvents`) with the transaction.
 * With `condition` (`before` read without a lock, or a new conversation's references not checked first), nothing is
 * written unless it holds. Returns null when nothing was written, else the row's new version when the write was
 * conditional (null otherwise).
 */
export async function writeConversation(
  db: Queryable,
  accountId: string,
  conv: ConversationRow,
  before: ConversationRow | null,
  messages: readonly NewMessageRow[],
  events: { at: Date; items: readonly NewEvent[] },
  condition?: WriteCondition,
): Promise<{ version: string | null } | null> {
  const p = new SqlParams();
  const account = p.add(accountId);
  const writes: string[] = [];
  // `group` names the group's parameter or column, once asked: every parameter added is one the statement uses.
  const availability = (group: () => string, judged: AvailabilityJudged | undefined) =>
    judged
      ? `and ${agentAvailableSql(account, group(), p.add(judged.presence.at), p.add(judged.presence.ttlSeconds))} = ${p.add(judged.available)}`
      : '';
  if (before === null) {
    const insert = insertConversationsSql(account, p.add(conversationsJson([conv])));
    if (condition !== undefined) {
      if (!('references' in condition)) throw new Error('A new conversation is written conditional on its references');
      writes.push(`${insert}
                   where ${referencesHoldSql(p, account, condition.references)} ${availability(() => p.add(conv.group_id), condition.agentAvailable)}
                   returning xmin::text as version`);
    } else writes.push(insert);
  } else {
    // A message changes a few columns of the conversation: binding only those keeps the statement small.
    const changed = CHANGEABLE_FIELDS.filter((field) => !sameColumnValue(before[field], conv[field]));
    const values = columnValues(conv, changed);
    const set = changed.map((field, i) => `${field} = ${p.add(values[i])}`);
    if (condition !== undefined) {
      if (!('version' in condition)) throw new Error('A change is written conditional on the version read');
      writes.push(`update conversations set ${set.length > 0 ? set.join(', ') : 'id = id'}
                   where account_id = ${account} and id = ${p.add(conv.id)} and xmin = ${p.add(condition.version)}::xid
                     and ${contactExistsSql(account, 'conversations.contact_id')} ${availability(() => 'conversations.group_id', condition.agentAvailable)}
                   returning xmin::text as version`);
    } else if (set.length > 0)
      writes.push(`update conversations set ${set.join(', ')} where account_id = ${account} and id = ${p.add(conv.id)}`);
  }
  // Written only with the conversation's update (write_0) when that is conditional.
  const onlyIf = condition === undefined ? undefined : 'exists (select from write_0)';
  if (messages.length > 0) {
    const column = <T>(pick: (message: NewMessageRow) => T) => p.add(messages.map(pick));
    // Inserted in ord order, so seq (the tie-breaker of equal times) follows the given order.
    writes.push(`insert into messages (account_id, id, conversation_id, type, sub_type, agent_id, content, text, html, attachments,
         is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at)
       select ${account}, m.id, ${p.add(conv.id)}::text, m.type, m.sub_type, m.agent_id, m.content::jsonb, m.content::jsonb ->> 'text', m.content::jsonb ->> 'html',
              m.attachments::jsonb, m.is_reply, m.is_first_reply, m.is_offline, m.is_offline_reply, m.response_time, m.group_id, m.created_at
       from unnest(${column((m) => m.id)}::text[], ${column((m) => m.type)}::text[], ${column((m) => m.sub_type)}::text[],
                   ${column((m) => m.agent_id)}::text[], ${column((m) => JSON.stringify(m.content))}::text[],
                   ${column((m) => JSON.stringify(m.attachments))}::text[], ${column((m) => m.flags.is_reply)}::boolean[],
                   ${column((m) => m.flags.is_first_reply)}::boolean[], ${column((m) => m.flags.is_offline)}::boolean[],
                   ${column((m) => m.flags.is_offline_reply)}::boolean[], ${column((m) => m.flags.response_time)}::double precision[],
                   ${column((m) => m.group_id)}::text[], ${column((m) => m.created_at)}::timestamptz[])
            with ordinality as m (id, type, sub_type, agent_id, content, attachments, is_reply, is_first_reply, is_offline,
                                  is_offline_reply, response_time, group_id, created_at, ord)
       ${onlyIf ? `where ${onlyIf}` : ''}
       order by m.ord`);
  }
  if (events.items.length > 0) writes.push(insertEventsSql(p, account, p.add(events.at), events.items, onlyIf));
  const [only, ...more] = writes;
  if (only === undefined) return { version: null };
  if (more.length === 0) {
    const { rows } = await db.query<{ version: string }>(only, p.values);
    if (condition === undefined) return { version: null };
    return rows[0] ? { version: rows[0].version } : null;
  }
  // Data-modifying statements in a `with` all run, to completion, whatever the final select reads.
  const { rows } = await db.query<{ written: boolean; version: string | null }>(
    `with ${writes.map((write, i) => `write_${i} as (${write})`).join(', ')}
     select ${onlyIf ?? 'true'} as written, ${condition === undefined ? 'null::text' : '(select version from write_0)'} as version`,
    p.values,
  );
  const written = firstRow(rows);
  return written.written ? { version: written.version } : null;
}

export interface Page<T> {
  items: T[];
  after: string | null;
  total: number;
}

/** Whether `seq` is a cursor of this conversation's messages (or paths). */
export async function cursorExists(
  db: Queryable,
  table: 'messages' | 'paths',
  accountId: string,
  conversationId: string,
  seq: string,
): Promise<boolean> {
  const { rows } = await db.query(`select 1 from ${table} where account_id = $1 and conversation_id = $2 and seq = $3`, [
    accountId,
    conversationId,
    seq,
  ]);
  return rows.length > 0;
}

/**
 * Newest first, `size` rows of `table` after the cursor `afterSeq` (the seq of
 * the last row of the previous page; keyset paging on (created_at, seq)), one
 * more to know whether another page follows, and the total.
 */
async function page<R extends { seq: number }>(
  db: Queryable,
  table: 'messages' | 'paths',
  columns: string,
  accountId: string,
  conversationId: string,
  size: number,
  afterSeq: string | null,
  /** A fixed condition on the rows (`true`: all). */
  only: string,
): Promise<{ rows: R[]; after: string | null; total: number }> {
  const { rows } = await db.query<R>(
    `select ${columns} from ${table} t
     where t.account_id = $1 and t.conversation_id = $2 and ${only}
       and ($3::bigint is null or (t.created_at, t.seq) < (
         select c.created_at, c.seq from ${table} c where c.account_id = $1 and c.conversation_id = $2 and c.seq = $3))
     order by t.created_at desc, t.seq desc
     limit $4`,
    [accountId, conversationId, afterSeq, size + 1],
  );
  const { rows: count } = await db.query<{ total: number }>(
    `select count(*) as total from ${table} where account_id = $1 and conversation_id = $2 and ${only}`,
    [accountId, conversationId],
  );
  const items = rows.slice(0, size);
  const last = rows.length > size ? items.at(-1) : undefined;
  return { rows: items, after: last ? String(last.seq) : null, total: firstRow(count).total };
}

export async function pageMessages(
  db: Queryable,
  accountId: string,
  conversationId: string,
  size: number,
  afterSeq: string | null,
  messagesOnly = false,
): Promise<Page<MessageRow>> {
  const { rows, after, total } = await page<MessageRow>(
    db,
    'messages',
    MESSAGE_COLUMNS,
    accountId,
    conversationId,
    size,
    afterSeq,
    messagesOnly ? "type = 'message'" : 'true',
  );
  return { items: rows, after, total };
}

/** One message of a conversation, or null. */
export async function findMessage(db: Queryable, accountId: string, conversationId: string, id: string): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>(
    `select ${MESSAGE_COLUMNS} from messages where account_id = $1 and conversation_id = $2 and id = $3`,
    [accountId, conversationId, id],
  );
  return rows[0] ?? null;
}

/**
 * Whether a message the contact can read (`type` message, in one of its conversations: never a note or a system
 * record) attaches the upload whose download path is `uploadPath`; index messages_attachments finds them.
 */
export async function contactMessageAttaches(db: Queryable, accountId: string, contactId: string, uploadPath: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from messages m join conversations c on c.account_id = m.account_id and c.id = m.conversation_id
     where m.account_id = $1 and c.contact_id = $2 and m.type = 'message' and m.attachments <> '[]'::jsonb
       and m.attachments @> jsonb_build_array(jsonb_build_object('type', 'upload', 'url', $3::text))
     limit 1`,
    [accountId, contactId, uploadPath],
  );
  return rows.length > 0;
}

export type PathRow = Omit<Row<'paths'>, 'account_id' | 'conversation_id'>;

const PATH_COLUMNS = 'seq, url, title, created_at';

export async function insertPath(
  db: Queryable,
  accountId: string,
  conversationId: string,
  path: { url: string; title: string | null; created_at: Date },
): Promise<PathRow> {
  const { rows } = await db.query<PathRow>(
    `insert into paths (account_id, conversation_id, url, title, created_at) values ($1, $2, $3, $4, $5)
     returning ${PATH_COLUMNS}`,
    [accountId, conversationId, path.url, path.title, path.created_at],
  );
  return firstRow(rows);
}

export async function pagePaths(
  db: Queryable,
  accountId: string,
  conversationId: string,
  size: number,
  afterSeq: string | null,
): Promise<Page<PathRow>> {
  const { rows, after, total } = await page<PathRow>(db, 'paths', PATH_COLUMNS, accountId, conversationId, size, afterSeq, 'true');
  return { items: rows, after, total };
}

/** What GET /v2/conversations/{id} includes beside the conversation. */
export interface ConversationIncludes {
  messages: boolean;
  paths: boolean;
  statistics: boolean;
}

/** A conversation's counts and times, aggregated from its messages (its `statistics`). */
export interface ConversationStatisticsRow {
  messages_count: number;
  contact_messages_count: number;
  agent_messages_count: number;
  first_response_time: number | null;
  avg_response_time: number | null;
  duration: number | null;
}

export interface ConversationWithIncludes {
  row: ConversationRow;
  /** The last `limit` ones, oldest first; when asked. */
  messages?: MessageRow[];
  paths?: PathRow[];
  statistics?: ConversationStatisticsRow;
}

/** JSON turns times into strings: back to the Date of the row. */
const withDate = <R extends { created_at: Date }>(row: Omit<R, 'created_at'> & { created_at: string }) =>
  ({ ...row, created_at: new Date(row.created_at) }) as R;

/** The conversation and, as asked, its last `limit` messages and paths and its statistics, in one query. */
export async function findConversationWithIncludes(
  db: Queryable,
  accountId: string,
  id: string,
  include: ConversationIncludes,
  limit: number,
): Promise<ConversationWithIncludes | null> {
  const recent = (table: 'messages' | 'paths', columns: string) =>
    `(select coalesce(json_agg(r order by r.created_at, r.seq), '[]'::json)
      from (select ${columns} from ${table} where account_id = c.account_id and conversation_id = c.id
            order by created_at desc, seq desc limit $3) r)`;
  // Only what is asked goes into the query, so the plain read plans no subquery.
  const included = [
    include.messages ? `${recent('messages', MESSAGE_COLUMNS)} as recent_messages` : null,
    include.paths ? `${recent('paths', PATH_COLUMNS)} as recent_paths` : null,
    include.statistics
      ? `(select json_build_object(
            'messages_count', count(*) filter (where m.type = 'message'),
            'contact_messages_count', count(*) filter (where m.type = 'message' and m.sub_type = 'contact'),
            'agent_messages_count', count(*) filter (where m.type = 'message' and m.sub_type = 'agent'),
            'first_response_time', min(m.response_time) filter (where m.is_first_reply),
            'avg_response_time', avg(m.response_time) filter (where m.is_reply),
            'duration', extract(epoch from c.finished_at - c.created_at)::double precision)
          from messages m where m.account_id = c.account_id and m.conversation_id = c.id) as statistics`
      : null,
  ].filter((column) => column !== null);
  const { rows } = await db.query<
    ConversationRow & {
      recent_messages?: (MessageRow & { created_at: string })[];
      recent_paths?: (PathRow & { created_at: string })[];
      statistics?: ConversationStatisticsRow;
    }
  >(
    `select ${[...CONVERSATION_FIELDS.map((field) => `c.${field}`), ...included].join(', ')}
     from conversations c where c.account_id = $1 and c.id = $2 and ${contactExistsSql('$1', 'c.contact_id')}`,
    include.messages || include.paths ? [accountId, id, limit] : [accountId, id],
  );
  const [found] = rows;
  if (!found) return null;
  const { recent_messages: messages, recent_paths: paths, statistics, ...row } = found;
  return {
    row,
    ...(messages ? { messages: messages.map((message) => withDate<MessageRow>(message)) } : {}),
    ...(paths ? { paths: paths.map((path) => withDate<PathRow>(path)) } : {}),
    ...(statistics ? { statistics } : {}),
  };
}

/** A message of imported history (`chat-service demo-data`), its flags already computed by replaying its conversation. */
export interface HistoryMessage {
  id: string;
  conversationId: string;
  type: Row<'messages'>['type'];
  subType: Row<'messages'>['sub_type'];
  agentId: string | null;
  triggerId: string | null;
  /** The `content` jsonb, serialised. */
  content: string;
  text: string | null;
  isReply: boolean;
  isFirstReply: boolean;
  isOffline: boolean;
  isOfflineReply: boolean;
  responseTime: number | null;
  groupId: string | null;
  createdAt: Date;
}

/** Messages of imported history in one statement, in the order given, which is their `seq` order. */
export async function insertHistoryMessages(db: Queryable, accountId: string, messages: readonly HistoryMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const column = <T>(get: (m: HistoryMessage) => T) => messages.map(get);
  await db.query(
    `insert into messages (account_id, id, conversation_id, type, sub_type, agent_id, trigger_id, content, text,
                           is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at)
     select $1, m.id, m.conversation_id, m.type, m.sub_type, m.agent_id, m.trigger_id, m.content::jsonb, m.text,
            m.is_reply, m.is_first_reply, m.is_offline, m.is_offline_reply, m.response_time, m.group_id, m.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                 $10::bool[], $11::bool[], $12::bool[], $13::bool[], $14::float8[], $15::text[], $16::timestamptz[])
            with ordinality
       as m (id, conversation_id, type, sub_type, agent_id, trigger_id, content, text,
             is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at, position)
     order by m.position`,
    [
      accountId,
      column((m) => m.id),
      column((m) => m.conversationId),
      column((m) => m.type),
      column((m) => m.subType),
      column((m) => m.agentId),
      column((m) => m.triggerId),
      column((m) => m.content),
      column((m) => m.text),
      column((m) => m.isReply),
      column((m) => m.isFirstReply),
      column((m) => m.isOffline),
      column((m) => m.isOfflineReply),
      column((m) => m.responseTime),
      column((m) => m.groupId),
      column((m) => m.createdAt),
    ],
  );
}

/** A page visit of imported history. */
export interface HistoryPath {
  conversationId: string;
  url: string;
  title: string | null;
  createdAt: Date;
}

/** Paths of imported history in one statement, in the order given. */
export async function insertHistoryPaths(db: Queryable, accountId: string, paths: readonly HistoryPath[]): Promise<void> {
  if (paths.length === 0) return;
  await db.query(
    `insert into paths (account_id, conversation_id, url, title, created_at)
     select $1, p.conversation_id, p.url, p.title, p.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) with ordinality as p (conversation_id, url, title, created_at, position)
     order by p.position`,
    [accountId, paths.map((p) => p.conversationId), paths.map((p) => p.url), paths.map((p) => p.title), paths.map((p) => p.createdAt)],
  );
}

/**
 * Deletes up to `limit` rows of `table`'s default partition (the rows of months without a partition of their own,
 * migration 230) created before `before`: message retention's share that no month partition drop takes
 * (src/conversations/retention.ts). Returns how many it deleted.
 */
export async function deleteHistoryBefore(db: Queryable, table: 'messages' | 'paths', before: Date, limit: number): Promise<number> {
  const key = table === 'messages' ? 'account_id, id' : 'account_id, conversation_id, seq';
  const { rowCount } = await db.query(
    `delete from ${defaultPartition(table)} where (${key}) in (
       select ${key} from ${defaultPartition(table)} where created_at < $1 limit $2 for update skip locked)`,
    [before, limit],
  );
  return rowCount ?? 0;
}

/** Locks up to `limit` conversations of the contact (for its erasure, src/contacts/erasure.ts) and returns their ids. */
export async function lockContactConversations(db: Queryable, accountId: string, contactId: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'select id from conversations where account_id = $1 and contact_id = $2 order by id limit $3 for update',
    [accountId, contactId, limit],
  );
  return rows.map((row) => row.id);
}

/** Deletes conversations with their messages and paths (a contact's erasure), in one statement. */
export async function deleteConversations(db: Queryable, accountId: string, ids: string[]): Promise<void> {
  // Every part of one statement runs on one snapshot; the foreign keys of messages and paths are checked at its end.
  await db.query(
    `with messages_gone as (delete from messages where account_id = $1 and conversation_id = any($2::text[])),
     paths_gone as (delete from paths where account_id = $1 and conversation_id = any($2::text[]))
     delete from conversations where account_id = $1 and id = any($2::text[])`,
    [accountId, ids],
  );
}

/** An upload attached in a conversation, as a person's export lists it. */
export type ExportedUploadRow = Pick<Row<'uploads'>, 'id' | 'file_name' | 'file_type' | 'size' | 'created_at'>;

/** One conversation of a person's export (GET /v2/contacts/{id}/export): everything stored about it. */
export interface ExportedConversationRows {
  row: ConversationRow;
  /** Oldest first, every one. */
  messages: MessageRow[];
  paths: PathRow[];
  uploads: ExportedUploadRow[];
}

/**
 * Up to `limit` conversations of the contact after id `afterId` (in id order), each with all its messages and paths
 * and the metadata of the uploads its messages attach, in one query: the export reads a person's history a batch
 * at a time, never all of it at once.
 */
export async function exportContactConversations(
  db: Queryable,
  accountId: string,
  contactId: string,
  afterId: string | null,
  limit: number,
): Promise<ExportedConversationRows[]> {
  const all = (table: 'messages' | 'paths', columns: string) =>
    `(select coalesce(json_agg(r order by r.created_at, r.seq), '[]'::json)
      from (select ${columns} from ${table} where account_id = c.account_id and conversation_id = c.id) r)`;
  const { rows } = await db.query<
    ConversationRow & {
      all_messages: (MessageRow & { created_at: string })[];
      all_paths: (PathRow & { created_at: string })[];
      uploads: (ExportedUploadRow & { created_at: string })[];
    }
  >(
    `select ${CONVERSATION_FIELDS.map((field) => `c.${field}`).join(', ')},
            ${all('messages', MESSAGE_COLUMNS)} as all_messages,
            ${all('paths', PATH_COLUMNS)} as all_paths,
            (select coalesce(json_agg(json_build_object('id', u.id, 'file_name', u.file_name, 'file_type', u.file_type,
                      'size', u.size, 'created_at', u.created_at) order by u.created_at, u.id), '[]'::json)
             from uploads u
             where u.account_id = c.account_id and u.complete
               and '/v2/uploads/' || u.id || '/content' in (
                 select a ->> 'url' from messages m cross join lateral jsonb_array_elements(m.attachments) a
                 where m.account_id = c.account_id and m.conversation_id = c.id and m.attachments <> '[]'::jsonb
                   and a ->> 'type' = 'upload')) as uploads
     from conversations c
     where c.account_id = $1 and c.contact_id = $2 and ($3::text is null or c.id > $3)
     order by c.id
     limit $4`,
    [accountId, contactId, afterId, limit],
  );
  return rows.map(({ all_messages: messages, all_paths: paths, uploads, ...row }) => ({
    row,
    messages: messages.map((message) => withDate<MessageRow>(message)),
    paths: paths.map((path) => withDate<PathRow>(path)),
    uploads: uploads.map((upload) => withDate<ExportedUploadRow>(upload)),
  }));
}

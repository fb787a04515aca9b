import type { Queryable } from '../db/db.ts';
import type { StoredAttachment } from '../content/attachments.ts';
import type { ReplyState, MessageFlags } from './flags.ts';
import type { Conversation, ConversationStatistics, ConversationStatus, Message, Path } from './schema.ts';

/** A conversation as stored; services change it in memory and save it whole. */
export interface ConversationRow {
  id: string;
  ext_id: string | null;
  status: ConversationStatus;
  contact_id: string;
  group_id: string | null;
  domain: string | null;
  assigned_ids: string[];
  agent_ids: string[];
  tags: string[];
  variables: Record<string, unknown>;
  rating_value: number | null;
  rating_text: string | null;
  rated_at: Date | null;
  is_offline: boolean;
  is_served: boolean;
  unread: number;
  last_message_text: string | null;
  last_message_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  close_type: Conversation['close_type'];
}

const CONVERSATION_FIELDS: (keyof ConversationRow)[] = [
  'id', 'ext_id', 'status', 'contact_id', 'group_id', 'domain', 'assigned_ids', 'agent_ids', 'tags', 'variables',
  'rating_value', 'rating_text', 'rated_at', 'is_offline', 'is_served', 'unread', 'last_message_text', 'last_message_at',
  'created_at', 'updated_at', 'finished_at', 'close_type',
];
const CONVERSATION_COLUMNS = CONVERSATION_FIELDS.join(', ');

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    ext_id: row.ext_id,
    status: row.status,
    channel: { type: 'default', id: null },
    contact_id: row.contact_id,
    group_id: row.group_id,
    domain: row.domain,
    assigned_ids: row.assigned_ids,
    agent_ids: row.agent_ids,
    tags: row.tags,
    variables: row.variables,
    rating_value: row.rating_value,
    rating_text: row.rating_text,
    rated_at: row.rated_at?.toISOString() ?? null,
    is_offline: row.is_offline,
    is_served: row.is_served,
    unread: row.unread,
    last_message: row.last_message_at ? { text: row.last_message_text, created_at: row.last_message_at.toISOString() } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    close_type: row.close_type,
  };
}

/** The column values of `row`, in the order of `fields`. */
function columnValues(row: ConversationRow, fields: readonly (keyof ConversationRow)[]): unknown[] {
  return fields.map((field) => (field === 'variables' ? JSON.stringify(row.variables) : row[field]));
}

export async function insertConversation(db: Queryable, accountId: string, row: ConversationRow): Promise<void> {
  const placeholders = CONVERSATION_FIELDS.map((_, i) => `$${i + 2}`).join(', ');
  await db.query(`insert into conversations (account_id, ${CONVERSATION_COLUMNS}) values ($1, ${placeholders})`, [
    accountId,
    ...columnValues(row, CONVERSATION_FIELDS),
  ]);
}

// A conversation never changes its id, contact or creation time.
const CHANGEABLE_FIELDS = CONVERSATION_FIELDS.filter((field) => !['id', 'contact_id', 'created_at'].includes(field));

/** Writes every changeable column of `row`. */
export async function saveConversation(db: Queryable, accountId: string, row: ConversationRow): Promise<void> {
  const assignments = CHANGEABLE_FIELDS.map((field, i) => `${field} = $${i + 3}`).join(', ');
  await db.query(`update conversations set ${assignments} where account_id = $1 and id = $2`, [
    accountId,
    row.id,
    ...columnValues(row, CHANGEABLE_FIELDS),
  ]);
}

/** The conversation; with `lock`, its row stays locked until the transaction ends, serialising writers. */
export async function findConversation(db: Queryable, accountId: string, id: string, lock = false): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(
    `select ${CONVERSATION_COLUMNS} from conversations where account_id = $1 and id = $2${lock ? ' for update' : ''}`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export async function findConversationByExtId(db: Queryable, accountId: string, extId: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(
    `select ${CONVERSATION_COLUMNS} from conversations where account_id = $1 and ext_id = $2`,
    [accountId, extId],
  );
  return rows[0] ?? null;
}

/**
 * Closes up to `limit` conversations, of every account, whose last message is
 * older than the timeout at `now`: close_type inactivity, finished_at when they
 * went idle (last message + timeout). SKIP LOCKED: several instances, or a
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
     set status = 'closed', close_type = 'inactivity', finished_at = c.last_message_at + make_interval(secs => $2), updated_at = $1
     from idle where c.account_id = idle.account_id and c.id = idle.id
     returning c.account_id, ${CONVERSATION_FIELDS.map((field) => `c.${field}`).join(', ')}`,
    [now, timeoutSeconds, limit],
  );
  return rows;
}

/** Whether another conversation of the account already uses `extId`. */
export async function extIdTaken(db: Queryable, accountId: string, extId: string, exceptId: string | null): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from conversations where account_id = $1 and ext_id = $2 and ($3::text is null or id <> $3)',
    [accountId, extId, exceptId],
  );
  return rows.length > 0;
}

export async function contactExists(db: Queryable, accountId: string, contactId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from contacts where account_id = $1 and id = $2', [accountId, contactId]);
  return rows.length > 0;
}

/**
 * Whether some agent is available at `at`: status online and pinged within the
 * presence TTL before it, in `groupId` when given (docs/behaviour.md §3 and §5).
 */
export async function agentAvailable(db: Queryable, accountId: string, groupId: string | null, at: Date, ttlSeconds: number): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from agents a
     where a.account_id = $1 and a.deleted_at is null and a.status = 'online'
       and a.last_ping_at > $3::timestamptz - make_interval(secs => $4) and a.last_ping_at <= $3::timestamptz
       and ($2::text is null or exists (
         select 1 from agent_groups g where g.account_id = a.account_id and g.agent_id = a.id and g.group_id = $2))
     limit 1`,
    [accountId, groupId, at, ttlSeconds],
  );
  return rows.length > 0;
}

/**
 * The reply state after the conversation's stored messages (see flags.ts), and
 * the time of its latest message of any kind. Call under the conversation's row lock.
 */
export async function loadReplyState(db: Queryable, accountId: string, conversationId: string): Promise<{ state: ReplyState; latestAt: Date | null }> {
  const { rows } = await db.query<{
    unanswered_since: Date | null;
    unanswered_offline: boolean;
    unanswered: number;
    has_reply: boolean;
    has_contact_message: boolean;
    latest_at: Date | null;
  }>(
    `with last_agent as (
       select created_at, seq from messages
       where account_id = $1 and conversation_id = $2 and type = 'message' and sub_type = 'agent'
       order by created_at desc, seq desc limit 1
     ),
     unanswered as (
       select m.created_at, m.is_offline from messages m
       where m.account_id = $1 and m.conversation_id = $2 and m.type = 'message' and m.sub_type = 'contact'
         and m.created_at >= coalesce((select created_at from last_agent), '-infinity')
         and not exists (select 1 from last_agent l where (m.created_at, m.seq) < (l.created_at, l.seq))
     )
     select (select min(created_at) from unanswered) as unanswered_since,
            (select coalesce(bool_or(is_offline), false) from unanswered) as unanswered_offline,
            (select count(*) from unanswered) as unanswered,
            exists (select 1 from messages where account_id = $1 and conversation_id = $2 and is_reply) as has_reply,
            exists (select 1 from messages where account_id = $1 and conversation_id = $2 and type = 'message' and sub_type = 'contact')
              as has_contact_message,
            (select max(created_at) from messages where account_id = $1 and conversation_id = $2) as latest_at`,
    [accountId, conversationId],
  );
  const row = rows[0];
  return {
    state: {
      unansweredSince: row.unanswered_since,
      unansweredOffline: row.unanswered_offline,
      unanswered: row.unanswered,
      hasReply: row.has_reply,
      hasContactMessage: row.has_contact_message,
    },
    latestAt: row.latest_at,
  };
}

export interface NewMessageRow {
  id: string;
  conversation_id: string;
  type: Message['type'];
  sub_type: Message['sub_type'];
  agent_id: string | null;
  content: Message['content'];
  attachments: StoredAttachment[];
  flags: MessageFlags;
  group_id: string | null;
  created_at: Date;
}

interface MessageRow {
  id: string;
  conversation_id: string;
  seq: number;
  type: Message['type'];
  sub_type: Message['sub_type'];
  agent_id: string | null;
  trigger_id: string | null;
  content: Message['content'];
  attachments: Message['attachments'];
  is_reply: boolean;
  is_first_reply: boolean;
  is_offline: boolean;
  is_offline_reply: boolean;
  response_time: number | null;
  created_at: Date;
}

const MESSAGE_COLUMNS = `id, conversation_id, seq, type, sub_type, agent_id, trigger_id, content, attachments,
  is_reply, is_first_reply, is_offline, is_offline_reply, response_time, created_at`;

function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    type: row.type,
    sub_type: row.sub_type,
    agent_id: row.agent_id,
    trigger_id: row.trigger_id,
    content: row.content,
    attachments: row.attachments,
    is_reply: row.is_reply,
    is_first_reply: row.is_first_reply,
    is_offline: row.is_offline,
    is_offline_reply: row.is_offline_reply,
    response_time: row.response_time,
    created_at: row.created_at.toISOString(),
  };
}

export async function insertMessage(db: Queryable, accountId: string, message: NewMessageRow): Promise<Message> {
  const { rows } = await db.query<MessageRow>(
    `insert into messages (account_id, id, conversation_id, type, sub_type, agent_id, content, text, html, attachments,
       is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     returning ${MESSAGE_COLUMNS}`,
    [
      accountId,
      message.id,
      message.conversation_id,
      message.type,
      message.sub_type,
      message.agent_id,
      JSON.stringify(message.content),
      message.content.text,
      message.content.html ?? null,
      JSON.stringify(message.attachments),
      message.flags.is_reply,
      message.flags.is_first_reply,
      message.flags.is_offline,
      message.flags.is_offline_reply,
      message.flags.response_time,
      message.group_id,
      message.created_at,
    ],
  );
  return toMessage(rows[0]);
}

export interface Page<T> {
  items: T[];
  after: string | null;
  total: number;
}

/** Whether `seq` is a cursor of this conversation's messages (or paths). */
export async function cursorExists(db: Queryable, table: 'messages' | 'paths', accountId: string, conversationId: string, seq: string): Promise<boolean> {
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
): Promise<{ rows: R[]; after: string | null; total: number }> {
  const { rows } = await db.query<R>(
    `select ${columns} from ${table} t
     where t.account_id = $1 and t.conversation_id = $2
       and ($3::bigint is null or (t.created_at, t.seq) < (
         select c.created_at, c.seq from ${table} c where c.account_id = $1 and c.conversation_id = $2 and c.seq = $3))
     order by t.created_at desc, t.seq desc
     limit $4`,
    [accountId, conversationId, afterSeq, size + 1],
  );
  const { rows: count } = await db.query<{ total: number }>(
    `select count(*) as total from ${table} where account_id = $1 and conversation_id = $2`,
    [accountId, conversationId],
  );
  const items = rows.slice(0, size);
  return { rows: items, after: rows.length > size ? String(items[items.length - 1].seq) : null, total: count[0].total };
}

export async function pageMessages(db: Queryable, accountId: string, conversationId: string, size: number, afterSeq: string | null): Promise<Page<Message>> {
  const { rows, after, total } = await page<MessageRow>(db, 'messages', MESSAGE_COLUMNS, accountId, conversationId, size, afterSeq);
  return { items: rows.map(toMessage), after, total };
}

/** The last `limit` rows of `table`, oldest first. */
async function recentRows<R>(db: Queryable, table: 'messages' | 'paths', columns: string, accountId: string, conversationId: string, limit: number): Promise<R[]> {
  const { rows } = await db.query<R>(
    `select * from (
       select ${columns} from ${table} where account_id = $1 and conversation_id = $2
       order by created_at desc, seq desc limit $3
     ) recent order by created_at, seq`,
    [accountId, conversationId, limit],
  );
  return rows;
}

export async function lastMessages(db: Queryable, accountId: string, conversationId: string, limit: number): Promise<Message[]> {
  return (await recentRows<MessageRow>(db, 'messages', MESSAGE_COLUMNS, accountId, conversationId, limit)).map(toMessage);
}

interface PathRow {
  seq: number;
  url: string;
  title: string | null;
  created_at: Date;
}

const PATH_COLUMNS = 'seq, url, title, created_at';

const toPath = (row: PathRow): Path => ({ url: row.url, title: row.title, created_at: row.created_at.toISOString() });

export async function insertPath(db: Queryable, accountId: string, conversationId: string, path: { url: string; title: string | null; created_at: Date }): Promise<Path> {
  const { rows } = await db.query<PathRow>(
    `insert into paths (account_id, conversation_id, url, title, created_at) values ($1, $2, $3, $4, $5)
     returning ${PATH_COLUMNS}`,
    [accountId, conversationId, path.url, path.title, path.created_at],
  );
  return toPath(rows[0]);
}

export async function lastPaths(db: Queryable, accountId: string, conversationId: string, limit: number): Promise<Path[]> {
  return (await recentRows<PathRow>(db, 'paths', PATH_COLUMNS, accountId, conversationId, limit)).map(toPath);
}

export async function pagePaths(db: Queryable, accountId: string, conversationId: string, size: number, afterSeq: string | null): Promise<Page<Path>> {
  const { rows, after, total } = await page<PathRow>(db, 'paths', PATH_COLUMNS, accountId, conversationId, size, afterSeq);
  return { items: rows.map(toPath), after, total };
}

export async function conversationStatistics(db: Queryable, accountId: string, conversationId: string): Promise<ConversationStatistics> {
  const { rows } = await db.query<ConversationStatistics>(
    `select count(*) filter (where m.type = 'message') as messages_count,
            count(*) filter (where m.type = 'message' and m.sub_type = 'contact') as contact_messages_count,
            count(*) filter (where m.type = 'message' and m.sub_type = 'agent') as agent_messages_count,
            min(m.response_time) filter (where m.is_first_reply) as first_response_time,
            avg(m.response_time) filter (where m.is_reply) as avg_response_time,
            (select extract(epoch from c.finished_at - c.created_at)::double precision
               from conversations c where c.account_id = $1 and c.id = $2) as duration
     from messages m where m.account_id = $1 and m.conversation_id = $2`,
    [accountId, conversationId],
  );
  return rows[0];
}

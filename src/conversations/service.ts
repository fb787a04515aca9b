import type { Deps } from '../deps.ts';
import type { Queryable, Transaction } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';
import { itemAt } from '../arrays.ts';
import { ApiError, invalidArgument, notFound } from '../http/errors.ts';
import { instantOutOfRange } from '../http/instants.ts';
import { newId } from '../ids.ts';
import { announceEvents, recordEvent, type EventType, type NewEvent } from '../events/outbox.ts';
import { sanitizeHtml } from '../content/html.ts';
import { resolveAttachments, type AttachmentInput, type StoredAttachment } from '../content/attachments.ts';
import {
  conversationAfterAssign,
  conversationAfterClose,
  conversationAfterMessage,
  conversationAfterUnassign,
  newConversationState,
} from './flags.ts';
import { uploadContentPath } from '../uploads/service.ts';
import type { PresenceAt } from '../agents/repository.ts';
import * as repo from './repository.ts';
import { recentAvailability, recentConversations } from './recent.ts';
import type { ConversationRow, NewMessageRow, Page, ReferenceCheck } from './repository.ts';
import { toConversation, toConversationStatistics, toMessage, toPage, toPath } from './presenter.ts';
import type {
  Conversation,
  ConversationStatistics,
  CreateConversationBody,
  Message,
  NewMessageBody,
  Path,
  UpdateConversationBody,
} from './schema.ts';

type ConversationDeps = Pick<Deps, 'db' | 'config' | 'now'>;

/** GET /conversations/{id} includes at most this many messages and paths (docs/behaviour.md §9). */
export const RECENT_LIMIT = 200;

const REPLIED_EVENTS: Record<'contact' | 'agent' | 'bot', EventType> = {
  contact: 'conversation.contact_replied',
  agent: 'conversation.agent_replied',
  bot: 'conversation.bot_replied',
};

/** One message to store, whatever interface it came through. */
interface MessageInput {
  type: 'message' | 'note';
  sub_type: 'contact' | 'agent' | 'bot';
  agent_id: string | null;
  text: string | null;
  html: string | null;
  attachments: AttachmentInput[];
  /** Where the attachments sit in the request, for error paths. */
  attachmentsPath: string;
  /** Caller-given time (history import); null: now. */
  created_at: Date | null;
}

// ---------------------------------------------------------------- reading

async function requireConversation(db: Queryable, accountId: string, id: string): Promise<ConversationRow> {
  const row = await repo.findConversation(db, accountId, id);
  if (!row) throw notFound(`Conversation ${id}`);
  return row;
}

/**
 * The conversation under its row lock, and the time read once the lock is held: writers queue on the lock (on PGlite
 * for its one backend, which a transaction holds alone), so each reads the clock after the previous one committed
 * and the rows they store carry times in the order they are stored. With `live`, whether an agent of its group is
 * available too, in the same query, judged at the time read before the lock is taken (a presence lasts
 * presenceTtlSeconds; a wait for the lock is far shorter).
 */
async function lockConversation(
  tx: Transaction,
  deps: ConversationDeps,
  accountId: string,
  id: string,
  live = false,
): Promise<ConversationToChange> {
  return conversationToChange(deps, id, live, (presence) => repo.lockConversation(tx, accountId, id, presence));
}

/**
 * The same read without a lock or a transaction, for a write conditional on the version read (`WriteCondition`): one that
 * another writer overtook writes nothing, and is made again under the lock.
 */
function readConversation(deps: ConversationDeps, accountId: string, id: string, live: boolean): Promise<ConversationToChange> {
  return conversationToChange(deps, id, live, (presence) => repo.readConversationForChange(deps.db, accountId, id, presence));
}

/** The conversation `read` finds (with the agents' availability when `live`), and the time read once it has. */
async function conversationToChange(
  deps: ConversationDeps,
  id: string,
  live: boolean,
  read: (presence: PresenceAt | undefined) => Promise<repo.ConversationForChange | null>,
): Promise<ConversationToChange> {
  const presence = live ? { at: deps.now(), ttlSeconds: deps.config.presenceTtlSeconds } : undefined;
  const found = await read(presence);
  if (!found) throw notFound(`Conversation ${id}`);
  return { ...found, now: deps.now() };
}

type ConversationToChange = repo.ConversationForChange & { now: Date };

export interface ConversationDetails extends Conversation {
  messages?: Message[];
  paths?: Path[];
  statistics?: ConversationStatistics;
}

export async function getConversation(
  deps: ConversationDeps,
  accountId: string,
  id: string,
  include: { messages: boolean; paths: boolean; statistics: boolean },
): Promise<ConversationDetails> {
  const found = await repo.findConversationWithIncludes(deps.db, accountId, id, include, RECENT_LIMIT);
  if (!found) throw notFound(`Conversation ${id}`);
  const { row, messages, paths, statistics } = found;
  return {
    ...toConversation(row),
    ...(messages ? { messages: messages.map(toMessage) } : {}),
    ...(paths ? { paths: paths.map(toPath) } : {}),
    ...(statistics ? { statistics: toConversationStatistics(statistics) } : {}),
  };
}

export async function findConversationByExtId(deps: ConversationDeps, accountId: string, extId: string): Promise<Conversation> {
  const row = await repo.findConversationByExtId(deps.db, accountId, extId);
  if (!row) throw notFound(`Conversation with ext_id ${extId}`);
  return toConversation(row);
}

async function requireCursor(
  db: Queryable,
  table: 'messages' | 'paths',
  accountId: string,
  conversationId: string,
  after: string | undefined,
) {
  if (after !== undefined && !(await repo.cursorExists(db, table, accountId, conversationId, after))) {
    throw invalidArgument('after', 'cursor', 'is not a cursor of this conversation', 'query');
  }
  return after ?? null;
}

export async function listMessages(
  deps: ConversationDeps,
  accountId: string,
  id: string,
  size: number,
  after?: string,
  /** Only messages, no notes or system events (what the conversation's contact may read). */
  messagesOnly = false,
): Promise<Page<Message>> {
  await requireConversation(deps.db, accountId, id);
  const afterSeq = await requireCursor(deps.db, 'messages', accountId, id, after);
  return toPage(await repo.pageMessages(deps.db, accountId, id, size, afterSeq, messagesOnly), toMessage);
}

/** One message of the conversation (a note or a system record included); 404 when it has none of that id. */
export async function getMessage(deps: ConversationDeps, accountId: string, conversationId: string, id: string): Promise<Message> {
  const message = await repo.findMessage(deps.db, accountId, conversationId, id);
  if (!message) throw notFound(`Message ${id}`);
  return toMessage(message);
}

/** Whether a message the contact can read, in one of its conversations, attaches the upload `uploadId`. */
export async function contactSeesUpload(deps: ConversationDeps, accountId: string, contactId: string, uploadId: string): Promise<boolean> {
  return repo.contactMessageAttaches(deps.db, accountId, contactId, uploadContentPath(uploadId));
}

/** The contact's newest `limit` conversations, newest first. */
export async function contactConversations(
  deps: ConversationDeps,
  accountId: string,
  contactId: string,
  limit: number,
): Promise<Conversation[]> {
  return (await repo.contactConversations(deps.db, accountId, contactId, limit)).map(toConversation);
}

export async function listPaths(deps: ConversationDeps, accountId: string, id: string, size: number, after?: string): Promise<Page<Path>> {
  await requireConversation(deps.db, accountId, id);
  const afterSeq = await requireCursor(deps.db, 'paths', accountId, id, after);
  return toPage(await repo.pagePaths(deps.db, accountId, id, size, afterSeq), toPath);
}

// ---------------------------------------------------------------- checks

/**
 * Checks the references of a write in one query (none when there is nothing to
 * check) and throws the first problem, in this order: contact, agents (the first
 * missing one in the given order), group, tags, ext_id. Returns whether an agent
 * is available when `check.availability` asked (else null).
 */
async function requireReferences(db: Queryable, accountId: string, check: ReferenceCheck): Promise<{ agentAvailable: boolean | null }> {
  const found = await repo.checkReferences(db, accountId, check);
  if (found.contactMissing) throw contactNotFound(check.contactId);
  if (found.missingAgentIds.length > 0) throw new ApiError(422, 'agent_not_found', `Agent ${found.missingAgentIds[0]} not found`);
  if (found.groupMissing) throw new ApiError(422, 'group_not_found', `Group ${check.groupId} not found`);
  if (found.missingTagIds.length > 0) throw new ApiError(422, 'tag_not_found', `Tag ${found.missingTagIds[0]} not found`);
  if (found.extIdTaken) throw extIdTakenError();
  return { agentAvailable: found.agentAvailable };
}

/** The ext_id check of a write setting `extId` (none for null or empty). */
const extIdCheck = (extId: string | null | undefined, exceptId: string | null) => (extId ? { value: extId, exceptId } : undefined);

const contactNotFound = (id: string | undefined) => new ApiError(422, 'contact_not_found', `Contact ${id} not found`);

const extIdTakenError = () => invalidArgument('ext_id', 'unique', 'is already used by another conversation');

/**
 * A concurrent writer changed what our reference check saw before our write: the same answer as the check would
 * now give. Another conversation took the ext_id; or the contact was erased (its row deleted) in between.
 */
async function withReferenceRaces<T>(contactId: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const pgError = error as { code?: string; constraint?: string; message?: string };
    if (pgError.code === '23505' && (pgError.constraint === 'conversations_ext_id' || pgError.message?.includes('conversations_ext_id'))) {
      throw extIdTakenError();
    }
    if (contactId !== undefined && pgError.code === '23503' && pgError.constraint === 'conversations_account_id_contact_id_fkey') {
      throw contactNotFound(contactId);
    }
    throw error;
  }
}

/** A caller-given time, kept to the millisecond like every stored time; it must not be in the future. */
function pastTime(value: string, path: string, now: Date): Date {
  const at = new Date(value);
  // The schema's date-time format admits what Date cannot hold (a leap second, 23:59:60).
  if (Number.isNaN(at.getTime())) throw invalidArgument(path, 'format', 'must be a valid date-time');
  if (at.getTime() > now.getTime()) throw invalidArgument(path, 'formatMaximum', 'must not be in the future');
  const outside = instantOutOfRange(at);
  if (outside) throw invalidArgument(path, outside.code, outside.message);
  return at;
}

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

// ---------------------------------------------------------------- storing messages

/**
 * Whether storing `input` asks whether an agent is available: a contact message stamped now (docs/behaviour.md §5).
 * Imported history is never offline: nobody knows who was available back then.
 */
const judgedLive = (input: MessageInput) => input.type === 'message' && input.sub_type === 'contact' && input.created_at === null;

/**
 * One message stored after the conversation's current ones, at `now`: the conversation after it (flags.ts decides
 * status, agents, unread, last message and reply state) and the row to insert; `conv` is left as it was.
 * `offline`: a live contact message no agent was available for.
 */
function withMessage(
  conv: ConversationRow,
  input: MessageInput,
  attachments: StoredAttachment[],
  offline: boolean,
  now: Date,
): { conv: ConversationRow; row: NewMessageRow } {
  const createdAt = input.created_at ?? now;
  const sanitized = input.html === null ? null : sanitizeHtml(input.html);
  const text = input.text ?? sanitized?.text ?? null;
  const { flags, conversation } = conversationAfterMessage(
    conv,
    { type: input.type, sub_type: input.sub_type, agent_id: input.agent_id, text, created_at: createdAt, offline },
    now,
  );
  const row: NewMessageRow = {
    id: newId('ms'),
    type: input.type,
    sub_type: input.sub_type,
    agent_id: input.agent_id,
    content: { type: 'text', text, html: sanitized?.html ?? null },
    attachments,
    flags,
    group_id: conversation.group_id,
    created_at: createdAt,
  };
  return { conv: conversation, row };
}

/** A change to save: the conversation after it, the messages it adds, and the events it records at `at`. */
interface ConversationChange {
  after: ConversationRow;
  messages?: readonly NewMessageRow[];
  events?: (messages: Message[]) => NewEvent[];
  at: Date;
  /** `before` was read without a lock: the change is written only if this still holds. */
  condition?: repo.WriteCondition;
}

/**
 * The one place a conversation is written, as its transaction's last statement: `change.after` is inserted when
 * there was none `before` (null), else its changed columns saved, with its messages inserted after the current ones
 * and its events recorded, in one statement.
 * `events` gets the messages' records (as stored) to put in the events. Returns those records and the row's new
 * version (when the write was conditional), or null when `change.condition` no longer held (nothing was written).
 */
async function saveConversation(
  tx: Transaction,
  accountId: string,
  before: ConversationRow | null,
  change: ConversationChange,
): Promise<{ messages: Message[]; version: string | null } | null> {
  const rows = change.messages ?? [];
  const messages = rows.map((row) => toMessage(repo.storedMessageRow(change.after.id, row)));
  const events = change.events?.(messages) ?? [];
  // Always the transaction's last statement: on PGlite its commit goes with it.
  const written = await repo.writeConversation(
    tx.last,
    accountId,
    change.after,
    before,
    rows,
    { at: change.at, items: events },
    change.condition,
  );
  if (!written) return null;
  if (events.length > 0) announceEvents(tx, accountId);
  return { messages, version: written.version };
}

/**
 * The `*_replied` events of stored messages. Notes are internal to the agents and
 * get none, so an integration relaying events to contacts can never leak one.
 */
function repliedEvents(messages: Message[]): NewEvent[] {
  return messages
    .filter((message) => message.type !== 'note')
    .map((message) => ({
      type: REPLIED_EVENTS[message.sub_type as keyof typeof REPLIED_EVENTS],
      data: { conversation_id: message.conversation_id, message },
      conversationId: message.conversation_id,
    }));
}

// ---------------------------------------------------------------- create

/** The messages a create request carries, in storing order, after the rules the schema cannot express. */
function messagesToCreate(body: CreateConversationBody, now: Date): MessageInput[] {
  if (body.messages !== undefined) {
    if (body.text !== undefined || body.html !== undefined) {
      throw invalidArgument('messages', 'oneOf', 'cannot be combined with text or html');
    }
    const inputs = body.messages.map((message, i): MessageInput => {
      const text = message.content.text ?? null;
      const html = message.content.html ?? null;
      if (text === null && html === null) throw invalidArgument(`messages[${i}].content`, 'required', 'needs text or html');
      return {
        type: 'message',
        sub_type: message.sub_type,
        agent_id: null,
        text,
        html,
        attachments: message.attachments ?? [],
        attachmentsPath: `messages[${i}].attachments`,
        created_at: message.created_at === undefined ? null : pastTime(message.created_at, `messages[${i}].created_at`, now),
      };
    });
    if (!inputs.some((input) => input.sub_type === 'contact')) {
      throw new ApiError(422, 'no_contact_message', 'The imported messages need at least one message with sub_type contact');
    }
    // Stable: messages without created_at take "now" and keep their array order.
    const at = (input: MessageInput) => (input.created_at ?? now).getTime();
    return inputs.sort((a, b) => at(a) - at(b));
  }
  if (body.text === undefined && body.html === undefined) return [];
  return [
    {
      type: 'message',
      sub_type: 'contact',
      agent_id: null,
      text: body.text ?? null,
      html: body.html ?? null,
      attachments: [],
      attachmentsPath: 'attachments',
      created_at: null,
    },
  ];
}

export async function createConversation(deps: ConversationDeps, accountId: string, body: CreateConversationBody): Promise<Conversation> {
  const now = deps.now();
  const inputs = messagesToCreate(body, now);
  const assignedIds = unique(body.assigned_ids);
  const tags = unique(body.tags);
  const groupId = body.group_id ?? null;
  const references = { contactId: body.contact_id, agentIds: assignedIds, groupId, tagIds: tags, extId: extIdCheck(body.ext_id, null) };
  const presence = inputs.some(judgedLive) ? { at: now, ttlSeconds: deps.config.presenceTtlSeconds } : undefined;

  // The conversation stored with its messages, judged with `agentAvailable`, and the row's version when the write was
  // conditional; null when `condition` no longer held.
  const write = (agentAvailable: boolean | null, condition?: repo.WriteCondition) =>
    deps.db.transaction(async (tx) => {
      const attachments: StoredAttachment[][] = [];
      for (const input of inputs) attachments.push(await resolveAttachments(tx, accountId, input.attachments, now, input.attachmentsPath));

      const created: ConversationRow = {
        ...newConversationState(now),
        id: newId('co'),
        ext_id: body.ext_id ?? null,
        status: assignedIds.length > 0 ? 'served' : 'pending',
        contact_id: body.contact_id,
        group_id: groupId,
        domain: null,
        assigned_ids: assignedIds,
        tags,
        variables: body.variables ?? {},
        rating_value: null,
        rating_text: null,
        rated_at: null,
        is_served: assignedIds.length > 0,
        created_at: inputs[0]?.created_at ?? now,
      };
      let conv = created;
      const rows: NewMessageRow[] = [];
      inputs.forEach((input, i) => {
        const next = withMessage(conv, input, itemAt(attachments, i), judgedLive(input) && agentAvailable === false, now);
        conv = next.conv;
        rows.push(next.row);
      });
      const conversation = toConversation(conv);
      const saved = await saveConversation(tx, accountId, null, {
        after: conv,
        messages: rows,
        events: (messages) => [
          { type: 'conversation.opened', data: { conversation }, conversationId: conv.id },
          ...repliedEvents(messages),
        ],
        at: now,
        condition,
      });
      return saved && { conversation, conv, version: saved.version };
    });

  return withReferenceRaces(body.contact_id, async () => {
    const availability = recentAvailability(deps.db);
    const availabilityKey = groupId ?? '';
    // Without attachments (whose uploads the transaction claims) the write goes first, conditional on the references
    // holding and, for a live contact message, on an agent's availability being what this instance last judged for the
    // group: one statement. When the condition fails, the check below finds what it was and answers it.
    const assumed = presence && availability.get(accountId, availabilityKey);
    if (inputs.every((input) => input.attachments.length === 0) && (!presence || assumed !== undefined)) {
      const agentAvailable = presence && assumed !== undefined ? { presence, available: assumed } : undefined;
      const created = await write(assumed ?? null, { references, agentAvailable });
      if (created) {
        // Its first message (a visitor's next line) is written over it as written, without reading it first.
        if (created.version)
          recentConversations(deps.db).put(accountId, created.conv.id, {
            conv: created.conv,
            version: created.version,
            agentAvailable: assumed ?? null,
          });
        return created.conversation;
      }
    }
    // Checked before the transaction, which then holds only the writes (on PGlite it holds the one backend, and every
    // other connection waits for it). Inside it the check would not hold either (read committed on PostgreSQL): a
    // contact erased or an ext_id taken in between fails the write, answered as the check would (withReferenceRaces).
    const { agentAvailable } = await requireReferences(deps.db, accountId, {
      ...references,
      availability: presence && { groupId, presence },
    });
    if (agentAvailable !== null) availability.put(accountId, availabilityKey, agentAvailable);
    const created = await write(agentAvailable);
    if (!created) throw new Error('A conversation written without a condition was not stored');
    return created.conversation;
  });
}

// ---------------------------------------------------------------- messages, paths, rating

export async function addMessage(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: NewMessageBody,
): Promise<Message> {
  const subType = body.sub_type;
  const agentId = body.agent_id ?? null;
  if (subType === 'agent' && agentId === null) throw new ApiError(422, 'invalid_parameters', 'agent_id is required for an agent message');
  if (subType !== 'agent' && agentId !== null)
    throw new ApiError(422, 'invalid_parameters', `agent_id is only allowed for an agent message, not ${subType}`);
  const text = body.text ?? null;
  const html = body.html ?? null;
  const attachments = body.attachments ?? [];
  if (text === null && html === null && attachments.length === 0)
    throw invalidArgument('text', 'required', 'or html or attachments is required');
  const createdAt = body.created_at === undefined ? null : pastTime(body.created_at, 'created_at', deps.now());
  const input: MessageInput = {
    type: body.type ?? 'message',
    sub_type: subType,
    agent_id: agentId,
    text,
    html,
    attachments,
    attachmentsPath: 'attachments',
    created_at: createdAt,
  };
  const live = judgedLive(input);

  // The message stored into the conversation as read, with the conversation after it and its version when the write was
  // conditional; null when the condition no longer held (another writer came first).
  const store = async (tx: Transaction, { conv, now, agentAvailable }: ConversationToChange, condition?: repo.WriteCondition) => {
    const latestAt = conv.latest_message_at;
    // An imported time is bounded by the conversation's own times (docs/behaviour.md §5): not before its
    // latest message, nor before its creation (a pending conversation has no message to compare with),
    // so every duration measured from created_at (time to close, `duration`) is never negative.
    if (createdAt !== null && latestAt !== null && createdAt.getTime() < latestAt.getTime()) {
      throw invalidArgument(
        'created_at',
        'formatMinimum',
        `must not be earlier than the conversation's latest message (${latestAt.toISOString()})`,
      );
    }
    if (createdAt !== null && createdAt.getTime() < conv.created_at.getTime()) {
      throw invalidArgument(
        'created_at',
        'formatMinimum',
        `must not be earlier than the conversation's created_at (${conv.created_at.toISOString()})`,
      );
    }
    // A clock stepping back (NTP, another instance) must not store a live message before the latest one.
    const storedAt = latestAt !== null && latestAt.getTime() > now.getTime() ? latestAt : now;
    const offline = live && agentAvailable === false;
    const stored = await resolveAttachments(tx, accountId, attachments, storedAt, input.attachmentsPath);
    const next = withMessage(conv, input, stored, offline, storedAt);
    const saved = await saveConversation(tx, accountId, conv, {
      after: next.conv,
      messages: [next.row],
      events: repliedEvents,
      at: now,
      condition,
    });
    return saved && { message: firstRow(saved.messages), conv: next.conv, version: saved.version };
  };
  if (agentId !== null) await requireReferences(deps.db, accountId, { agentIds: [agentId] });
  // Without attachments (whose uploads the transaction claims) nothing but the conversation's own row is read for the
  // write: the transaction holds only the write (on PGlite it holds the one backend, and the other connections'
  // statements run while the rules do), conditional on what was read. The conversation as this instance last wrote it
  // (src/conversations/recent.ts) saves the read; when another writer came first it is read, then it is locked.
  if (attachments.length === 0) {
    const recent = recentConversations(deps.db);
    const writeAsRead = async (read: repo.ConversationForChange, judged: PresenceAt | undefined) => {
      const agentAvailable = judged && read.agentAvailable !== null ? { presence: judged, available: read.agentAvailable } : undefined;
      const stored = await deps.db.transaction((tx) => store(tx, { ...read, now: deps.now() }, { version: read.version, agentAvailable }));
      if (stored?.version)
        recent.put(accountId, conversationId, { conv: stored.conv, version: stored.version, agentAvailable: read.agentAvailable });
      return stored?.message;
    };
    const known = recent.take(accountId, conversationId);
    // Not for an imported time, which the rules check against the row before the write could find it stale.
    if (known && createdAt === null && (!live || known.agentAvailable !== null)) {
      const message = await writeAsRead(known, live ? { at: deps.now(), ttlSeconds: deps.config.presenceTtlSeconds } : undefined);
      if (message) return message;
    }
    const message = await writeAsRead(await readConversation(deps, accountId, conversationId, live), undefined);
    if (message) return message;
  }
  const stored = await deps.db.transaction(async (tx) => store(tx, await lockConversation(tx, deps, accountId, conversationId, live)));
  if (!stored) throw new Error("A message written under its conversation's lock was not stored");
  return stored.message;
}

export async function addPath(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { url: string; title?: string | null },
): Promise<Path> {
  const host = hostOf(body.url);
  if (host === null) throw invalidArgument('url', 'format', 'must be a valid http or https URL');
  return deps.db.transaction(async (tx) => {
    const { conv, now } = await lockConversation(tx, deps, accountId, conversationId);
    const path = await repo.insertPath(tx, accountId, conversationId, { url: body.url, title: body.title ?? null, created_at: now });
    if (conv.domain === null) await saveConversation(tx, accountId, conv, { after: { ...conv, domain: host, updated_at: now }, at: now });
    return toPath(path);
  });
}

/** Lower-case host of an http(s) URL (the schema has checked the scheme); null when the URL does not parse. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

export async function rateConversation(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { value: 1 | 3 | 5; text?: string | null },
): Promise<Conversation> {
  return changeConversation(deps, accountId, conversationId, 'conversation.rated', (conv, now) => ({
    ...conv,
    rating_value: body.value,
    rating_text: body.text ?? null,
    rated_at: now,
  }));
}

/**
 * An agent's typing signal: an event (`conversation.agent_typing`), not a stored message; the conversation and
 * the agent must exist (docs/behaviour.md §8).
 */
export async function signalAgentTyping(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { agent_id: string; is_typing: boolean },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await requireConversation(tx, accountId, conversationId);
    await requireReferences(tx, accountId, { agentIds: [body.agent_id] });
    const data = { conversation_id: conversationId, agent_id: body.agent_id, is_typing: body.is_typing };
    await recordEvent(tx, accountId, deps.now(), 'conversation.agent_typing', data, conversationId);
  });
}

/** The contact's typing signal (the widget's visitor): an event (`conversation.contact_typing`), not a stored message. */
export async function signalContactTyping(deps: ConversationDeps, accountId: string, conversationId: string, isTyping: boolean) {
  await deps.db.transaction(async (tx) => {
    await requireConversation(tx, accountId, conversationId);
    const data = { conversation_id: conversationId, is_typing: isTyping };
    await recordEvent(tx, accountId, deps.now(), 'conversation.contact_typing', data, conversationId);
  });
}

// ---------------------------------------------------------------- update, assign, unassign, close

/**
 * Loads the conversation under its row lock, lets `change` check it and return the conversation after the change
 * (the same object when nothing changes), saves that and records `event` with it. Returns the conversation as it
 * is afterwards.
 */
async function changeConversation(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  event: EventType,
  change: (conv: ConversationRow, now: Date, tx: Queryable) => Promise<ConversationRow> | ConversationRow,
): Promise<Conversation> {
  return withReferenceRaces(undefined, () =>
    deps.db.transaction(async (tx) => {
      const { conv, now } = await lockConversation(tx, deps, accountId, conversationId);
      const changed = await change(conv, now, tx);
      if (changed === conv) return toConversation(conv);
      const after = { ...changed, updated_at: now };
      const conversation = toConversation(after);
      await saveConversation(tx, accountId, conv, {
        after,
        events: () => [{ type: event, data: { conversation }, conversationId: conv.id }],
        at: now,
      });
      return conversation;
    }),
  );
}

export async function updateConversation(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: UpdateConversationBody,
): Promise<Conversation> {
  return changeConversation(deps, accountId, conversationId, 'conversation.updated', async (conv, _now, tx) => {
    await requireReferences(tx, accountId, { groupId: body.group_id, tagIds: unique(body.tags), extId: extIdCheck(body.ext_id, conv.id) });
    if (Object.keys(body).length === 0) return conv;
    return {
      ...conv,
      group_id: body.group_id === undefined ? conv.group_id : body.group_id,
      tags: body.tags === undefined ? conv.tags : unique(body.tags),
      variables: body.variables === undefined ? conv.variables : body.variables,
      ext_id: body.ext_id === undefined ? conv.ext_id : body.ext_id,
    };
  });
}

/** Closes the conversation as an agent; closing a closed one changes nothing. */
export async function closeConversation(deps: ConversationDeps, accountId: string, conversationId: string): Promise<void> {
  await changeConversation(deps, accountId, conversationId, 'conversation.closed', (conv, now) => {
    if (conv.status === 'closed') return conv;
    // Never before its creation, even with an instance's clock behind the one that created it: no negative duration.
    return conversationAfterClose(conv, now < conv.created_at ? conv.created_at : now, 'agent');
  });
}

/**
 * Saves an assignment change (`assigned`: the conversation after it) with its system message, and records its
 * event. Returns the conversation as saved.
 */
async function recordAssignment(
  tx: Transaction,
  accountId: string,
  before: ConversationRow,
  assigned: ConversationRow,
  kind: 'agent_assigned' | 'agent_unassigned',
  actingId: string,
  subjectId: string,
  now: Date,
): Promise<ConversationRow> {
  const { flags, conversation: conv } = conversationAfterMessage(
    assigned,
    { type: 'event', sub_type: 'system', agent_id: actingId, text: null, created_at: now, offline: false },
    now,
  );
  const event: NewMessageRow = {
    id: newId('ms'),
    type: 'event',
    sub_type: 'system',
    agent_id: actingId,
    content: { type: kind, text: null, data: { agent_id: subjectId } },
    attachments: [],
    flags,
    group_id: conv.group_id,
    created_at: now,
  };
  const subjectKey = kind === 'agent_assigned' ? 'assignee_id' : 'unassignee_id';
  await saveConversation(tx, accountId, before, {
    after: conv,
    messages: [event],
    events: () => [
      {
        type: kind === 'agent_assigned' ? 'conversation.agent_assigned' : 'conversation.agent_unassigned',
        data: { conversation_id: conv.id, agent_id: actingId, [subjectKey]: subjectId },
        conversationId: conv.id,
      },
    ],
    at: now,
  });
  return conv;
}

export async function assignAgent(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { agent_id: string; assignee_id: string },
): Promise<Conversation> {
  return deps.db.transaction(async (tx) => {
    const { conv, now } = await lockConversation(tx, deps, accountId, conversationId);
    await requireReferences(tx, accountId, { agentIds: unique([body.agent_id, body.assignee_id]) });
    if (conv.status === 'closed') throw new ApiError(422, 'invalid_parameters', `Conversation ${conversationId} is closed`);
    if (conv.assigned_ids.includes(body.assignee_id)) return toConversation(conv);
    const assigned = conversationAfterAssign(conv, body.assignee_id);
    return toConversation(await recordAssignment(tx, accountId, conv, assigned, 'agent_assigned', body.agent_id, body.assignee_id, now));
  });
}

export async function unassignAgent(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { agent_id: string; unassignee_id: string },
): Promise<Conversation> {
  return deps.db.transaction(async (tx) => {
    const { conv, now } = await lockConversation(tx, deps, accountId, conversationId);
    await requireReferences(tx, accountId, { agentIds: [body.agent_id] });
    // An agent deleted while assigned stays unassignable; anyone else must be a live agent.
    if (!conv.assigned_ids.includes(body.unassignee_id)) {
      await requireReferences(tx, accountId, { agentIds: [body.unassignee_id] });
      throw new ApiError(422, 'invalid_parameters', `Agent ${body.unassignee_id} is not assigned to conversation ${conversationId}`);
    }
    const unassigned = conversationAfterUnassign(conv, body.unassignee_id);
    return toConversation(
      await recordAssignment(tx, accountId, conv, unassigned, 'agent_unassigned', body.agent_id, body.unassignee_id, now),
    );
  });
}

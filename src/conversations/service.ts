import type { Deps } from '../deps.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError, invalidArgument, notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { recordEvent, recordEvents, type EventType, type NewEvent } from '../events/outbox.ts';
import { missingAgentIds } from '../agents/repository.ts';
import { missingGroupIds, missingTagIds } from '../named-resources/repository.ts';
import { sanitizeHtml } from '../content/html.ts';
import { resolveAttachments, type AttachmentInput } from '../content/attachments.ts';
import { applyMessage, EMPTY_REPLY_STATE, NO_FLAGS, type ReplyState } from './flags.ts';
import * as repo from './repository.ts';
import type { ConversationRow, Page } from './repository.ts';
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

async function requireConversation(db: Queryable, accountId: string, id: string, lock = false): Promise<ConversationRow> {
  const row = await repo.findConversation(db, accountId, id, lock);
  if (!row) throw notFound(`Conversation ${id}`);
  return row;
}

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
  const row = await requireConversation(deps.db, accountId, id);
  const details: ConversationDetails = repo.toConversation(row);
  if (include.messages) details.messages = await repo.lastMessages(deps.db, accountId, id, RECENT_LIMIT);
  if (include.paths) details.paths = await repo.lastPaths(deps.db, accountId, id, RECENT_LIMIT);
  if (include.statistics) details.statistics = await repo.conversationStatistics(deps.db, accountId, id);
  return details;
}

export async function findConversationByExtId(deps: ConversationDeps, accountId: string, extId: string): Promise<Conversation> {
  const row = await repo.findConversationByExtId(deps.db, accountId, extId);
  if (!row) throw notFound(`Conversation with ext_id ${extId}`);
  return repo.toConversation(row);
}

async function requireCursor(db: Queryable, table: 'messages' | 'paths', accountId: string, conversationId: string, after: string | undefined) {
  if (after !== undefined && !(await repo.cursorExists(db, table, accountId, conversationId, after))) {
    throw invalidArgument('after', 'cursor', 'is not a cursor of this conversation', 'query');
  }
  return after ?? null;
}

export async function listMessages(deps: ConversationDeps, accountId: string, id: string, size: number, after?: string): Promise<Page<Message>> {
  await requireConversation(deps.db, accountId, id);
  return repo.pageMessages(deps.db, accountId, id, size, await requireCursor(deps.db, 'messages', accountId, id, after));
}

export async function listPaths(deps: ConversationDeps, accountId: string, id: string, size: number, after?: string): Promise<Page<Path>> {
  await requireConversation(deps.db, accountId, id);
  return repo.pagePaths(deps.db, accountId, id, size, await requireCursor(deps.db, 'paths', accountId, id, after));
}

// ---------------------------------------------------------------- checks

async function requireAgents(db: Queryable, accountId: string, ids: string[]): Promise<void> {
  const missing = await missingAgentIds(db, accountId, ids);
  if (missing.length > 0) throw new ApiError(422, 'agent_not_found', `Agent ${missing[0]} not found`);
}

async function requireGroup(db: Queryable, accountId: string, groupId: string | null | undefined): Promise<void> {
  if (!groupId) return;
  if ((await missingGroupIds(db, accountId, [groupId])).length > 0) throw new ApiError(422, 'group_not_found', `Group ${groupId} not found`);
}

async function requireTags(db: Queryable, accountId: string, tags: string[]): Promise<void> {
  const missing = await missingTagIds(db, accountId, tags);
  if (missing.length > 0) throw new ApiError(422, 'tag_not_found', `Tag ${missing[0]} not found`);
}

async function requireFreeExtId(db: Queryable, accountId: string, extId: string | null | undefined, exceptId: string | null): Promise<void> {
  if (extId && (await repo.extIdTaken(db, accountId, extId, exceptId))) throw extIdTakenError();
}

const extIdTakenError = () => invalidArgument('ext_id', 'unique', 'is already used by another conversation');

/** A concurrent writer took the ext_id between our check and our write: same answer as the check. */
async function withExtIdConstraint<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const pgError = error as { code?: string; constraint?: string; message?: string };
    if (pgError.code === '23505' && (pgError.constraint === 'conversations_ext_id' || pgError.message?.includes('conversations_ext_id'))) {
      throw extIdTakenError();
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
  return at;
}

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

// ---------------------------------------------------------------- storing messages

/**
 * Stores one message after the conversation's current ones: computes its flags
 * from `state`, updates `conv` in memory (status, agents, unread, last message)
 * and returns the new state. The caller holds the conversation's row lock and
 * saves `conv` afterwards.
 */
async function storeMessage(
  tx: Queryable,
  deps: ConversationDeps,
  accountId: string,
  conv: ConversationRow,
  state: ReplyState,
  input: MessageInput,
  now: Date,
): Promise<{ message: Message; state: ReplyState }> {
  const createdAt = input.created_at ?? now;
  const countsAsMessage = input.type === 'message';
  // Imported history is never offline: nobody knows who was available back then.
  const offline =
    countsAsMessage &&
    input.sub_type === 'contact' &&
    input.created_at === null &&
    !(await repo.agentAvailable(tx, accountId, conv.group_id, createdAt, deps.config.presenceTtlSeconds));
  const next = applyMessage(state, { type: input.type, sub_type: input.sub_type, created_at: createdAt, offline });
  const sanitized = input.html === null ? null : sanitizeHtml(input.html);
  const text = input.text ?? sanitized?.text ?? null;
  const attachments = await resolveAttachments(tx, accountId, input.attachments, now, input.attachmentsPath);
  const message = await repo.insertMessage(tx, accountId, {
    id: newId('ms'),
    conversation_id: conv.id,
    type: input.type,
    sub_type: input.sub_type,
    agent_id: input.agent_id,
    content: { type: 'text', text, html: sanitized?.html ?? null },
    attachments,
    flags: next.flags,
    group_id: conv.group_id,
    created_at: createdAt,
  });

  if (countsAsMessage) {
    conv.last_message_text = text;
    conv.last_message_at = createdAt;
    conv.unread = next.state.unanswered;
    if (input.sub_type === 'contact') {
      if (!state.hasContactMessage) conv.is_offline = offline;
      if (conv.status === 'closed') {
        conv.finished_at = null;
        conv.close_type = null;
        conv.status = 'open';
      } else if (conv.status === 'pending') {
        conv.status = 'open';
      }
    } else if (input.sub_type === 'agent' && input.agent_id !== null) {
      if (!conv.agent_ids.includes(input.agent_id)) conv.agent_ids = [...conv.agent_ids, input.agent_id];
      conv.is_served = true;
      if (conv.status !== 'closed') conv.status = 'served';
    }
  }
  conv.updated_at = now;
  return { message, state: next.state };
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
  return withExtIdConstraint(() =>
    deps.db.transaction(async (tx) => {
      if (!(await repo.contactExists(tx, accountId, body.contact_id))) {
        throw new ApiError(422, 'contact_not_found', `Contact ${body.contact_id} not found`);
      }
      await requireAgents(tx, accountId, assignedIds);
      await requireGroup(tx, accountId, body.group_id);
      await requireTags(tx, accountId, tags);
      await requireFreeExtId(tx, accountId, body.ext_id, null);

      const conv: ConversationRow = {
        id: newId('co'),
        ext_id: body.ext_id ?? null,
        status: assignedIds.length > 0 ? 'served' : 'pending',
        contact_id: body.contact_id,
        group_id: body.group_id ?? null,
        domain: null,
        assigned_ids: assignedIds,
        agent_ids: [],
        tags,
        variables: body.variables ?? {},
        rating_value: null,
        rating_text: null,
        rated_at: null,
        is_offline: false,
        is_served: assignedIds.length > 0,
        unread: 0,
        last_message_text: null,
        last_message_at: null,
        created_at: inputs.length > 0 ? (inputs[0].created_at ?? now) : now,
        updated_at: now,
        finished_at: null,
        close_type: null,
      };
      await repo.insertConversation(tx, accountId, conv);
      let state = EMPTY_REPLY_STATE;
      const messages: Message[] = [];
      for (const input of inputs) {
        const stored = await storeMessage(tx, deps, accountId, conv, state, input, now);
        state = stored.state;
        messages.push(stored.message);
      }
      await repo.saveConversation(tx, accountId, conv);
      const conversation = repo.toConversation(conv);
      await recordEvents(tx, accountId, [
        { type: 'conversation.opened', data: { conversation }, conversationId: conv.id },
        ...repliedEvents(messages),
      ]);
      return conversation;
    }),
  );
}

// ---------------------------------------------------------------- messages, paths, rating

export async function addMessage(deps: ConversationDeps, accountId: string, conversationId: string, body: NewMessageBody): Promise<Message> {
  const now = deps.now();
  const subType = body.sub_type;
  const agentId = body.agent_id ?? null;
  if (subType === 'agent' && agentId === null) throw new ApiError(422, 'invalid_parameters', 'agent_id is required for an agent message');
  if (subType !== 'agent' && agentId !== null) throw new ApiError(422, 'invalid_parameters', `agent_id is only allowed for an agent message, not ${subType}`);
  const text = body.text ?? null;
  const html = body.html ?? null;
  const attachments = body.attachments ?? [];
  if (text === null && html === null && attachments.length === 0) throw invalidArgument('text', 'required', 'or html or attachments is required');
  const createdAt = body.created_at === undefined ? null : pastTime(body.created_at, 'created_at', now);

  return deps.db.transaction(async (tx) => {
    const conv = await requireConversation(tx, accountId, conversationId, true);
    if (agentId !== null) await requireAgents(tx, accountId, [agentId]);
    const { state, latestAt } = await repo.loadReplyState(tx, accountId, conversationId);
    if (createdAt !== null && latestAt !== null && createdAt.getTime() < latestAt.getTime()) {
      throw invalidArgument('created_at', 'formatMinimum', `must not be earlier than the conversation's latest message (${latestAt.toISOString()})`);
    }
    // A clock stepping back (NTP, another instance) must not store a live message before the latest one.
    const storedAt = latestAt !== null && latestAt.getTime() > now.getTime() ? latestAt : now;
    const { message } = await storeMessage(
      tx,
      deps,
      accountId,
      conv,
      state,
      { type: body.type ?? 'message', sub_type: subType, agent_id: agentId, text, html, attachments, attachmentsPath: 'attachments', created_at: createdAt },
      storedAt,
    );
    await repo.saveConversation(tx, accountId, conv);
    await recordEvents(tx, accountId, repliedEvents([message]));
    return message;
  });
}

export async function addPath(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { url: string; title?: string | null },
): Promise<Path> {
  const now = deps.now();
  const host = hostOf(body.url);
  if (host === null) throw invalidArgument('url', 'format', 'must be a valid http or https URL');
  return deps.db.transaction(async (tx) => {
    const conv = await requireConversation(tx, accountId, conversationId, true);
    const path = await repo.insertPath(tx, accountId, conversationId, { url: body.url, title: body.title ?? null, created_at: now });
    if (conv.domain === null) {
      conv.domain = host;
      conv.updated_at = now;
      await repo.saveConversation(tx, accountId, conv);
    }
    return path;
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
  return changeConversation(deps, accountId, conversationId, 'conversation.rated', (conv, now) => {
    conv.rating_value = body.value;
    conv.rating_text = body.text ?? null;
    conv.rated_at = now;
  });
}

// ---------------------------------------------------------------- update, assign, unassign, close

/**
 * Loads the conversation under its row lock, lets `change` check and modify it
 * (returning false when nothing changed), saves it and records `event` with the
 * conversation. Returns the conversation as it is afterwards.
 */
async function changeConversation(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  event: EventType,
  change: (conv: ConversationRow, now: Date, tx: Queryable) => Promise<boolean | void> | boolean | void,
): Promise<Conversation> {
  const now = deps.now();
  return withExtIdConstraint(() =>
    deps.db.transaction(async (tx) => {
      const conv = await requireConversation(tx, accountId, conversationId, true);
      if ((await change(conv, now, tx)) === false) return repo.toConversation(conv);
      conv.updated_at = now;
      await repo.saveConversation(tx, accountId, conv);
      const conversation = repo.toConversation(conv);
      await recordEvent(tx, accountId, event, { conversation }, conv.id);
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
    if (body.group_id !== undefined) await requireGroup(tx, accountId, body.group_id);
    if (body.tags !== undefined) await requireTags(tx, accountId, unique(body.tags));
    if (body.ext_id !== undefined) await requireFreeExtId(tx, accountId, body.ext_id, conv.id);
    if (body.group_id !== undefined) conv.group_id = body.group_id;
    if (body.tags !== undefined) conv.tags = unique(body.tags);
    if (body.variables !== undefined) conv.variables = body.variables;
    if (body.ext_id !== undefined) conv.ext_id = body.ext_id;
    return Object.keys(body).length > 0;
  });
}

/** Closes the conversation as an agent; closing a closed one changes nothing. */
export async function closeConversation(deps: ConversationDeps, accountId: string, conversationId: string): Promise<void> {
  await changeConversation(deps, accountId, conversationId, 'conversation.closed', (conv, now) => {
    if (conv.status === 'closed') return false;
    conv.status = 'closed';
    conv.finished_at = now;
    conv.close_type = 'agent';
  });
}

async function recordAssignment(
  tx: Queryable,
  accountId: string,
  conv: ConversationRow,
  kind: 'agent_assigned' | 'agent_unassigned',
  actingId: string,
  subjectId: string,
  now: Date,
): Promise<void> {
  await repo.insertMessage(tx, accountId, {
    id: newId('ms'),
    conversation_id: conv.id,
    type: 'event',
    sub_type: 'system',
    agent_id: actingId,
    content: { type: kind, text: null, data: { agent_id: subjectId } },
    attachments: [],
    flags: NO_FLAGS,
    group_id: conv.group_id,
    created_at: now,
  });
  conv.updated_at = now;
  await repo.saveConversation(tx, accountId, conv);
  const subjectKey = kind === 'agent_assigned' ? 'assignee_id' : 'unassignee_id';
  await recordEvent(
    tx,
    accountId,
    kind === 'agent_assigned' ? 'conversation.agent_assigned' : 'conversation.agent_unassigned',
    { conversation_id: conv.id, agent_id: actingId, [subjectKey]: subjectId },
    conv.id,
  );
}

export async function assignAgent(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { agent_id: string; assignee_id: string },
): Promise<Conversation> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const conv = await requireConversation(tx, accountId, conversationId, true);
    await requireAgents(tx, accountId, unique([body.agent_id, body.assignee_id]));
    if (conv.status === 'closed') throw new ApiError(422, 'invalid_parameters', `Conversation ${conversationId} is closed`);
    if (conv.assigned_ids.includes(body.assignee_id)) return repo.toConversation(conv);
    conv.assigned_ids = [...conv.assigned_ids, body.assignee_id];
    conv.is_served = true;
    conv.status = 'served';
    await recordAssignment(tx, accountId, conv, 'agent_assigned', body.agent_id, body.assignee_id, now);
    return repo.toConversation(conv);
  });
}

export async function unassignAgent(
  deps: ConversationDeps,
  accountId: string,
  conversationId: string,
  body: { agent_id: string; unassignee_id: string },
): Promise<Conversation> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const conv = await requireConversation(tx, accountId, conversationId, true);
    await requireAgents(tx, accountId, [body.agent_id]);
    // An agent deleted while assigned stays unassignable; anyone else must be a live agent.
    if (!conv.assigned_ids.includes(body.unassignee_id)) {
      await requireAgents(tx, accountId, [body.unassignee_id]);
      throw new ApiError(422, 'invalid_parameters', `Agent ${body.unassignee_id} is not assigned to conversation ${conversationId}`);
    }
    conv.assigned_ids = conv.assigned_ids.filter((id) => id !== body.unassignee_id);
    // Served only while someone is assigned or an agent has replied.
    if (conv.status === 'served' && conv.assigned_ids.length === 0 && conv.agent_ids.length === 0) {
      const { state } = await repo.loadReplyState(tx, accountId, conversationId);
      conv.status = state.hasContactMessage ? 'open' : 'pending';
    }
    await recordAssignment(tx, accountId, conv, 'agent_unassigned', body.agent_id, body.unassignee_id, now);
    return repo.toConversation(conv);
  });
}

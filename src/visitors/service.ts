import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { randomString, sha256 } from '../ids.ts';
import { widgetAccountByKey } from '../accounts/service.ts';
import { contactOfIdentity, createContact } from '../contacts/service.ts';
import * as conversations from '../conversations/service.ts';
import type { Page } from '../conversations/repository.ts';
import { checkAttachableFileName } from '../content/attachments.ts';
import {
  cleanFileName,
  getUploadContent,
  stageUpload,
  type StagedUpload,
  type UploadContentBody,
  type UploadStart,
} from '../uploads/service.ts';
import { verifyIdentity } from './identity.ts';
import { toVisitorConversation, toVisitorMessage } from './presenter.ts';
import * as repo from './repository.ts';
import type {
  SessionBody,
  StartConversationBody,
  VisitorConversation,
  VisitorMessage,
  VisitorMessageBody,
  VisitorSession,
} from './schema.ts';

type VisitorDeps = Pick<Deps, 'db' | 'config' | 'now'>;

/** Who calls a visitor route: resolved from the visitor token. */
export interface Visitor {
  accountId: string;
  sessionId: string;
  contactId: string;
  /** The origins the account allows now. */
  origins: readonly string[];
}

/** A visitor's conversations listed, and followed by its event stream, at most. */
export const VISITOR_CONVERSATIONS = 100;

/** last_seen_at is written at most this often per session: a visitor's every request need not write. */
const TOUCH_EVERY_MS = 60_000;

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** The visitor of a token at `now`, or null: unknown, revoked (rotated key, erased contact) or idle too long. */
export async function findVisitor(deps: VisitorDeps, token: string): Promise<Visitor | null> {
  const session = await repo.sessionByTokenHash(deps.db, sha256(token));
  if (!session) return null;
  const now = deps.now();
  const idleMs = now.getTime() - session.last_seen_at.getTime();
  if (idleMs > deps.config.widgetTokenIdleSeconds * 1000) {
    await repo.deleteSession(deps.db, session.account_id, session.id);
    return null;
  }
  if (idleMs >= TOUCH_EVERY_MS) await repo.touchSession(deps.db, session.account_id, session.id, now);
  return { accountId: session.account_id, sessionId: session.id, contactId: session.contact_id, origins: session.widget_origins };
}

const erasedIdentity = () => new ApiError(401, 'invalid_identity', 'The contact of this identity is being erased');

/**
 * POST /widget/v1/session (docs/widget.md): from an allowed origin with the account's widget key, resumes the
 * session of `body.token` when it is still valid (and, with an identity, is that identity's), else starts one as
 * a new anonymous contact or as the contact of the verified identity. `admit` runs before a new session is made
 * (the per-address limit).
 */
export async function startSession(
  deps: VisitorDeps,
  body: SessionBody,
  origin: string | undefined,
  admit: () => void,
): Promise<VisitorSession> {
  const account = await widgetAccountByKey(deps.db, body.widget_key);
  if (!account) throw forbidden('Unknown widget key');
  if (origin === undefined || !account.widget_origins.includes(origin)) {
    throw forbidden(`Origin ${origin ?? '(none)'} is not allowed to start visitor sessions of this widget`);
  }
  const accountId = account.account_id;
  if (body.identity) verifyIdentity(account.widget_identity_secret, body.identity, deps.now());
  else if (account.widget_identity_required) throw new ApiError(401, 'invalid_identity', 'This widget requires a signed identity');
  const identified = body.identity
    ? await contactOfIdentity(deps, accountId, {
        identity_id: body.identity.id,
        name: body.identity.name ?? null,
        email: body.identity.email ?? null,
      })
    : undefined;
  if (identified === null) throw erasedIdentity();
  if (body.token !== undefined) {
    const resumed = await findVisitor(deps, body.token);
    if (resumed && resumed.accountId === accountId && (!identified || identified.id === resumed.contactId)) {
      return { token: body.token, contact_id: resumed.contactId };
    }
  }
  admit();
  const contactId = identified ? identified.id : (await createContact(deps, accountId, {})).id;
  const token = `vt_${randomString(43)}`;
  const inserted = await repo.insertSession(deps.db, {
    accountId,
    id: randomString(16),
    contactId,
    tokenHash: sha256(token),
    at: deps.now(),
  });
  if (!inserted) throw erasedIdentity();
  return { token, contact_id: contactId };
}

/** The visitor's own conversation `id`; another's (or none) is 404, as another account's resources are. */
async function ownConversation(deps: VisitorDeps, visitor: Visitor, id: string) {
  const conversation = await conversations
    .getConversation(deps, visitor.accountId, id, { messages: false, paths: false, statistics: false })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    });
  if (!conversation || conversation.contact_id !== visitor.contactId) throw notFound(`Conversation ${id}`);
  return conversation;
}

export async function listConversations(deps: VisitorDeps, visitor: Visitor): Promise<{ items: VisitorConversation[] }> {
  const found = await conversations.contactConversations(deps, visitor.accountId, visitor.contactId, VISITOR_CONVERSATIONS);
  return { items: found.map(toVisitorConversation) };
}

/** The ids of the conversations the visitor's event stream follows. */
export async function followedConversationIds(deps: VisitorDeps, visitor: Visitor): Promise<string[]> {
  const found = await conversations.contactConversations(deps, visitor.accountId, visitor.contactId, VISITOR_CONVERSATIONS);
  return found.map((conversation) => conversation.id);
}

/** How long a repeated write waits for the first to finish, and how often it looks. */
const REPEAT_WAIT_MS = 10_000;
const REPEAT_POLL_MS = 25;

/**
 * Runs `write` once per client id (docs/widget.md "Operations"): the first request claims the id, a repeat, even
 * one sent while the first still runs (a double click, a retry after a lost answer), answers `replay` of what the
 * first stored, waiting for it up to REPEAT_WAIT_MS (then 409). A failed write gives the id up, so a retry runs it.
 * Without a client id every request writes.
 */
async function writeOnce<T extends { id: string }>(
  deps: VisitorDeps,
  key: repo.ClientWrite | undefined,
  write: () => Promise<T>,
  replay: (id: string) => Promise<T>,
): Promise<T> {
  if (key === undefined) return write();
  const deadline = Date.now() + REPEAT_WAIT_MS;
  for (;;) {
    if (await repo.claimWrite(deps.db, key, deps.now())) break;
    const written = await repo.findWrite(deps.db, key);
    if (written) return replay(written);
    if (Date.now() > deadline)
      throw new ApiError(409, 'idempotency_key_in_use', 'The first request with this client_id is still running; retry');
    if (written === null) await sleep(REPEAT_POLL_MS);
  }
  try {
    const result = await write();
    await repo.settleWrite(deps.db, key, result.id);
    return result;
  } catch (error) {
    await repo.releaseWrite(deps.db, key);
    throw error;
  }
}

/** The key of a visitor's write with a client id: `scope` '' for a start, the conversation's id for a message. */
const clientWrite = (visitor: Visitor, scope: string, clientId: string | undefined): repo.ClientWrite | undefined =>
  clientId === undefined ? undefined : { accountId: visitor.accountId, contactId: visitor.contactId, scope, clientId };

/**
 * Starts a conversation with the visitor's first message, through the API's write path (flags, unread counts,
 * statistics, events, webhooks). With a client id (`client_id`, or the Idempotency-Key header) a repeated start
 * answers the conversation of the first.
 */
export async function startConversation(
  deps: VisitorDeps,
  visitor: Visitor,
  body: StartConversationBody,
  clientId: string | undefined,
): Promise<VisitorConversation> {
  return writeOnce(
    deps,
    clientWrite(visitor, '', clientId),
    async () =>
      toVisitorConversation(
        await conversations.createConversation(deps, visitor.accountId, {
          contact_id: visitor.contactId,
          text: body.text,
          ...(body.variables ? { variables: body.variables } : {}),
        }),
      ),
    async (id) => toVisitorConversation(await ownConversation(deps, visitor, id)),
  );
}

/**
 * A contact message in one of the visitor's conversations: text, `upload` attachments (tokens of its uploads), or
 * both. With a client id a repeated message answers the one first stored in this conversation.
 */
export async function sendMessage(
  deps: VisitorDeps,
  visitor: Visitor,
  id: string,
  body: VisitorMessageBody,
  clientId: string | undefined,
): Promise<VisitorMessage> {
  await ownConversation(deps, visitor, id);
  return writeOnce(
    deps,
    clientWrite(visitor, id, clientId),
    async () =>
      toVisitorMessage(
        await conversations.addMessage(deps, visitor.accountId, id, {
          sub_type: 'contact',
          ...(body.text === undefined ? {} : { text: body.text }),
          ...(body.attachments === undefined ? {} : { attachments: body.attachments }),
        }),
      ) as VisitorMessage,
    async (messageId) => toVisitorMessage(await conversations.getMessage(deps, visitor.accountId, id, messageId)) as VisitorMessage,
  );
}

/**
 * Stores a visitor's file as POST /v2/uploads does (size, quotas: the same service), and refuses before reading it
 * a file name no `upload` attachment may carry: a visitor uploads only what it can attach.
 */
export async function stageVisitorUpload(
  deps: VisitorDeps,
  visitor: Visitor,
  start: UploadStart,
  bytes: AsyncIterable<Buffer>,
): Promise<StagedUpload> {
  const fileName = start.fileName === undefined ? '' : cleanFileName(start.fileName);
  if (fileName !== '') checkAttachableFileName(fileName);
  return stageUpload(deps, visitor.accountId, start, bytes);
}

/**
 * A file attached to a message the visitor can read, in one of its own conversations; any other upload (another
 * visitor's, another account's, one attached to no message it sees, one only in an internal note) is 404.
 */
export async function visitorUploadContent(deps: VisitorDeps, visitor: Visitor, id: string): Promise<UploadContentBody> {
  if (!(await conversations.contactSeesUpload(deps, visitor.accountId, visitor.contactId, id))) throw notFound(`Upload ${id}`);
  return getUploadContent(deps, visitor.accountId, id);
}

export async function listMessages(
  deps: VisitorDeps,
  visitor: Visitor,
  id: string,
  size: number,
  after: string | undefined,
): Promise<Page<VisitorMessage>> {
  await ownConversation(deps, visitor, id);
  const page = await conversations.listMessages(deps, visitor.accountId, id, size, after, true);
  return { ...page, items: page.items.map((message) => toVisitorMessage(message) as VisitorMessage) };
}

export async function rateConversation(
  deps: VisitorDeps,
  visitor: Visitor,
  id: string,
  rating: { value: 1 | 3 | 5; text?: string | null },
): Promise<VisitorConversation> {
  await ownConversation(deps, visitor, id);
  return toVisitorConversation(await conversations.rateConversation(deps, visitor.accountId, id, rating));
}

/** The visitor types (or stopped) in one of its conversations: a `conversation.contact_typing` event for the agents. */
export async function signalTyping(deps: VisitorDeps, visitor: Visitor, id: string, isTyping: boolean): Promise<void> {
  await ownConversation(deps, visitor, id);
  await conversations.signalContactTyping(deps, visitor.accountId, id, isTyping);
}

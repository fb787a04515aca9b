import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../http/errors.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import { addressKey } from '../auth/failures.ts';
import { WindowLimiter } from '../http/window-limiter.ts';
import type { Deps } from '../deps.ts';
import type { EventHub } from '../events/hub.ts';
import { streamStart } from '../events/service.ts';
import { sendEventStream } from '../events/http.ts';
import { EventStreamHeaders } from '../events/schema.ts';
import { PageQuery, RatingBody } from '../conversations/schema.ts';
import { acceptUploads, sendUploadContent } from '../uploads/routes.ts';
import { UploadBodies, UploadContent, UploadQuery, UploadResult } from '../uploads/schema.ts';
import { completeUpload } from '../uploads/service.ts';
import { AllowedOrigins } from './cors.ts';
import { visitorEventBody } from './presenter.ts';
import {
  CLIENT_ID_PATTERN,
  SessionBody,
  StartConversationBody,
  VisitorConversation,
  VisitorConversationList,
  VisitorEventQuery,
  VisitorEventStream,
  VisitorMessage,
  VisitorMessageBody,
  VisitorMessagePage,
  VisitorSession,
  VisitorTypingBody,
  VisitorWriteHeaders,
} from './schema.ts';
import * as visitors from './service.ts';
import type { Visitor } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every visitor route (config.visitor) by the visitor API's onRequest hook. */
    visitor?: Visitor;
  }
}

const tags = ['Visitors'];

/** Event streams one visitor (contact) may hold open on an instance at once. */
const STREAMS_PER_VISITOR = 5;

/** Typing signals a visitor may send per window (the widget sends one every few seconds while the visitor types). */
const TYPING_SIGNALS = 2;
const TYPING_WINDOW_MS = 5_000;

/** What a preflight allows: the visitor API's methods and the headers the widget sends. */
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};

const unauthorized = (message: string) =>
  new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="chat-service-visitor"' });

function visitorOf(request: FastifyRequest): Visitor {
  if (!request.visitor) throw new Error('visitorOf() used on a route without config.visitor');
  return request.visitor;
}

const originOf = (request: FastifyRequest) => (typeof request.headers.origin === 'string' ? request.headers.origin : undefined);

const CLIENT_ID = new RegExp(CLIENT_ID_PATTERN);

/** A write's client id: `client_id`, else the Idempotency-Key header (which the schema only documents: checked here). */
function clientIdOf(request: FastifyRequest, clientId: string | undefined): string | undefined {
  const header = request.headers['idempotency-key'];
  const id = clientId ?? (typeof header === 'string' ? header : undefined);
  if (id !== undefined && !CLIENT_ID.test(id)) {
    throw new ApiError(422, 'invalid_arguments', 'Invalid Idempotency-Key', [
      { path: 'idempotency-key', code: 'pattern', message: 'must be 8 to 64 letters, digits, - or _', location: 'header' },
    ]);
  }
  return id;
}

/**
 * The visitor API under /widget/v1 (docs/widget.md): what a browser on an allowed origin may do with a visitor
 * token, and nothing else. CORS headers go only to origins some account allows; a request from an origin its
 * account does not allow is 403. Nothing here sets a cookie.
 */
export const visitorRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; events: EventHub }> = async (app, { deps, events }) => {
  const origins = new AllowedOrigins(deps.db);
  const sessionsPerAddress = new WindowLimiter(deps.config.widgetSessionsPerHour, 3_600_000, 'new visitor sessions from this address');
  const messagesPerVisitor = new WindowLimiter(deps.config.widgetMessagesPerMinute, 60_000, 'messages from this visitor');
  const typingPerVisitor = new WindowLimiter(TYPING_SIGNALS, TYPING_WINDOW_MS, 'typing signals from this visitor');
  const failures = app.tokenVerifier.failures;

  app.addHook('onRequest', async (request, reply) => {
    const origin = originOf(request);
    if (origin === undefined) return;
    reply.header('Vary', 'Origin');
    if (await origins.allowed(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id, Idempotent-Replayed');
    }
  });

  // Visitor tokens: looked up on every request (no cache, so a revoked one stops at once); failures count
  // against the client's address as an API token's do (src/auth/failures.ts).
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.visitor) return;
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const credential = token !== undefined ? `visitor:${token}` : 'visitor:none';
    failures.check(request.ip, credential);
    const visitor = token !== undefined ? await visitors.findVisitor(deps, token) : null;
    if (!visitor) {
      failures.failed(request.ip, credential);
      throw unauthorized(
        token !== undefined ? 'Unknown, expired or revoked visitor token' : 'Missing visitor token: send Authorization: Bearer <token>',
      );
    }
    const origin = originOf(request);
    if (origin !== undefined && !visitor.origins.includes(origin)) throw new ApiError(403, 'forbidden', `Origin ${origin} is not allowed`);
    request.visitor = visitor;
  });

  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    if (!reply.hasHeader('Access-Control-Allow-Origin')) {
      throw new ApiError(403, 'forbidden', `Origin ${originOf(request) ?? '(none)'} is not allowed to use the visitor API`);
    }
    return reply.code(204).headers(PREFLIGHT_HEADERS).send();
  });

  app.post(
    '/session',
    route({
      operationId: 'startVisitorSession',
      summary: 'Start or resume a visitor session',
      description:
        "From a page on one of the account's `widget_origins` (the `Origin` header; another is 403 `forbidden`): resumes the " +
        'session of `token` when it is still valid, else creates an anonymous contact (or, with a verified `identity`, ' +
        'attaches to the contact of that identity_id) and answers a new visitor token. 401 `invalid_identity`: a forged, expired ' +
        "or missing (when the account requires one) identity. 429: too many new sessions from the client's address.",
      tags,
      body: SessionBody,
      response: VisitorSession,
      errors: [401, 403],
    }),
    async (request) => visitors.startSession(deps, request.body, originOf(request), () => sessionsPerAddress.take(addressKey(request.ip))),
  );

  app.get(
    '/conversations',
    route({
      operationId: 'listVisitorConversations',
      summary: "List the visitor's conversations",
      description: "The visitor's own conversations, newest first (at most 100).",
      tags,
      visitor: true,
      response: VisitorConversationList,
    }),
    async (request) => visitors.listConversations(deps, visitorOf(request)),
  );

  app.post(
    '/conversations',
    route({
      operationId: 'startVisitorConversation',
      summary: 'Start a conversation',
      description:
        "Starts a conversation with the visitor's first message, as POST /v2/conversations with `text` does. With `client_id` " +
        '(or `Idempotency-Key`) a repeated start answers the first one (409 `idempotency_key_in_use` while it still runs for ' +
        'over 10 s). 429: too many messages from this visitor.',
      tags,
      visitor: true,
      body: StartConversationBody,
      headers: VisitorWriteHeaders,
      response: VisitorConversation,
      errors: [409],
    }),
    async (request) => {
      const visitor = visitorOf(request);
      const clientId = clientIdOf(request, request.body.client_id);
      messagesPerVisitor.take(visitor.contactId);
      return visitors.startConversation(deps, visitor, request.body, clientId);
    },
  );

  app.get(
    '/conversations/:id/messages',
    route({
      operationId: 'listVisitorMessages',
      summary: 'List the messages of a conversation',
      description:
        "The messages of one of the visitor's conversations (no internal notes or system records), newest first, `size` per " +
        "page: `{items, after, total}`; pass `after` back for the next page. Another visitor's conversation is 404.",
      tags,
      visitor: true,
      params: IdParams,
      querystring: PageQuery,
      response: VisitorMessagePage,
      errors: [404],
    }),
    async (request) => visitors.listMessages(deps, visitorOf(request), request.params.id, request.query.size, request.query.after),
  );

  app.post(
    '/conversations/:id/messages',
    route({
      operationId: 'sendVisitorMessage',
      summary: 'Send a message',
      description:
        "A contact message in one of the visitor's conversations: text, files sent with POST /widget/v1/uploads (`attachments`, " +
        'by their tokens; a refused file is 422 `invalid_attachment_data`), or both. With `client_id` (or `Idempotency-Key`) a ' +
        'repeated message answers the first one, stored once (409 `idempotency_key_in_use` while it still runs for over 10 s). ' +
        '429: too many messages from this visitor.',
      tags,
      visitor: true,
      params: IdParams,
      body: VisitorMessageBody,
      headers: VisitorWriteHeaders,
      response: VisitorMessage,
      errors: [404, 409],
    }),
    async (request) => {
      const visitor = visitorOf(request);
      const clientId = clientIdOf(request, request.body.client_id);
      messagesPerVisitor.take(visitor.contactId);
      return visitors.sendMessage(deps, visitor, request.params.id, request.body, clientId);
    },
  );

  // An upload reads its body itself (src/uploads/routes.ts), in a plugin of its own: the rest of the API here parses JSON.
  await app.register(visitorUploadRoutes, { deps, admit: (visitor) => messagesPerVisitor.take(visitor.contactId) });

  app.get(
    '/uploads/:id/content',
    route({
      operationId: 'downloadVisitorUpload',
      summary: 'Download a file of a conversation',
      description:
        "A file attached to a message of one of the visitor's conversations (its own or an agent's), served as GET " +
        '/v2/uploads/{id}/content serves it: the stored type (a type a browser could render or run as application/octet-stream), ' +
        'nosniff and a sandboxing Content-Security-Policy. Any other upload (not attached to a message the visitor can see) is 404.',
      tags,
      visitor: true,
      params: IdParams,
      response: UploadContent,
      errors: [404],
    }),
    async (request, reply) => sendUploadContent(reply, await visitors.visitorUploadContent(deps, visitorOf(request), request.params.id)),
  );

  app.post(
    '/conversations/:id/rating',
    route({
      operationId: 'rateVisitorConversation',
      summary: 'Rate a conversation',
      description: 'value 1, 3 or 5, with an optional comment; a new rating replaces the previous one.',
      tags,
      visitor: true,
      params: IdParams,
      body: RatingBody,
      response: VisitorConversation,
      errors: [404],
    }),
    async (request) => visitors.rateConversation(deps, visitorOf(request), request.params.id, request.body),
  );

  app.post(
    '/conversations/:id/typing',
    route({
      operationId: 'signalVisitorTyping',
      summary: 'Say the visitor is typing',
      description:
        "Records a `conversation.contact_typing` event (never a message) for the agents' streams. At most 2 per 5 s per " +
        'visitor (429 past them).',
      tags,
      visitor: true,
      params: IdParams,
      body: VisitorTypingBody,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      const visitor = visitorOf(request);
      typingPerVisitor.take(visitor.contactId);
      await visitors.signalTyping(deps, visitor, request.params.id, request.body.is_typing);
      return { ok: true as const };
    },
  );

  app.get(
    '/events',
    route({
      operationId: 'streamVisitorEvents',
      summary: "Live events of the visitor's conversations",
      description:
        "Server-Sent Events of the visitor's conversations as they commit (messages, opening, closing, rating; never notes or " +
        'agent-only changes). Reconnect with `Last-Event-ID` (or `?last_event_id=`) to resume exactly after that event. The ' +
        'stream follows the conversations the visitor had when it opened: after starting one, open a new stream with the last id seen.',
      tags,
      visitor: true,
      querystring: VisitorEventQuery,
      headers: EventStreamHeaders,
      response: VisitorEventStream,
      errors: [400],
    }),
    async (request, reply) => {
      const visitor = visitorOf(request);
      const afterId = await streamStart(deps, events, {
        lastEventIdHeader: request.headers['last-event-id'],
        lastEventIdQuery: request.query.last_event_id,
      });
      await sendEventStream(deps, events, request, reply, {
        filter: { accountId: visitor.accountId, conversationIds: await visitors.followedConversationIds(deps, visitor) },
        afterId,
        holder: { key: `visitor:${visitor.accountId}:${visitor.contactId}`, limit: STREAMS_PER_VISITOR, name: 'visitor' },
        present: visitorEventBody,
      });
    },
  );
};

/**
 * POST /widget/v1/uploads: a visitor's file, stored by the uploads service under POST /v2/uploads' rules (size,
 * type as sent, the account's quotas), refused at once when no attachment could carry it. `admit` takes the
 * visitor's write limit before a byte is read.
 */
const visitorUploadRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; admit: (visitor: Visitor) => void }> = async (app, { deps, admit }) => {
  const readUpload = await acceptUploads(app, deps);
  app.post(
    '/uploads',
    route({
      operationId: 'createVisitorUpload',
      summary: 'Upload a file',
      description:
        'As POST /v2/uploads: the file as the raw body with its Content-Type and `?file_name=`, or as multipart/form-data in a ' +
        "part named `file`; at most 20 MiB, within the account's upload quotas (413 or 429 `upload_quota_exceeded`). A name " +
        'whose extension no attachment may carry (docs/api.md, Extension allowlists) is 422 `invalid_attachment_data`, before the ' +
        'file is read. The token attaches it to a message of the visitor (`attachments`) for 24 hours. Counts as a message ' +
        'against the per-visitor limit (429).',
      tags,
      visitor: true,
      querystring: UploadQuery,
      documentedBody: UploadBodies,
      response: UploadResult,
      errors: [400, 413],
    }),
    async (request) => {
      const visitor = visitorOf(request);
      admit(visitor);
      const staged = await readUpload(request, request.query.file_name, (start, bytes) =>
        visitors.stageVisitorUpload(deps, visitor, start, bytes),
      );
      return completeUpload(deps, staged);
    },
  );
};

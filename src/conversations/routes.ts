import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse, exclusiveProperties } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import {
  AssignBody,
  Conversation,
  ConversationWithDetails,
  CreateConversationBody,
  FindQuery,
  GetConversationQuery,
  Message,
  MessagePage,
  NewMessageBody,
  NewPathBody,
  Path,
  PathPage,
  PageQuery,
  RatingBody,
  TypingBody,
  UnassignBody,
  UpdateConversationBody,
} from './schema.ts';
import * as conversations from './service.ts';

const tags = ['Conversations'];

export const conversationRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/conversations',
    route({
      operationId: 'createConversation',
      summary: 'Create a conversation',
      description:
        'With `text` and/or `html` (one contact message) or `messages` (imported history). Errors 422: `invalid_arguments`, ' +
        '`contact_not_found`, `agent_not_found`, `group_not_found`, `tag_not_found`, `no_contact_message`, `invalid_attachment_data`.',
      tags,
      scope: 'conversations:create',
      body: CreateConversationBody,
      documentedBody: { 'application/json': exclusiveProperties(CreateConversationBody, [['text', 'html'], ['messages']]) },
      response: Conversation,
    }),
    async (request) => conversations.createConversation(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/conversations/find',
    route({
      operationId: 'findConversationByExtId',
      description: "The conversation whose `ext_id` (the caller's own id for it, unique in the account) is the one given; none is 404.",
      summary: 'Find a conversation by ext_id',
      tags,
      scope: 'conversations:read',
      querystring: FindQuery,
      response: Conversation,
      errors: [404],
    }),
    async (request) => conversations.findConversationByExtId(deps, callerOf(request).accountId, request.query.ext_id),
  );

  app.get(
    '/conversations/:id',
    route({
      operationId: 'getConversation',
      summary: 'Get a conversation',
      description: 'Optionally with its last 200 messages and paths (oldest first) and its statistics.',
      tags,
      scope: 'conversations:read',
      params: IdParams,
      querystring: GetConversationQuery,
      response: ConversationWithDetails,
      errors: [404],
    }),
    async (request) => conversations.getConversation(deps, callerOf(request).accountId, request.params.id, request.query),
  );

  app.patch(
    '/conversations/:id',
    route({
      operationId: 'updateConversation',
      summary: 'Update a conversation',
      description: 'Any of group_id, tags, variables (replaced whole), ext_id.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: UpdateConversationBody,
      response: Conversation,
      errors: [404],
    }),
    async (request) => conversations.updateConversation(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.patch(
    '/conversations/:id/assign',
    route({
      operationId: 'assignAgent',
      summary: 'Assign an agent',
      description:
        'Assigning an agent already assigned changes nothing. 422 `agent_not_found`; 422 `invalid_parameters` on a closed conversation.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: AssignBody,
      response: Conversation,
      errors: [404],
    }),
    async (request) => conversations.assignAgent(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.patch(
    '/conversations/:id/unassign',
    route({
      operationId: 'unassignAgent',
      summary: 'Unassign an agent',
      description: '422 `agent_not_found`; 422 `invalid_parameters` when the agent is not assigned.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: UnassignBody,
      response: Conversation,
      errors: [404],
    }),
    async (request) => conversations.unassignAgent(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.patch(
    '/conversations/:id/close',
    route({
      operationId: 'closeConversation',
      summary: 'Close a conversation',
      description: 'Closing a closed conversation changes nothing.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await conversations.closeConversation(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/conversations/:id/typing',
    route({
      operationId: 'signalAgentTyping',
      summary: "Send an agent's typing signal",
      description:
        'Records a `conversation.agent_typing` event (for the event stream, webhooks and the visitor), not a message. 422 `agent_not_found`.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: TypingBody,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await conversations.signalAgentTyping(deps, callerOf(request).accountId, request.params.id, request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/conversations/:id/messages',
    route({
      operationId: 'listMessages',
      description:
        'Messages, notes and system event messages, newest first, `size` per page (1 to 200, default 50): `{items, after, total}`; pass `after` back for the next page, null on the last.',
      summary: 'List messages, newest first',
      tags,
      scope: 'conversations:read',
      params: IdParams,
      querystring: PageQuery,
      response: MessagePage,
      errors: [404],
    }),
    async (request) =>
      conversations.listMessages(deps, callerOf(request).accountId, request.params.id, request.query.size, request.query.after),
  );

  app.post(
    '/conversations/:id/messages',
    route({
      operationId: 'sendMessage',
      summary: 'Add a message',
      description:
        'As the contact, an agent (`agent_id` required) or a bot. `created_at` imports history: not in the future, not before the latest message.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: NewMessageBody,
      response: Message,
      errors: [404],
    }),
    async (request) => conversations.addMessage(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.get(
    '/conversations/:id/paths',
    route({
      operationId: 'listPaths',
      description:
        'The pages the contact visited, newest first, `size` per page (1 to 200, default 50): `{items, after, total}`; pass `after` back for the next page, null on the last.',
      summary: 'List paths, newest first',
      tags,
      scope: 'conversations:read',
      params: IdParams,
      querystring: PageQuery,
      response: PathPage,
      errors: [404],
    }),
    async (request) =>
      conversations.listPaths(deps, callerOf(request).accountId, request.params.id, request.query.size, request.query.after),
  );

  app.post(
    '/conversations/:id/paths',
    route({
      operationId: 'addPath',
      summary: 'Record a page the contact visited',
      description: "The first path's host becomes the conversation's `domain`.",
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: NewPathBody,
      response: Path,
      errors: [404],
    }),
    async (request) => conversations.addPath(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.post(
    '/conversations/:id/rating',
    route({
      operationId: 'rateConversation',
      summary: 'Rate a conversation',
      description: 'value 1, 3 or 5; a new rating replaces the previous one.',
      tags,
      scope: 'conversations:write',
      params: IdParams,
      body: RatingBody,
      response: Conversation,
      errors: [404],
    }),
    async (request) => conversations.rateConversation(deps, callerOf(request).accountId, request.params.id, request.body),
  );
};

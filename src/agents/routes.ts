import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { Agent, AgentList, CreateAgentBody, UpdateAgentBody } from './schema.ts';
import * as agents from './service.ts';

const tags = ['Agents'];

export const agentRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/agents',
    route({
      operationId: 'listAgents',
      description:
        'Every agent of the account (deleted ones excepted), with its status and presence (`is_connected`: a ping within PRESENCE_TTL_SECONDS).',
      summary: 'List agents',
      tags,
      scope: 'agents:read',
      response: AgentList,
    }),
    async (request) => ({ agents: await agents.listAgents(deps, callerOf(request).accountId) }),
  );

  app.post(
    '/agents',
    route({
      operationId: 'createAgent',
      summary: 'Add an agent',
      description:
        'Management. The agent starts offline and not connected. A used e-mail: 422 `invalid_arguments` (path `email`, code `unique`).',
      tags,
      scope: 'account:manage',
      body: CreateAgentBody,
      response: Agent,
    }),
    async (request) => agents.createAgent(deps, callerOf(request).accountId, request.body),
  );

  app.delete(
    '/agents/:id',
    route({
      operationId: 'deleteAgent',
      summary: 'Delete an agent',
      description: 'Management. The agent disappears from lists and lookups; messages and statistics keep its id.',
      tags,
      scope: 'account:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await agents.deleteAgent(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/agents/:id',
    route({
      operationId: 'getAgent',
      description: "The agent record; an unknown, deleted or other account's agent is 404.",
      summary: 'Get an agent',
      tags,
      scope: 'agents:read',
      params: IdParams,
      response: Agent,
      errors: [404],
    }),
    async (request) => agents.getAgent(deps, callerOf(request).accountId, request.params.id),
  );

  app.patch(
    '/agents/:id',
    route({
      operationId: 'updateAgent',
      description: "Sets the agent's `status` (`online` or `offline`), the only field accepted; a change records an `agent.updated` event.",
      summary: 'Update an agent status',
      tags,
      scope: 'agents:manage',
      params: IdParams,
      body: UpdateAgentBody,
      response: Agent,
      errors: [404],
    }),
    async (request) =>
      agents.updateAgent(deps, callerOf(request).accountId, request.params.id, request.body as { status?: Agent['status'] }),
  );

  app.post(
    '/agents/:id/ping',
    route({
      operationId: 'pingAgent',
      summary: 'Keep an agent connected',
      description: 'Marks the agent connected for PRESENCE_TTL_SECONDS (default 120).',
      tags,
      scope: 'agents:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await agents.pingAgent(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );
};

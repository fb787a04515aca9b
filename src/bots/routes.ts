import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/hook.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { Bot, BotList, BotTrigger, CreateBotBody } from './schema.ts';
import * as bots from './service.ts';

export const botRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/bots/:id/trigger',
    route({
      operationId: 'getBotTrigger',
      summary: 'Get the trigger of a bot',
      tags: ['Bots'],
      scope: 'bots:read',
      params: IdParams,
      response: BotTrigger,
      errors: [404],
    }),
    async (request) => bots.getTrigger(deps, callerOf(request).accountId, request.params.id),
  );

  app.post(
    '/bots',
    route({
      operationId: 'createBot',
      summary: 'Create a bot with its trigger',
      tags: ['Management'],
      scope: 'account:manage',
      body: CreateBotBody,
      response: Bot,
    }),
    async (request) => bots.createBot(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/bots',
    route({ operationId: 'listBots', summary: 'List bots', tags: ['Management'], scope: 'account:manage', response: BotList }),
    async (request) => ({ bots: await bots.listBots(deps, callerOf(request).accountId) }),
  );

  app.delete(
    '/bots/:id',
    route({
      operationId: 'deleteBot',
      summary: 'Delete a bot with its trigger',
      description: 'Messages the bot sent keep its id.',
      tags: ['Management'],
      scope: 'account:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await bots.deleteBot(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
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
      description:
        "The bot's trigger in the shape `POST /v2/bots` accepts back (`active`, `event`, `conditions`, `content`); `content.html` is null unless it was given.",
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
      description:
        'Management. A bot and its trigger; every trigger field is optional (active true, event `conversation_opened`, conditions `{}`). The message goes flat (`text`, `html`) or as `content: {text, html}`, not both (422 code `oneOf`); html is sanitised as in messages.',
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
    route({
      operationId: 'listBots',
      description: 'Management. Every bot of the account, without its trigger (`GET /v2/bots/{id}/trigger`).',
      summary: 'List bots',
      tags: ['Management'],
      scope: 'account:manage',
      response: BotList,
    }),
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

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/hook.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { CreateTagBody, Tag, TagList } from './schema.ts';
import * as tagService from './service.ts';

const tags = ['Management'];

export const tagRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/tags',
    route({ summary: 'Create a tag', tags, scope: 'account:manage', body: CreateTagBody, response: Tag }),
    async (request) => tagService.createTag(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/tags',
    route({ summary: 'List tags', tags, scope: 'account:manage', response: TagList }),
    async (request) => ({ tags: await tagService.listTags(deps, callerOf(request).accountId) }),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/hook.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { CreateGroupBody, Group, GroupList } from './schema.ts';
import * as groups from './service.ts';

const tags = ['Management'];

export const groupRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/groups',
    route({ summary: 'Create a group', tags, scope: 'account:manage', body: CreateGroupBody, response: Group }),
    async (request) => groups.createGroup(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/groups',
    route({ summary: 'List groups', tags, scope: 'account:manage', response: GroupList }),
    async (request) => ({ groups: await groups.listGroups(deps, callerOf(request).accountId) }),
  );
};

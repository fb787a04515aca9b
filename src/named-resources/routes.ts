import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { CreateNamedResourceBody, NamedResource, NamedResourceList } from './schema.ts';
import type { NamedResourceKind } from './kinds.ts';
import * as named from './service.ts';

const tags = ['Management'];

/**
 * POST, GET and DELETE for one kind (`/groups`, `/tags`), scope account:manage. The list
 * also takes statistics:read: a reporting token (the dashboard's) names its filters.
 */
export function namedResourceRoutes(kind: NamedResourceKind): FastifyPluginAsyncTypebox<{ deps: Deps }> {
  const path = `/${kind.plural}`;
  const [singular, plural] = [kind.singular, kind.plural].map((name) => name.charAt(0).toUpperCase() + name.slice(1));
  return async (app, { deps }) => {
    app.post(
      path,
      route({
        operationId: `create${singular}`,
        summary: `Create a ${kind.singular}`,
        description: kind.purpose,
        tags,
        scope: 'account:manage',
        body: CreateNamedResourceBody,
        response: NamedResource(kind),
      }),
      async (request) => named.createNamed(deps, kind, callerOf(request).accountId, request.body),
    );

    app.get(
      path,
      route({
        operationId: `list${plural}`,
        summary: `List ${kind.plural}`,
        description: `Scope account:manage or statistics:read (to name the ${kind.plural} statistics filter by).`,
        tags,
        scope: ['account:manage', 'statistics:read'],
        response: NamedResourceList(kind),
      }),
      async (request) => ({ [kind.plural]: await named.listNamed(deps, kind, callerOf(request).accountId) }),
    );

    app.delete(
      `${path}/:id`,
      route({
        operationId: `delete${singular}`,
        summary: `Delete a ${kind.singular}`,
        description: 'Records that name it keep its id; new references to it are refused as unknown.',
        tags,
        scope: 'account:manage',
        params: IdParams,
        response: OkResponse,
        errors: [404],
      }),
      async (request) => {
        await named.deleteNamed(deps, kind, callerOf(request).accountId, request.params.id);
        return { ok: true as const };
      },
    );
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { SearchBody, SearchPage } from './schema.ts';
import { searchConversations } from './service.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // A search may read many rows: the heavy lane, like statistics (bounded by HEAVY_QUERY_TIMEOUT_MS, yields to small work; on the read replica when there is one).
  const heavyDeps: Deps = { ...deps, db: deps.db.reads };

  app.post(
    '/conversations/search',
    route({
      operationId: 'searchConversations',
      summary: 'Search conversations',
      description:
        "Filters (all given must match) and full text over message text and the contact's name and e-mail, case and " +
        'diacritics ignored (`prilis` finds `příliš`). Newest change first by default; pages of `size` with an opaque ' +
        '`after` cursor bound to the body it came from (another body or account: 422 `invalid_arguments`, path `after`). ' +
        'With a `query`, each item has a plain-text `snippet` with the matched ranges.',
      tags: ['Conversations'],
      scope: 'conversations:read',
      body: SearchBody,
      response: SearchPage,
      errors: [503],
    }),
    async (request) => searchConversations(heavyDeps, callerOf(request).accountId, request.body),
  );
};

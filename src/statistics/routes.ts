import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { StatisticsBody, StatisticsQuery, StatisticsResponse } from './schema.ts';
import { computeStatistics } from './service.ts';

export const statisticsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Statistics queries yield to small requests and are bounded by HEAVY_QUERY_TIMEOUT_MS (503); on the read replica when there is one.
  const heavyDeps: Deps = { ...deps, db: deps.db.reads };
  app.post(
    '/statistics',
    route({
      operationId: 'getStatistics',
      summary: 'Compute statistics',
      description:
        'Each caller-named entry computes one metric over a time range, optionally filtered and split into ' +
        'up to 3 nested levels of terms or date buckets (at most 10,000 buckets per response). ' +
        'Medians are true medians computed in the database; local times and date buckets follow `timezone`.',
      tags: ['Statistics'],
      scope: 'statistics:read',
      querystring: StatisticsQuery,
      body: StatisticsBody,
      response: StatisticsResponse,
      errors: [503],
    }),
    async (request) => computeStatistics(heavyDeps, callerOf(request).accountId, request.query.timezone, request.body),
  );
};

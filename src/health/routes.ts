import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { route } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import type { Deps } from '../deps.ts';

const tags = ['Operations'];
const Health = Type.Object(
  { status: Type.Literal('ok', { description: 'Always `ok`; a failure answers with an error status instead' }) },
  { title: 'health' },
);

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/healthz',
    route({
      operationId: 'getLiveness',
      description: 'Answers 200 while the process runs, without touching the database: for a liveness probe. Not rate limited.',
      summary: 'The process is alive',
      tags,
      response: Health,
      rateLimited: false,
    }),
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    route({
      operationId: 'getReadiness',
      description:
        '200 when the database answers a ping (sent outside the queue of heavy statistics queries), 503 otherwise: for a readiness probe. Not rate limited.',
      summary: 'The database is reachable',
      tags,
      response: Health,
      errors: [503],
      rateLimited: false,
    }),
    async (request) => {
      try {
        // Not a query queued behind statistics: /readyz must answer while the database is busy.
        await deps.db.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw new ApiError(503, 'service_unavailable', 'The database is not reachable');
      }
      return { status: 'ok' as const };
    },
  );
};

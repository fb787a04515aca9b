import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { route } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import type { Deps } from '../deps.ts';
import { DatabaseSaturatedError, SATURATED_AFTER_MS } from '../db/db.ts';

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
      description: `200 when the database answers a ping (sent outside the queue of heavy statistics queries) and takes work; 503 when it does not answer, or when every connection has been busy for ${SATURATED_AFTER_MS / 1000} s without one coming free (new work would only queue): for a readiness probe. Not rate limited.`,
      summary: 'The database is reachable and takes work',
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
        if (error instanceof DatabaseSaturatedError)
          throw new ApiError(
            503,
            'service_unavailable',
            `The database takes no more work for now: every connection has been busy for over ${SATURATED_AFTER_MS / 1000} s`,
          );
        throw new ApiError(503, 'service_unavailable', 'The database is not reachable');
      }
      return { status: 'ok' as const };
    },
  );
};

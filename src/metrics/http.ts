import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import { sha256 } from '../ids.ts';
import { ApiError } from '../http/errors.ts';
import { sendError } from '../http/error-handler.ts';
import type { Metrics } from './metrics.ts';

/** Requests that matched no route share one label, so scanners cannot grow the series without bound. */
const UNMATCHED_ROUTE = 'unmatched';

/** Times every request by its route pattern (not its URL) and counts the rate limits' refusals. */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    metrics.httpRequestDuration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    // Only the rate limits answer 429: requests per token or address (src/app.ts), failed authentications (src/auth/failures.ts).
    if (status === 429) metrics.rateLimitRejections.inc({ route });
  });
}

/**
 * Where GET /metrics is served (docs/operations.md "Metrics"): on a port of its own
 * when METRICS_PORT is set, else on the API port when METRICS_TOKEN is set, else
 * nowhere, as the numbers tell outsiders about every account's traffic.
 */
export function metricsOnApiPort(config: Pick<Config, 'metricsPort' | 'metricsToken'>): boolean {
  return config.metricsPort === undefined && config.metricsToken !== undefined;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  // Equal-length digests, so the comparison takes the same time whatever was sent.
  return sent !== undefined && timingSafeEqual(Buffer.from(sha256(sent)), Buffer.from(sha256(token)));
}

/** GET /metrics in the Prometheus text format, behind METRICS_TOKEN when it is set. */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string | undefined }> = async (app, { metrics, token }) => {
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      return sendError(
        reply,
        new ApiError(401, 'unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN>', undefined, {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        }),
      );
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
};

/** The listener of METRICS_PORT: GET /metrics only, on HOST. */
export async function startMetricsServer(
  metrics: Metrics,
  config: Pick<Config, 'host' | 'metricsPort' | 'metricsToken'>,
): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  await server.register(metricsRoutes, { metrics, token: config.metricsToken });
  // Any other path gets the API's error body (error_payload), not Fastify's own.
  server.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, 'not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`)),
  );
  await server.listen({ host: config.host, port: config.metricsPort });
  return server;
}

import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { ERROR_PAYLOAD } from '../http/error-handler.ts';
import type { Family } from '../http/pipeline.ts';
import type { AuthFailureLimiter } from '../auth/failures.ts';
import { AllowedOrigins } from './cors.ts';
import { findVisitor, type Visitor } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every visitor route (config.visitor) by the visitor family's authenticate step. */
    visitor?: Visitor;
  }
}

const unauthorized = (message: string) =>
  new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="chat-service-visitor"' });

export const originOf = (request: FastifyRequest) => (typeof request.headers.origin === 'string' ? request.headers.origin : undefined);

/** The visitor of a route with config.visitor (its authenticate step guarantees it is set). */
export function visitorOf(request: FastifyRequest): Visitor {
  if (!request.visitor) throw new Error('visitorOf() used on a route without config.visitor');
  return request.visitor;
}

/**
 * The visitor API under /widget/v1 (docs/widget.md; src/http/pipeline.ts): CORS headers on every answer, refusals
 * included, for origins some account allows; a visitor token on the routes that take one (`route({visitor: true})`),
 * never an API token; the rate limit per client address (visitors are anonymous); no Idempotency-Key (a visitor's
 * writes are made idempotent by their `client_id`, src/visitors/service.ts); errors as error_payload.
 */
export function visitorFamily(deps: Deps, failures: AuthFailureLimiter): Family {
  const origins = new AllowedOrigins(deps.db);
  return {
    name: 'visitor',
    credential: 'headers',
    async answerHeaders(request, reply) {
      const origin = originOf(request);
      if (origin === undefined) return;
      reply.header('Vary', 'Origin');
      if (await origins.allowed(origin)) {
        reply.header('Access-Control-Allow-Origin', origin);
        reply.header('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id, Idempotent-Replayed');
      }
    },
    // Visitor tokens: looked up on every request (no cache, so a revoked one stops at once); failures count
    // against the client's address as an API token's do (src/auth/failures.ts).
    async authenticate(request) {
      if (!request.routeOptions.config.visitor) return;
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      const credential = token !== undefined ? `visitor:${token}` : 'visitor:none';
      failures.check(request.ip, credential);
      const visitor = token !== undefined ? await findVisitor(deps, token) : null;
      if (!visitor) {
        failures.failed(request.ip, credential);
        throw unauthorized(
          token !== undefined ? 'Unknown, expired or revoked visitor token' : 'Missing visitor token: send Authorization: Bearer <token>',
        );
      }
      const origin = originOf(request);
      if (origin !== undefined && !visitor.origins.includes(origin))
        throw new ApiError(403, 'forbidden', `Origin ${origin} is not allowed`);
      request.visitor = visitor;
    },
    limitKey: (request) => `ip:${request.ip}`,
    errors: ERROR_PAYLOAD,
  };
}

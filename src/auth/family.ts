import { ApiError } from '../http/errors.ts';
import { ERROR_PAYLOAD } from '../http/error-handler.ts';
import type { Family } from '../http/pipeline.ts';
import { actingFor } from '../db/replica.ts';
import type { Caller, TokenVerifier } from './tokens.ts';
import type { Scope } from './scopes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every route that declares a scope; absent on public routes. */
    caller?: Caller;
  }
  interface FastifyInstance {
    /** The app's one verifier, so revoking a token can drop it from the cache at once. */
    tokenVerifier: TokenVerifier;
  }
}

/** What the failure limiter counts a missing or malformed Authorization header as (no credential ever "works"). */
export const NO_CREDENTIAL = 'no-credential';

const unauthorized = (message: string) =>
  new ApiError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="chat-service"' });

/**
 * The caller of an `Authorization` header holding a bearer token with at least one
 * of `scopes`, sent from `ip`: 401 for a missing, malformed, unknown or revoked token,
 * 403 when it lacks every one of the scopes, 429 when `ip` has failed too often
 * (docs/behaviour.md §1; each 401 is a failure counted).
 */
export async function authenticateBearer(
  verifier: TokenVerifier,
  header: string | undefined,
  ip: string,
  scopes: readonly Scope[],
): Promise<Caller> {
  const token = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  if (token === undefined) {
    // No lookup to pay for, but a failure all the same: a client sending none, again and again, is limited too.
    verifier.failures.check(ip, NO_CREDENTIAL);
    verifier.failures.failed(ip, NO_CREDENTIAL);
    throw unauthorized(
      header ? 'Malformed Authorization header: expected Bearer <token>' : 'Missing bearer token: send Authorization: Bearer <token>',
    );
  }
  const caller = await verifier.verify(token, ip);
  if (!caller) throw unauthorized('Unknown or revoked token');
  if (!scopes.some((scope) => caller.scopes.has(scope))) throw new ApiError(403, 'forbidden', `Missing scope ${scopes.join(' or ')}`);
  return caller;
}

/**
 * The API under /v2 (src/http/pipeline.ts): a bearer token with one of the route's scopes, checked as the request
 * arrives, before its body is read or validated (docs/behaviour.md §1: a bad body from an unauthenticated caller gets
 * 401, not 422); the rate limit per verified token, however `Bearer` is spelt; Idempotency-Key on every
 * authenticated POST; errors as error_payload.
 */
export function apiFamily(verifier: TokenVerifier): Family {
  return {
    name: 'api',
    credential: 'headers',
    async authenticate(request) {
      const scopes = request.routeOptions.config.scopes;
      if (!scopes) return;
      request.caller = await authenticateBearer(verifier, request.headers.authorization, request.ip, scopes);
      actingFor(request.caller.accountId);
    },
    limitKey: (request) => (request.caller ? `t:${request.caller.tokenId}` : `ip:${request.ip}`),
    idempotencyKeys: true,
    errors: ERROR_PAYLOAD,
  };
}

/** The authenticated caller of a scoped route (the pipeline's authenticate step guarantees it is set). */
export function callerOf(request: { caller?: Caller }): Caller {
  if (!request.caller) throw new Error('callerOf() used on a route without a scope');
  return request.caller;
}

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.ts';
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
const NO_CREDENTIAL = 'no-credential';

/** Whether a request announces a body (Content-Length above 0, or chunked). */
function hasBody(headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

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
 * Authenticates before the body is parsed or validated (docs/behaviour.md §1): a bad body
 * from an unauthenticated caller gets 401, not 422.
 */
export function installAuth(app: FastifyInstance, verifier: TokenVerifier) {
  app.decorate('tokenVerifier', verifier);
  app.addHook('onRequest', async (request, reply) => {
    const scopes = request.routeOptions.config.scopes;
    if (!scopes) return;
    try {
      request.caller = await authenticateBearer(verifier, request.headers.authorization, request.ip, scopes);
      actingFor(request.caller.accountId);
    } catch (error) {
      // The body of a request refused here is never read: the connection closes after the answer instead of
      // waiting, up to REQUEST_TIMEOUT_MS, for a body an unauthenticated client may drip (docs/operations.md#slow-clients).
      if (error instanceof ApiError && hasBody(request.headers)) reply.header('Connection', 'close');
      throw error;
    }
  });
}

/** The authenticated caller of a scoped route (the hook guarantees it is set). */
export function callerOf(request: { caller?: Caller }): Caller {
  if (!request.caller) throw new Error('callerOf() used on a route without a scope');
  return request.caller;
}

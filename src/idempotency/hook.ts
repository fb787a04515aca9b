import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import {
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  IDEMPOTENCY_RENEW_SECONDS,
  checkKey,
  claimKey,
  renewHeldKeys,
  requestHash,
  settleKey,
  type HeldKey,
  type StoredAnswer,
} from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Renews the keys of this instance's running requests now (done every IDEMPOTENCY_RENEW_SECONDS); tests call it. */
    renewIdempotencyKeys(): Promise<number>;
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request holds; its answer is stored when sent. */
    idempotencyKey?: HeldKey;
    /** The keys this app instance's running requests hold, renewed until their answers are stored. */
    idempotencyKeysHeld?: Set<HeldKey>;
  }
  interface FastifyContextConfig {
    /**
     * The route claims the key itself, with claimIdempotencyKey(), once it has
     * read its body (a multipart upload is read in the handler, after preHandler).
     */
    idempotencyInHandler?: boolean;
  }
}

const HEADER = 'idempotency-key';

/**
 * Claims the request's Idempotency-Key, if it sent one on an authenticated POST
 * (docs/behaviour.md §11), hashing `body` with the token, the method, path and query. Returns
 * the stored answer to send again instead of running the request, or null: run it
 * (its answer is then stored by the onSend hook of installIdempotency).
 */
export async function claimIdempotencyKey(deps: Deps, request: FastifyRequest, body: unknown): Promise<StoredAnswer | null> {
  const raw = request.headers[HEADER];
  if (request.method !== 'POST' || raw === undefined || !request.caller) return null;
  const key = checkKey(Array.isArray(raw) ? raw.join(', ') : raw);
  const { accountId, tokenId } = request.caller;
  const claim = await claimKey(deps, accountId, key, requestHash(tokenId, request.method, request.url, body));
  if ('replay' in claim) return claim.replay;
  request.idempotencyKey = claim.held;
  request.idempotencyKeysHeld?.add(claim.held);
  return null;
}

/** Sends a stored answer again, marked as a replay (the header Stripe uses). */
export function sendStoredAnswer(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.code(answer.status).header('Idempotent-Replayed', 'true');
  if (answer.contentType) reply.header('Content-Type', answer.contentType);
  return reply.send(answer.body);
}

/**
 * Idempotency keys on every authenticated POST: the key is claimed after
 * authentication and validation (a request refused there never takes it), and
 * the answer stored as it is sent, 5xx answers excepted.
 */
export function installIdempotency(app: FastifyInstance, deps: Deps): void {
  // The OpenAPI document shows the header and the 409 on each operation that takes them; checkKey() checks the key.
  app.addHook('onRoute', (routeOptions) => {
    if (routeOptions.method !== 'POST' || !routeOptions.config?.scopes || !routeOptions.schema) return;
    routeOptions.schema.headers = {
      type: 'object',
      properties: {
        [HEADER]: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
          pattern: IDEMPOTENCY_KEY_PATTERN,
          description:
            'Up to 255 visible ASCII characters: the same request again with this key within 24 hours gets the first answer (docs/api.md#idempotency-keys)',
        },
      },
    };
    routeOptions.schema.response = {
      ...(routeOptions.schema.response as object),
      409: {
        description: 'A request with this Idempotency-Key is still running (`idempotency_key_in_use`)',
        content: { 'application/json': { schema: { $ref: 'error_payload#' } } },
      },
    };
  });

  const held = new Set<HeldKey>();
  let renewing: Promise<number> | undefined;
  const renew = (): Promise<number> => {
    if (renewing) return renewing;
    const pass = renewHeldKeys(deps, held).finally(() => (renewing = undefined));
    renewing = pass;
    return pass;
  };
  app.addHook('onRequest', async (request) => {
    request.idempotencyKeysHeld = held;
  });
  app.decorate('renewIdempotencyKeys', renew);
  const timer = setInterval(
    () =>
      void renew().catch((error) => {
        // The next renewal retries; a key is lost only after IDEMPOTENCY_LOCK_SECONDS without one.
        app.log.warn({ err: error }, 'idempotency: renewing held keys failed');
      }),
    IDEMPOTENCY_RENEW_SECONDS * 1000,
  );
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  // A request that ends without sending (its client gone, a hijacked reply) stops renewing too.
  app.addHook('onResponse', async (request) => {
    if (request.idempotencyKey) held.delete(request.idempotencyKey);
  });
  app.addHook('onRequestAbort', async (request) => {
    if (request.idempotencyKey) held.delete(request.idempotencyKey);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.config.idempotencyInHandler) return;
    const stored = await claimIdempotencyKey(deps, request, request.body);
    if (stored) return sendStoredAnswer(reply, stored);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = undefined;
    held.delete(key);
    const contentType = reply.getHeader('content-type');
    try {
      await settleKey(deps, key, {
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
      });
    } catch (error) {
      // The answer still goes out; the key stays locked until its lock runs out, then a retry runs again.
      // The key itself is never logged: with IDEMPOTENCY_SECRET it would decrypt the answer.
      request.log.error({ err: error }, 'idempotency: storing the answer failed');
    }
    return payload;
  });
}

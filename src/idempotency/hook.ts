import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Deps } from '../deps.ts';
import {
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  IDEMPOTENCY_RENEW_SECONDS,
  checkKey,
  claimKey,
  releaseKey,
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
  }
}

const HEADER = 'idempotency-key';

/**
 * The claim and settle steps of the request pipeline (src/http/pipeline.ts) for the families whose POSTs take an
 * Idempotency-Key (docs/behaviour.md §11).
 */
export interface IdempotencyKeys {
  /**
   * Claims the request's Idempotency-Key, if it sent one on an authenticated POST, hashing the body `body()` gives
   * (asked only then: most requests send no key) with the token, the method, path and query. Returns the stored
   * answer to send again instead of running the request, or null: run it (its answer is then stored by settle()).
   */
  claim(request: FastifyRequest, body: () => unknown): Promise<StoredAnswer | null>;
  /**
   * Stores the answer being sent under the request's key (a 5xx frees it instead), or, when the request never
   * reached its handler (`ran` false: refused by validation after the claim), frees the key and stores nothing, so
   * that the corrected request can use it.
   */
  settle(request: FastifyRequest, reply: FastifyReply, payload: unknown, ran: boolean): Promise<void>;
}

/** Sends a stored answer again, marked as a replay (the header Stripe uses). */
export function sendStoredAnswer(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.code(answer.status).header('Idempotent-Replayed', 'true');
  if (answer.contentType) reply.header('Content-Type', answer.contentType);
  return reply.send(answer.body);
}

/** The OpenAPI document shows the header and the 409 on each operation that takes them; checkKey() checks the key. */
export function describeIdempotencyKey(routeOptions: RouteOptions): void {
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
}

/**
 * Idempotency keys for `app`: the keys its running requests hold are renewed every IDEMPOTENCY_RENEW_SECONDS
 * until their answers are stored. The pipeline calls claim() after authentication and the rate limit, before
 * validation, and settle() as the answer is sent.
 */
export function installIdempotencyKeys(app: FastifyInstance, deps: Deps): IdempotencyKeys {
  const held = new Set<HeldKey>();
  let renewing: Promise<number> | undefined;
  const renew = (): Promise<number> => {
    if (renewing) return renewing;
    const pass = renewHeldKeys(deps, held).finally(() => (renewing = undefined));
    renewing = pass;
    return pass;
  };
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
  // Requests holding a key until settle() has stored their answer or freed the key, whether their connection is still
  // open or not. The server's close waits for open connections only: a request whose connection closed while it ran
  // (the proxy gave up on it and sent the POST to another instance) still runs, and a graceful stop closes the database
  // after close() (src/server.ts). Closing waits for these too, so that such a key is not left held, answering every
  // retry 409 idempotency_key_in_use until its lock runs out, as only a killed instance's are (docs/api.md).
  const unsettled = new Set<FastifyRequest>();
  let allSettled: (() => void) | undefined;
  app.addHook('onClose', async () => {
    if (unsettled.size > 0) await new Promise<void>((resolve) => (allSettled = resolve));
    clearInterval(timer);
  });
  // A request that ends without sending (its client gone, a hijacked reply) stops renewing too.
  app.addHook('onResponse', async (request) => {
    if (request.idempotencyKey) held.delete(request.idempotencyKey);
  });
  app.addHook('onRequestAbort', async (request) => {
    if (request.idempotencyKey) held.delete(request.idempotencyKey);
  });

  return {
    async claim(request, body) {
      const raw = request.headers[HEADER];
      if (request.method !== 'POST' || raw === undefined || !request.caller) return null;
      const key = checkKey(Array.isArray(raw) ? raw.join(', ') : raw);
      const { accountId, tokenId } = request.caller;
      const claim = await claimKey(deps, accountId, key, requestHash(tokenId, request.method, request.url, body()));
      if ('replay' in claim) return claim.replay;
      request.idempotencyKey = claim.held;
      held.add(claim.held);
      unsettled.add(request);
      return null;
    },

    async settle(request, reply, payload, ran) {
      const key = request.idempotencyKey;
      if (!key) return;
      request.idempotencyKey = undefined;
      held.delete(key);
      const contentType = reply.getHeader('content-type');
      try {
        if (!ran) await releaseKey(deps, key);
        else {
          await settleKey(deps, key, {
            status: reply.statusCode,
            contentType: typeof contentType === 'string' ? contentType : null,
            body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
          });
        }
      } catch (error) {
        // The answer still goes out; the key stays locked until its lock runs out, then a retry runs again.
        // The key itself is never logged: with IDEMPOTENCY_SECRET it would decrypt the answer.
        request.log.error({ err: error }, 'idempotency: storing the answer failed');
      } finally {
        unsettled.delete(request);
        if (unsettled.size === 0) allSettled?.();
      }
    },
  };
}

/**
 * The request pipeline: the one order of steps every request goes through, whatever its route family
 * (docs/DEVELOPING.md "The request pipeline"):
 *
 *   authenticate → limit → claim → validate → handle → settle
 *
 * - authenticate: the family's credential checked (401, 403; 429 past the failed authentications); who calls is set.
 * - limit: the rate limit, keyed as the family says (the verified token; the client address).
 * - claim: the Idempotency-Key taken (families that have them), on the body as read: a body the route reads itself
 *   (an upload's file) is read just before, so the claim covers it.
 * - validate: the family's own checks, a body sent to a bodyless operation, input the database cannot store, then
 *   the route's schema (Fastify validates right after this module's preValidation hook).
 * - handle: the route's handler.
 * - settle: the answer stored under the claimed key; a request refused before its handler frees the key instead, and
 *   what reading its body stored is discarded.
 *
 * A family (Family below) declares how its requests authenticate, how its rate limit is keyed, whether its POSTs take
 * an Idempotency-Key, its own checks and its error format; the one error handler answers every failure, at any
 * step, in the format of the request's family. Routes join a family by being registered through serveFamily().
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Deps } from '../deps.ts';
import { ApiError } from './errors.ts';
import { bodyErrors, ERROR_PAYLOAD, type ErrorFormat } from './error-handler.ts';
import { invalidArgumentsError, MAX_NESTING, nestedDeeperThan, unstorableInputErrors } from './validation.ts';
import { describeIdempotencyKey, installIdempotencyKeys, sendStoredAnswer } from '../idempotency/hook.ts';

/** The steps, in their order. */
export const STEPS = ['authenticate', 'limit', 'claim', 'validate', 'handle', 'settle'] as const;
export type Step = (typeof STEPS)[number];

/** A route family: the routes that authenticate the same way and answer errors in one format. */
export interface Family {
  readonly name: 'api' | 'visitor' | 'legacy' | 'public';
  /**
   * Where the credential is read: `headers` (a bearer or visitor token) is checked as the request arrives, before
   * its body is read; `parameters` (the legacy apiKey, which a POST may send in its body) once the body is parsed.
   * The steps keep their order either way.
   */
  readonly credential: 'headers' | 'parameters';
  /** Headers every answer of the family carries, refusals included (the visitor API's CORS): set before any step. */
  answerHeaders?(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Body parsers of the family's own, besides JSON (the legacy export's forms); registered for its routes only. */
  contentTypes?(scope: FastifyInstance): Promise<void>;
  /** Checks the route's credential and sets who calls (request.caller, request.visitor, request.legacyAccount); throws to refuse. */
  authenticate?(request: FastifyRequest): Promise<void>;
  /** The rate limit's bucket of an authenticated request. */
  limitKey(request: FastifyRequest): string;
  /** Its POSTs take an Idempotency-Key (docs/api.md#idempotency-keys). */
  readonly idempotencyKeys?: true;
  /** Checks of its own on the input, before any other (the legacy export merges query and body, dropping what it does not read). */
  validate?(request: FastifyRequest): void;
  readonly errors: ErrorFormat;
}

/** Routes anyone may call: health checks, the reference page and document, the static pages and the widget script. */
export const PUBLIC: Family = {
  name: 'public',
  credential: 'headers',
  limitKey: (request) => `ip:${request.ip}`,
  errors: ERROR_PAYLOAD,
};

/** A body a route reads itself, as the pipeline read it (an upload's file, stored as it arrived). */
export interface ReadBody<T = unknown> {
  /** What the handler takes (bodyOf()). */
  value: T;
  /** What the Idempotency-Key is claimed on: the body as two requests are compared. */
  hashed: unknown;
  /** Frees what reading stored, for a request that did not reach its handler (replayed, refused). */
  discard(): Promise<void>;
}

/** How a route reads its own body (config.readsBody): the pipeline calls it just before the claim. */
export interface BodyReader<T = unknown> {
  read(request: FastifyRequest): Promise<ReadBody<T>>;
  /** What a refusal of the body by its parsers (size, content type) answers on this route, when not the default. */
  refused?(error: FastifyError): ApiError | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's family (serveFamily); a route outside every family is public. */
    family?: Family;
    /** The route reads its body itself (a file): the pipeline reads it before the claim. */
    readsBody?: BodyReader;
  }
  interface FastifyRequest {
    /** The step the request has reached. */
    step?: Step;
    /** The body the pipeline read with the route's readsBody. */
    readBody?: ReadBody;
  }
}

/** The body the pipeline read for this request's handler (a route with config.readsBody); the handler then owns it. */
export function bodyOf<T>(request: FastifyRequest): T {
  if (!request.readBody) throw new Error('bodyOf() used on a route without config.readsBody');
  return request.readBody.value as T;
}

const familyOf = (request: FastifyRequest): Family => request.routeOptions.config.family ?? PUBLIC;

/** Whether a request announces a body (Content-Length above 0, or chunked). */
function hasBody(headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/**
 * Registers the routes `register` adds in `family` (under `prefix`): the pipeline then runs the family's steps for
 * them, and the OpenAPI document shows what the family gives each (the Idempotency-Key header).
 */
export async function serveFamily(
  app: FastifyInstance,
  family: Family,
  options: { prefix?: string },
  register: (scope: FastifyInstance) => PromiseLike<unknown>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (routeOptions) => {
      routeOptions.config = { ...routeOptions.config, family };
      if (family.idempotencyKeys) describeIdempotencyKey(routeOptions);
    });
    await family.contentTypes?.(scope);
    await register(scope);
  }, options);
}

/**
 * The body the Idempotency-Key is claimed on: as the route's schema reads it, its defaults filled in (a field left out
 * and the same field sent with its default value are one request), on a copy, the schema's verdict being the
 * validate step's. A body nested past what validation allows is taken as sent (validation refuses it).
 */
function claimedBody(request: FastifyRequest): unknown {
  if (request.readBody) return request.readBody.hashed;
  const body = request.body;
  const schema = request.getValidationFunction('body');
  if (!schema || body === null || typeof body !== 'object' || nestedDeeperThan(body, MAX_NESTING)) return body;
  const copy = structuredClone(body);
  schema(copy);
  return copy;
}

/** The validate step's checks before the route's schema; Fastify runs the schema's right after. */
function validateInput(family: Family, request: FastifyRequest): void {
  // The family's own checks first: they keep only the input the operation reads (the legacy export drops the
  // parameters it does not know), which is all the checks below may refuse.
  family.validate?.(request);
  if (request.routeOptions.config.bodyless) {
    const refused = bodyErrors(request.body);
    if (refused.length > 0) throw invalidArgumentsError(refused);
  }
  // Input the database cannot store is a 422 here, not a 500 from SQL later. An operation that takes no query
  // parameters ignores its query string, whatever it holds (such operations, /healthz among them, declare no 422).
  const errors = [
    ...unstorableInputErrors(request.params, 'path'),
    ...(request.routeOptions.schema?.querystring ? unstorableInputErrors(request.query, 'query') : []),
    ...unstorableInputErrors(request.body, 'body'),
  ];
  if (errors.length > 0) throw invalidArgumentsError(errors);
}

/** Discards the body read for a request that did not reach its handler. */
async function discardUnhandled(request: FastifyRequest): Promise<void> {
  const read = request.readBody;
  if (!read || request.step === 'handle' || request.step === 'settle') return;
  request.readBody = undefined;
  await read.discard().catch((error) => request.log.warn({ err: error }, 'discarding a request body failed'));
}

/** Installs the pipeline on `app`: its hooks run the steps for every route, and its error handler answers every failure. */
export async function installPipeline(app: FastifyInstance, deps: Deps): Promise<void> {
  // The limit step's counter: a fixed window holding one burst, on average RATE_LIMIT_PER_SECOND, bursts up to
  // RATE_LIMIT_BURST, per key of the request's family. Called by the step below, after authentication, so the key
  // can be the verified caller (global: false: the plugin adds no hook of its own).
  await app.register(rateLimit, {
    global: false,
    max: deps.config.rateLimitBurst,
    timeWindow: Math.ceil((deps.config.rateLimitBurst / deps.config.rateLimitPerSecond) * 1000),
    keyGenerator: (request) => familyOf(request).limitKey(request),
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'too_many_requests', `Rate limit exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`, undefined, {
        'Retry-After': String(Math.ceil(context.ttl / 1000)),
      }),
  });
  const limit = app.rateLimit();
  const keys = installIdempotencyKeys(app, deps);

  async function authenticateAndLimit(family: Family, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      request.step = 'authenticate';
      await family.authenticate?.(request);
      request.step = 'limit';
      // Health checks are never limited (route({rateLimited: false})); nor is an unknown route's 404.
      if (request.routeOptions.config.rateLimit !== false && !request.is404) await limit.call(app, request, reply);
    } catch (error) {
      // The body of a request refused before it was read is never read: the connection closes after the answer
      // instead of waiting, up to REQUEST_TIMEOUT_MS, for a body an unauthenticated client may drip
      // (docs/operations.md#slow-clients).
      if (family.credential === 'headers' && error instanceof ApiError && hasBody(request.headers)) reply.header('Connection', 'close');
      throw error;
    }
  }

  app.addHook('onRequest', async (request, reply) => {
    const family = familyOf(request);
    await family.answerHeaders?.(request, reply);
    if (family.credential === 'headers') await authenticateAndLimit(family, request, reply);
  });

  app.addHook('preValidation', async (request, reply) => {
    const family = familyOf(request);
    if (family.credential === 'parameters') await authenticateAndLimit(family, request, reply);
    const reader = request.routeOptions.config.readsBody;
    if (reader) request.readBody = await reader.read(request);
    request.step = 'claim';
    if (family.idempotencyKeys) {
      const stored = await keys.claim(request, () => claimedBody(request));
      if (stored) return sendStoredAnswer(reply, stored);
    }
    request.step = 'validate';
    validateInput(family, request);
  });

  app.addHook('preHandler', async (request) => {
    request.step = 'handle';
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const ran = request.step === 'handle';
    await discardUnhandled(request);
    request.step = 'settle';
    await keys.settle(request, reply, payload, ran);
    return payload;
  });
  app.addHook('onRequestAbort', async (request) => discardUnhandled(request));

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { errors } = familyOf(request);
    const reader = request.routeOptions.config.readsBody;
    // A body the route reads itself, refused before it was whole: the rest is not read, the connection closes after the answer.
    if (reader && !request.raw.complete) reply.header('Connection', 'close');
    const apiError = reader?.refused?.(error) ?? errors.toApiError(error);
    // Unexpected: the detail goes to the log only (docs/behaviour.md §2).
    if (!apiError || apiError.status >= 500) request.log.error({ err: error }, apiError ? 'request failed' : 'unexpected error');
    return apiError ? errors.send(reply, apiError) : errors.sendInternal(reply, request.id);
  });
}

import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import formbody from '@fastify/formbody';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { INTERNAL_ERROR_MESSAGE, toApiError, type ErrorFormat } from '../http/error-handler.ts';
import { formatValidationErrors } from '../http/validation.ts';
import type { Family } from '../http/pipeline.ts';
import { authenticateBearer, NO_CREDENTIAL } from '../auth/family.ts';
import type { TokenVerifier } from '../auth/tokens.ts';
import { sha256 } from '../ids.ts';
import { actingFor } from '../db/replica.ts';
import * as stats from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of the legacy export's apiKey; set by the legacy family's authenticate step on /stats routes. */
    legacyAccount: stats.LegacyAccount | null;
  }
}

export const LEGACY_BEARER_SCOPES = ['statistics:read'] as const;

const PARAMETER_RULES: Record<string, string> = {
  from: 'must be a date in the form YYYY-MM-DD',
  to: 'must be a date in the form YYYY-MM-DD',
  interval: 'must be one of: day, week, month',
  group: 'must be a single string',
  apiKey: 'must be a single string',
};

/** A schema failure as the legacy 400, naming the first parameter at fault (unknown ones were dropped before). */
function invalidParameters(error: FastifyError): ApiError {
  const [first] = formatValidationErrors(error.validation as never, 'query');
  if (!first || first.path === '') return stats.invalidParameter('parameters', 'must be an object of named parameters');
  return stats.invalidParameter(first.path, PARAMETER_RULES[first.path] ?? first.message);
}

const MEDIA_TYPE_MESSAGE = 'Unsupported content type; send application/x-www-form-urlencoded or application/json';

/**
 * The service-wide check for text the database cannot store (src/http/pipeline.ts) answers 422
 * invalid_arguments; on these routes a parameter holding a NUL is a bad parameter like any other:
 * 400 invalid_parameters, naming it (docs/behaviour.md §7).
 */
function asBadParameter(error: ApiError | undefined): ApiError | undefined {
  const [first] = error?.code === 'invalid_arguments' ? (error.errors ?? []) : [];
  return first ? new ApiError(400, 'invalid_parameters', first.message) : error;
}

/** The legacy error body, `{success:false, error:{code, message}}`, for every failure on these routes. */
export const LEGACY_ERROR_FORMAT: ErrorFormat = {
  toApiError: (error) =>
    (error as FastifyError).validation ? invalidParameters(error as FastifyError) : asBadParameter(toApiError(error)),
  send(reply, error) {
    if (error.headers) reply.headers(error.headers);
    const message = error.status === 415 ? MEDIA_TYPE_MESSAGE : error.message;
    return reply.code(error.status).send({ success: false, error: { code: error.code, message } });
  },
  sendInternal: (reply, requestId) =>
    reply.code(500).send({ success: false, error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, request_id: requestId } }),
};

const isParameterObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Legacy clients send parameters as a query string, a form or JSON, and often send
 * unset ones empty: merge them (the body wins) and drop empty values, so both
 * methods validate the same parameters. Parameters the operation does not know are
 * dropped too: integrations send one parameter set to all three paths (`interval`
 * on totals) or add cache-busting ones, and must keep working.
 */
function collectParameters(request: FastifyRequest): Record<string, unknown> {
  const known = knownParameters(request);
  const merged = { ...(request.query as object), ...(isParameterObject(request.body) ? request.body : {}) };
  return Object.fromEntries(Object.entries(merged).filter(([name, value]) => known.has(name) && value !== '' && value !== null));
}

/** The parameter names the route's schema declares (the same for GET and POST). */
function knownParameters(request: FastifyRequest): ReadonlySet<string> {
  const schema = request.routeOptions.schema;
  const parameters = (request.method === 'POST' ? schema?.body : schema?.querystring) as TObject | undefined;
  return new Set(Object.keys(parameters?.properties ?? {}));
}

/**
 * The legacy statistics export under /stats (docs/behaviour.md §7; src/http/pipeline.ts): the account's apiKey
 * parameter, in the query or (POST) a form or JSON body, so it is checked once the body is parsed, before any other
 * parameter (a bad parameter from a caller without a key gets 401); without an apiKey, a bearer token with
 * statistics:read may authenticate instead (the dashboard's one token), while with one the Authorization header is
 * ignored exactly as before that extension. The rate limit per client address; no Idempotency-Key (the export
 * writes nothing); errors in its own `{success:false, error}` body.
 */
export function legacyFamily(deps: Deps, verifier: TokenVerifier): Family {
  /** The account of the apiKey or, without one, of the bearer token; unknown ones count as failed authentications (docs/behaviour.md §1). */
  async function legacyAccount(request: FastifyRequest, apiKey: unknown): Promise<stats.LegacyAccount> {
    const authorization = request.headers.authorization;
    if (apiKey === undefined && authorization !== undefined) {
      return stats.accountOfToken(deps, (await authenticateBearer(verifier, authorization, request.ip, LEGACY_BEARER_SCOPES)).accountId);
    }
    // A missing apiKey costs no lookup, but is a failure all the same, as a missing Authorization header is.
    const credential = typeof apiKey === 'string' && apiKey !== '' ? sha256(apiKey) : NO_CREDENTIAL;
    return verifier.failures.guard(request.ip, credential, () => stats.authenticate(deps, apiKey));
  }

  return {
    name: 'legacy',
    credential: 'parameters',
    // Forms besides JSON, for these routes only.
    contentTypes: async (scope: FastifyInstance) => {
      await scope.register(formbody);
    },
    async authenticate(request) {
      request.legacyAccount = await legacyAccount(request, collectParameters(request).apiKey);
      actingFor(request.legacyAccount.account_id);
    },
    limitKey: (request) => `ip:${request.ip}`,
    // Validation reads the merged parameters: the body for a POST, the query string for a GET.
    validate(request) {
      const parameters = collectParameters(request);
      if (request.body !== undefined && !isParameterObject(request.body)) {
        throw stats.invalidParameter('body', 'must be an object of named parameters');
      }
      const repeated = Object.keys(parameters).find((name) => Array.isArray(parameters[name]));
      if (repeated) throw stats.invalidParameter(repeated, 'must be a single value, given once');
      if (request.method === 'POST') request.body = parameters;
      else request.query = parameters;
    },
    errors: LEGACY_ERROR_FORMAT,
  };
}

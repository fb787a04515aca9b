import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import formbody from '@fastify/formbody';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { toApiError } from '../http/error-handler.ts';
import { formatValidationErrors } from '../http/validation.ts';
import { route } from '../http/route.ts';
import { Nullable } from '../http/schemas.ts';
import { authenticateBearer } from '../auth/hook.ts';
import { sha256 } from '../ids.ts';
import { actingFor } from '../db/replica.ts';
import {
  AgentsResponse,
  IntervalParameters,
  LegacyError,
  OverviewResponse,
  TotalsParameters,
  TotalsResponse,
  type Parameters,
} from './schema.ts';
import * as stats from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of the legacy export's apiKey; set before validation on /stats routes. */
    legacyAccount: stats.LegacyAccount | null;
  }
}

const tags = ['Legacy statistics export'];
const LEGACY_BEARER_SCOPES = ['statistics:read'] as const;

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
 * The service-wide check for text the database cannot store (src/http/error-handler.ts) answers 422
 * invalid_arguments; on these routes a parameter holding a NUL is a bad parameter like any other:
 * 400 invalid_parameters, naming it (docs/behaviour.md §7).
 */
function asBadParameter(error: ApiError | undefined): ApiError | undefined {
  const [first] = error?.code === 'invalid_arguments' ? (error.errors ?? []) : [];
  return first ? new ApiError(400, 'invalid_parameters', first.message) : error;
}

/** The legacy error body, `{success:false, error:{code, message}}`, for every failure on these routes. */
function sendLegacyError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = error.validation ? invalidParameters(error) : asBadParameter(toApiError(error));
  if (!apiError || apiError.status >= 500) request.log.error({ err: error }, apiError ? 'request failed' : 'unexpected error');
  if (!apiError) {
    return reply.code(500).send({
      success: false,
      error: { code: 'internal_error', message: 'Internal error; quote the request id when reporting it', request_id: request.id },
    });
  }
  if (apiError.headers) reply.headers(apiError.headers);
  const message = apiError.status === 415 ? MEDIA_TYPE_MESSAGE : apiError.message;
  return reply.code(apiError.status).send({ success: false, error: { code: apiError.code, message } });
}

const LEGACY_ERRORS: Record<number, string> = {
  400: 'A bad parameter (`invalid_parameters`, the message names it) or malformed JSON (`bad_request`)',
  401: 'Missing or unknown apiKey, or without one a missing, unknown or revoked bearer token (`unauthorized`)',
  403: 'The bearer token (sent without an apiKey) lacks statistics:read (`forbidden`)',
  413: 'Body over the size limit (`payload_too_large`)',
  415: 'Body neither a form nor JSON (`unsupported_media_type`)',
  429: 'Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After',
  500: 'Unexpected failure (`internal_error`), with a request id',
  503: 'The queries did not finish within HEAVY_QUERY_TIMEOUT_MS (`service_unavailable`); see Retry-After',
};

/**
 * A POST body as the export reads it (collectParameters): every parameter may be null or empty
 * (not given), and parameters it does not know are ignored, so the document admits both.
 */
function documentedBody(parameters: TObject): TSchema {
  const properties = Object.fromEntries(
    Object.entries(parameters.properties).map(([name, schema]) => [name, Type.Optional(Nullable(admittingEmpty(schema)))]),
  );
  return Type.Object(properties, {
    description: 'The parameters, apiKey included; null or empty counts as not given, and unknown parameters are ignored',
  });
}

/** The query string as the export reads it: an empty value (`from=`) counts as not given, so the document admits it. */
function admittingEmpty(schema: TSchema): TSchema {
  const { pattern, enum: values } = schema as { pattern?: string; enum?: string[] };
  const widened = pattern ? { pattern: `^$|${pattern}` } : values ? { enum: [...values, ''] } : {};
  return Type.Unsafe({ ...schema, ...widened });
}

function documentedQuery(parameters: TObject): TSchema {
  return Type.Object(
    Object.fromEntries(Object.entries(parameters.properties).map(([name, schema]) => [name, Type.Optional(admittingEmpty(schema))])),
  );
}

/** route() with this export's own error body in place of error_payload. */
function legacyRoute<P extends TObject, R extends TSchema>(doc: {
  operationId: string;
  summary: string;
  description: string;
  parameters: P;
  response: R;
  in: 'querystring' | 'body';
}) {
  const options = route({
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags,
    response: doc.response,
    [doc.in]: doc.parameters,
    // A POST reads the same parameters from a form or a JSON body.
    ...(doc.in === 'body'
      ? {
          documentedBody: {
            'application/x-www-form-urlencoded': documentedBody(doc.parameters),
            'application/json': documentedBody(doc.parameters),
          },
        }
      : { documentedQuery: documentedQuery(doc.parameters) }),
  });
  const statuses = doc.in === 'body' ? [400, 401, 403, 413, 415, 429, 500, 503] : [400, 401, 403, 429, 500, 503];
  const errors = statuses.map((status) => [
    status,
    { description: LEGACY_ERRORS[status], content: { 'application/json': { schema: LegacyError } } },
  ]);
  options.schema.response = { 200: doc.response, ...Object.fromEntries(errors) };
  // Either the apiKey parameter or, as an extension, a bearer token with statistics:read.
  // A POST may carry the apiKey in its body instead, which a security scheme cannot say: the empty
  // requirement admits a request with neither, and the body's apiKey (documented there) authenticates it.
  (options.schema as { security?: unknown }).security = [
    { legacyApiKey: [] },
    { bearer: [...LEGACY_BEARER_SCOPES] },
    ...(doc.in === 'body' ? [{}] : []),
  ];
  return options;
}

const isParameterObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Legacy clients send parameters as a query string, a form or JSON, and often send
 * unset ones empty: merge them (the body wins) and drop empty values, so both
 * methods validate the same parameters. Parameters the operation does not know are
 * dropped too: integrations send one parameter set to all three paths (`interval`
 * on totals) or add cache-busting ones, and must keep working.
 */
function collectParameters(request: FastifyRequest, known: ReadonlySet<string>): Record<string, unknown> {
  const merged = { ...(request.query as object), ...(isParameterObject(request.body) ? request.body : {}) };
  return Object.fromEntries(Object.entries(merged).filter(([name, value]) => known.has(name) && value !== '' && value !== null));
}

/** The parameter names the route's schema declares (the same for GET and POST). */
function knownParameters(request: FastifyRequest): ReadonlySet<string> {
  const schema = request.routeOptions.schema;
  const parameters = (request.method === 'POST' ? schema?.body : schema?.querystring) as TObject | undefined;
  return new Set(Object.keys(parameters?.properties ?? {}));
}

export const legacyStatsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(formbody);
  app.decorateRequest('legacyAccount', null);
  app.setErrorHandler(sendLegacyError);

  /** The account of the apiKey or, without one, of the bearer token; unknown ones count as failed authentications (docs/behaviour.md §1). */
  async function legacyAccount(request: FastifyRequest, apiKey: unknown): Promise<stats.LegacyAccount> {
    const authorization = request.headers.authorization;
    if (apiKey === undefined && authorization !== undefined) {
      return stats.accountOfToken(
        deps,
        (await authenticateBearer(app.tokenVerifier, authorization, request.ip, LEGACY_BEARER_SCOPES)).accountId,
      );
    }
    // A missing apiKey costs no lookup, and is not counted.
    if (typeof apiKey !== 'string' || apiKey === '') return stats.authenticate(deps, apiKey);
    return app.tokenVerifier.failures.guard(request.ip, sha256(apiKey), () => stats.authenticate(deps, apiKey));
  }

  // The apiKey is checked before validation (docs/behaviour.md §1): a bad parameter from a caller without a key gets 401.
  // Without an apiKey, a bearer token with statistics:read may authenticate instead (the dashboard's
  // one token); with one, the Authorization header is ignored exactly as before that extension.
  app.addHook('preValidation', async (request) => {
    const parameters = collectParameters(request, knownParameters(request));
    request.legacyAccount = await legacyAccount(request, parameters.apiKey);
    actingFor(request.legacyAccount.account_id);
    if (request.body !== undefined && !isParameterObject(request.body)) {
      throw stats.invalidParameter('body', 'must be an object of named parameters');
    }
    const repeated = Object.keys(parameters).find((name) => Array.isArray(parameters[name]));
    if (repeated) throw stats.invalidParameter(repeated, 'must be a single value, given once');
    if (request.method === 'POST') request.body = parameters;
    else request.query = parameters;
  });

  // The export's queries yield to small requests and are bounded by HEAVY_QUERY_TIMEOUT_MS (503); on the read replica when there is one.
  const heavyDeps: Deps = { ...deps, db: deps.db.reads };
  const operations = [
    {
      path: '/totals',
      operationId: 'exportLegacyTotals',
      summary: 'Statistics totals over a range',
      description: 'The overview counters and each agent’s counters over from..to.',
      parameters: TotalsParameters,
      response: TotalsResponse,
      run: stats.totals,
    },
    {
      path: '/overview',
      operationId: 'exportLegacyOverview',
      summary: 'Overview statistics by day, week or month',
      description: 'The overview counters for every unit overlapping from..to, keyed by unitId.',
      parameters: IntervalParameters,
      response: OverviewResponse,
      run: stats.overview,
    },
    {
      path: '/agents',
      operationId: 'exportLegacyAgents',
      summary: 'Per-agent statistics by day, week or month',
      description: 'Each agent’s counters for every unit overlapping from..to.',
      parameters: IntervalParameters,
      response: AgentsResponse,
      run: stats.agents,
    },
  ];

  for (const { path, operationId, summary, description, parameters, response, run } of operations) {
    const doc = {
      summary,
      description:
        `${description} Authenticated by the apiKey parameter or, without one, by a bearer token with statistics:read; ` +
        'unknown parameters are ignored.',
      parameters,
      response,
    };
    const handle = async (request: FastifyRequest, input: unknown) => ({
      success: true as const,
      ...(await run(heavyDeps, request.legacyAccount as stats.LegacyAccount, input as Parameters)),
    });
    app.get(path, legacyRoute({ ...doc, operationId, in: 'querystring' }), (request) => handle(request, request.query));
    app.post(
      path,
      legacyRoute({
        ...doc,
        operationId: `${operationId}FromBody`,
        description: `${doc.description} POST takes the same parameters as a form or JSON body.`,
        in: 'body',
      }),
      (request) => handle(request, request.body),
    );
  }
};

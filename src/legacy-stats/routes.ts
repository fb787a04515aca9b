import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { Deps } from '../deps.ts';
import { route } from '../http/route.ts';
import { Nullable } from '../http/schemas.ts';
import { LEGACY_BEARER_SCOPES } from './family.ts';
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

const tags = ['Legacy statistics export'];

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

/**
 * The export's routes. Their apiKey (or bearer token), parameters, parsers and error body are the legacy family's
 * (src/legacy-stats/family.ts), run by the request pipeline.
 */
export const legacyStatsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.decorateRequest('legacyAccount', null);

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

import type { TSchema } from '@sinclair/typebox';
import type { SwaggerTransform } from '@fastify/swagger';
import type { Scope } from '../auth/scopes.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON (`bad_request`)',
  401: 'Missing, unknown or revoked token (`unauthorized`)',
  403: 'The token lacks the required scope (`forbidden`)',
  404: 'The resource does not exist in this account (`not_found`)',
  405: 'Method not allowed on this path (`method_not_allowed`)',
  413: 'Body over the size limit (`payload_too_large`)',
  415: 'Unsupported content type (`unsupported_media_type`)',
  422: 'Invalid request (`invalid_arguments` or a rule-specific code)',
  429: 'Rate limit exceeded (`too_many_requests`); see Retry-After',
  503: 'Dependency unavailable (`service_unavailable`)',
  500: 'Unexpected failure (`internal_error`), with a request id',
};

/** An authenticated route's 429 also comes from the limit on failed authentications (src/auth/failures.ts). */
const AUTHENTICATED_429 =
  'Rate limit exceeded, or too many failed authentications from this address (`too_many_requests`); see Retry-After';

/** Where a query string is validated, a parameter it does not know is refused too (additionalProperties). */
const QUERY_422 = 'Invalid request, an unknown query parameter included (`invalid_arguments` or a rule-specific code)';

export const errorResponse = (status: number, authenticated: boolean, query: boolean) => ({
  description:
    (status === 429 && authenticated ? AUTHENTICATED_429 : status === 422 && query ? QUERY_422 : ERROR_DESCRIPTIONS[status]) ?? 'Error',
  content: { 'application/json': { schema: { $ref: 'error_payload#' } } },
});

export interface RouteDoc<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema> {
  /** The operation's name in the OpenAPI document: a camelCase verb phrase (`createConversation`), which generated clients use as the method name. */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Scope a bearer token needs, or scopes any one of which suffices; omitted for public routes. */
  scope?: Scope | readonly Scope[];
  /** The route takes a visitor token (src/visitors/), never an API token. */
  visitor?: true;
  params?: P;
  querystring?: Q;
  body?: B;
  /**
   * The request body as the document shows it, by media type, when it says more than
   * `body`: content types the handler parses itself (uploads), or rules the service
   * enforces that a generated client should know (exclusiveProperties()).
   */
  documentedBody?: Record<string, TSchema>;
  /** The query string as the document shows it, when it says more than `querystring` (a rule the service checks itself with its own error). */
  documentedQuery?: TSchema;
  /** Request headers the operation reads, for the document only: the code reading each header checks it (src/http/validation.ts). */
  headers?: TSchema;
  response: R;
  /** Statuses this route answers besides the ones every route of its kind has. */
  errors?: number[];
  /** Hide from the OpenAPI document (internal routes). */
  hide?: boolean;
  /** false exempts the route from the rate limit (health checks must always answer). */
  rateLimited?: boolean;
}

/**
 * Route options from one description: the schemas that validate the request and
 * shape the response are the ones the OpenAPI document shows, and the scope the
 * pipeline authenticates with (src/http/pipeline.ts) is the one the document lists.
 */
export function route<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema>(doc: RouteDoc<P, Q, B, R>) {
  const rateLimited = doc.rateLimited ?? true;
  const statuses = new Set<number>([...(doc.errors ?? []), 500]);
  if (rateLimited) statuses.add(429);
  const scopes: readonly Scope[] | undefined =
    doc.scope === undefined ? undefined : typeof doc.scope === 'string' ? [doc.scope] : doc.scope;
  if (scopes || doc.visitor) {
    statuses.add(401);
    statuses.add(403);
  }
  if (doc.params || doc.querystring || doc.body) statuses.add(422);
  if (doc.body) [400, 413, 415].forEach((s) => statuses.add(s));
  // An operation without a body refuses one (refuseBodies() in src/http/error-handler.ts declares its statuses).
  const bodyless = !doc.body && !doc.documentedBody;
  const response: Record<string, unknown> = { 200: doc.response };
  for (const status of [...statuses].sort()) {
    response[status] = errorResponse(status, scopes !== undefined || doc.visitor === true, doc.querystring !== undefined);
  }
  return {
    schema: {
      operationId: doc.operationId,
      summary: doc.summary,
      description: doc.description,
      tags: doc.tags,
      ...(doc.hide ? { hide: true } : {}),
      // Public routes say so explicitly: the document's default is bearer authentication.
      // Alternatives are separate requirements: a token holding any one of the scopes passes.
      security: doc.visitor ? [{ visitor: [] }] : scopes ? scopes.map((scope) => ({ bearer: [scope] })) : [],
      ...(doc.params ? { params: doc.params } : {}),
      ...(doc.querystring ? { querystring: doc.querystring } : {}),
      ...(doc.body ? { body: doc.body } : {}),
      ...(doc.headers ? { headers: doc.headers } : {}),
      response: response as { 200: R },
    },
    config: {
      scopes,
      ...(doc.visitor ? { visitor: true as const } : {}),
      ...(bodyless ? { bodyless: true } : {}),
      ...(rateLimited ? {} : { rateLimit: false as const }),
      ...(doc.documentedBody || doc.documentedQuery ? { swaggerTransform: documented(doc.documentedBody, doc.documentedQuery) } : {}),
    },
  } as {
    schema: { params: P; querystring: Q; body: B; response: { 200: R } };
    config: { scopes?: readonly Scope[]; visitor?: true; bodyless?: true; rateLimit?: false; swaggerTransform?: SwaggerTransform };
  };
}

/**
 * The document's copy of the route schema with `content` as its body (@fastify/swagger reads that form per
 * media type) and `querystring` as its query string.
 */
function documented(content: Record<string, TSchema> | undefined, querystring: TSchema | undefined): SwaggerTransform {
  const body = content && { content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])) };
  return ({ schema, url }) => ({ schema: { ...schema, ...(body ? { body } : {}), ...(querystring ? { querystring } : {}) }, url });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scopes of which a caller's token must hold at least one; absent on public routes. */
    scopes?: readonly Scope[];
    /** The operation takes no request body: one with content is refused (src/http/error-handler.ts). */
    bodyless?: true;
    /** The operation takes a visitor token (checked by the visitor family, src/visitors/family.ts). */
    visitor?: true;
  }
}

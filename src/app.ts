import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import type { Deps } from './deps.ts';
import { API_VERSION } from './version.ts';
import { randomString } from './ids.ts';
import { ApiError, ErrorPayload } from './http/errors.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling, routePattern } from './http/error-handler.ts';
import { installPipeline, PUBLIC, serveFamily } from './http/pipeline.ts';
import { markInexactNumbers, validatorCompiler } from './http/validation.ts';
import { REDACT_PATHS, REDACTED, serializeRequest } from './http/log-redaction.ts';
import { finishDocument } from './http/openapi.ts';
import { PRODUCT_TITLE, referencePage } from './http/reference.ts';
import { apiFamily } from './auth/family.ts';
import { withAccountScope } from './db/replica.ts';
import { TokenVerifier } from './auth/tokens.ts';
import { AuthFailureLimiter } from './auth/failures.ts';
import { SCOPES } from './auth/scopes.ts';
import { healthRoutes } from './health/routes.ts';
import { agentRoutes } from './agents/routes.ts';
import { accountRoutes } from './accounts/routes.ts';
import { tokenRoutes } from './tokens/routes.ts';
import { namedResourceRoutes } from './named-resources/routes.ts';
import { GROUPS, TAGS } from './named-resources/kinds.ts';
import { botRoutes } from './bots/routes.ts';
import { contactRoutes } from './contacts/routes.ts';
import { conversationRoutes } from './conversations/routes.ts';
import { searchRoutes } from './search/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { statisticsRoutes } from './statistics/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { EventHub } from './events/hub.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { legacyStatsRoutes } from './legacy-stats/routes.ts';
import { legacyFamily } from './legacy-stats/family.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { inboxRoutes } from './inbox/routes.ts';
import { widgetScriptRoutes } from './widget/routes.ts';
import { visitorRoutes } from './visitors/routes.ts';
import { visitorFamily } from './visitors/family.ts';
import { installHttpMetrics, metricsOnApiPort, metricsRoutes } from './metrics/http.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's event hub: wakes event readers (streams, the webhook worker) when events commit. */
    eventHub: EventHub;
  }
}

const BODY_LIMIT = 1024 * 1024;
const PATH_PARAMETER_LIMIT = 2048;
/** How often Node looks for requests past their timeouts (its default, 30 s, would let them run that much longer). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

export interface BuildAppOptions {
  /** pino logger options; tests pass `false`, or a stream to read what is logged. */
  logger?: false | { level: string; stream?: DestinationStream };
}

/**
 * The whole HTTP application, wired explicitly. The process entry (src/server.ts)
 * and the tests both call this; nothing here reads the environment.
 */
export async function buildApp(deps: Deps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Credentials never reach the log: URLs lose their secret query values, headers their credentials (docs/behaviour.md §11).
    logger:
      options.logger === false
        ? false
        : {
            ...(options.logger ?? { level: deps.config.logLevel }),
            serializers: { req: serializeRequest },
            redact: { paths: REDACT_PATHS, censor: REDACTED },
          },
    bodyLimit: BODY_LIMIT,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,64}$/.test(incoming) ? incoming : `req_${randomString(16)}`;
    },
    ajv: { customOptions: { allErrors: true, removeAdditional: false } },
    // Path parameters reach validation (422, location path) rather than the router's 414 at 100 characters.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: PATH_PARAMETER_LIMIT },
    frameworkErrors: frameworkErrorHandler,
    // Slow or stalled clients get 408 instead of holding a connection (docs/operations.md "Slow clients").
    requestTimeout: deps.config.requestTimeoutMs,
    http: { headersTimeout: deps.config.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    clientErrorHandler,
    // request.ip (rate limits, logs) and protocol believe X-Forwarded-* only from these proxies (TRUST_PROXY).
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy : false,
    // A shutdown drains (docs/operations.md#graceful-shutdown): a request arriving on a kept-alive connection after
    // SIGTERM is served, not refused with 503, and answered with Connection: close (below), so that the proxy's
    // next request opens a connection, which the stopped listener refuses and the proxy sends to another instance.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorPayload);

  // JSON bodies: an empty body is no body (clients often send the header on
  // bodyless POSTs); anything unparsable is a 400 bad_request.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    // Numbers a double cannot hold as written are marked before parsing, and refused with their path (the validate step, src/http/pipeline.ts).
    parseJson(request, markInexactNumbers(body as string), (error, value) =>
      error ? done(new ApiError(400, 'bad_request', `The request body is not valid JSON: ${error.message}`), undefined) : done(null, value),
    );
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  installHttpMetrics(app, deps.metrics);

  const knownRoutes: { method: string; pattern: RegExp }[] = [];
  app.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    for (const method of methods) knownRoutes.push({ method, pattern: routePattern(routeOptions.url) });
  });
  installErrorHandling(app, knownRoutes);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: PRODUCT_TITLE,
        version: API_VERSION,
        description:
          'Live-chat backend: agents, bots, contacts, conversations, statistics. Every `/v2` operation takes ' +
          '`Authorization: Bearer <token>` and needs the scope it lists; errors are `error_payload` bodies. ' +
          'The legacy export under `/stats` authenticates with the `apiKey` parameter (or a bearer token with ' +
          '`statistics:read`). Examples and rules: docs/api.md (the API guide) and docs/behaviour.md in the source repository.',
      },
      servers: [{ url: '/' }],
      // Sections in the order a newcomer needs them; operations of each route file carry one of these.
      tags: [
        { name: 'Management', description: 'Agents, groups, tags, bots, tokens and account settings (scope account:manage)' },
        { name: 'Agents', description: 'Agents, their status and presence' },
        { name: 'Bots', description: 'Bot triggers' },
        { name: 'Contacts', description: 'The people who chat' },
        { name: 'Conversations', description: 'Conversations, messages, paths and ratings' },
        { name: 'Uploads', description: 'Files for attachments' },
        { name: 'Statistics', description: 'Multi-metric statistics' },
        { name: 'Events', description: 'Live event stream (Server-Sent Events)' },
        { name: 'Webhooks', description: 'Signed event delivery' },
        {
          name: 'Visitors',
          description: 'The visitor API under /widget/v1: what the chat widget does in a browser, with a visitor token (docs/widget.md)',
        },
        {
          name: 'Legacy statistics export',
          description: 'Unversioned /stats export, authenticated by apiKey (or a statistics:read bearer token)',
        },
        { name: 'Operations', description: 'Health checks' },
      ],
      security: [{ bearer: [] }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: `Bearer token with scopes: ${SCOPES.join(', ')}`,
          },
          visitor: {
            type: 'http',
            scheme: 'bearer',
            description: 'A visitor token from POST /widget/v1/session: only the /widget/v1 operations take it',
          },
          legacyApiKey: {
            type: 'apiKey',
            in: 'query',
            name: 'apiKey',
            description: "The account's legacy key for /stats; also accepted as a form or JSON body parameter",
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}` },
    transformObject: (document) => finishDocument((document as { openapiObject: Record<string, unknown> }).openapiObject),
  });

  const authFailures = new AuthFailureLimiter({
    limit: deps.config.authFailureLimit,
    windowMs: deps.config.authFailureWindowSeconds * 1000,
  });
  const verifier = new TokenVerifier(deps.db, authFailures);
  app.decorate('tokenVerifier', verifier);
  // With a read replica, each request's writes and replica reads are tracked for the account it acts for
  // (read-your-writes, src/db/replica.ts). Without one nothing reads the scope, and none is made: the first scope
  // turns on Node 22's async hooks, which slow every promise of the process (docs/benchmarks.md).
  if (deps.db.replicaState()) app.addHook('onRequest', (_request, _reply, done) => withAccountScope(done));
  // Every request's steps, in one order for every route family: authenticate, limit, claim, validate, handle,
  // settle; one error handler (src/http/pipeline.ts, docs/DEVELOPING.md "The request pipeline").
  await installPipeline(app, deps);

  const events = new EventHub(deps.db, {
    safetyPollMs: deps.config.eventSafetyPollMs,
    streamsPerAccount: deps.config.eventStreamsPerAccount,
    streamsPerInstance: deps.config.eventStreamsPerInstance,
  });
  await events.start();
  app.decorate('eventHub', events);
  // Open streams end before the server waits for its connections to close, or it would wait forever.
  app.addHook('preClose', () => events.endStreams());
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', () => events.close());

  // Public routes: no credential, the rate limit per client address (health checks exempt).
  await serveFamily(app, PUBLIC, {}, async (scope) => {
    await scope.register(healthRoutes, { deps });
    if (metricsOnApiPort(deps.config)) await scope.register(metricsRoutes, { metrics: deps.metrics, token: deps.config.metricsToken });
    // The statistics dashboard: static files, public; its data calls carry the user's token.
    await scope.register(dashboardRoutes);
    // The agent inbox: static files, public; its data calls carry the agent's token.
    await scope.register(inboxRoutes);
    // The chat widget's script, for any site to embed; it talks to the visitor API under /widget/v1.
    await scope.register(widgetScriptRoutes);
    await scope.register(referencePage, { documentUrl: '/v2/openapi.json' });
    scope.get('/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });

  // The API: bearer tokens with scopes, errors as error_payload.
  await serveFamily(app, apiFamily(verifier), { prefix: '/v2' }, async (v2) => {
    await v2.register(agentRoutes, { deps });
    await v2.register(accountRoutes, { deps });
    await v2.register(tokenRoutes, { deps });
    await v2.register(namedResourceRoutes(GROUPS), { deps });
    await v2.register(namedResourceRoutes(TAGS), { deps });
    await v2.register(botRoutes, { deps });
    await v2.register(contactRoutes, { deps });
    await v2.register(conversationRoutes, { deps });
    await v2.register(searchRoutes, { deps });
    await v2.register(uploadRoutes, { deps });
    await v2.register(statisticsRoutes, { deps });
    await v2.register(eventRoutes, { deps, events });
    await v2.register(webhookRoutes, { deps });
  });
  // The visitor API: what the chat widget does in a browser, with a visitor token (docs/widget.md).
  await serveFamily(app, visitorFamily(deps, authFailures), { prefix: '/widget/v1' }, (scope) =>
    scope.register(visitorRoutes, { deps, events }),
  );
  // The legacy export keeps its historical, unversioned address, its apiKey and its error body.
  await serveFamily(app, legacyFamily(deps, verifier), { prefix: '/stats' }, (scope) => scope.register(legacyStatsRoutes, { deps }));

  return app;
}

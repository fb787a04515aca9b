import type { Socket } from 'node:net';
import { STATUS_CODES as HTTP_REASONS } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { itemAt } from '../arrays.ts';
import { ApiError, type ErrorCode, type ErrorItem, type ErrorPayload } from './errors.ts';
import { errorResponse } from './route.ts';
import { DatabaseBusyError, QueryTimeoutError } from '../db/db.ts';
import { invalidArguments, locationOf } from './validation.ts';

/** Long enough for a queue of heavy requests to drain, short enough for a dashboard to retry on its own. */
const HEAVY_RETRY_AFTER_SECONDS = 10;
/** A lock held past DB_LOCK_TIMEOUT_MS is usually released soon after. */
const BUSY_RETRY_AFTER_SECONDS = 1;

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  bad_request: 'The request body is not valid JSON',
  payload_too_large: 'The request body is too large',
  unsupported_media_type: 'Unsupported content type; send application/json',
  too_many_requests: 'Rate limit exceeded; retry later',
};

/**
 * Maps any failure to the ApiError it answers with, or undefined when it is
 * unexpected (a 500). The one error handler (src/http/pipeline.ts) sends it in the
 * format of the route's family: error_payload (ERROR_PAYLOAD below) or the legacy
 * export's `{success:false, error}` (src/legacy-stats/family.ts), which reads
 * failures through this mapping too.
 */
export function toApiError(error: FastifyError | ApiError): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof QueryTimeoutError) {
    return new ApiError(
      503,
      'service_unavailable',
      `The statistics query did not finish within ${error.timeoutMs} ms (HEAVY_QUERY_TIMEOUT_MS): the database is busy or the range too large; retry later or ask for a shorter range`,
      undefined,
      { 'Retry-After': String(HEAVY_RETRY_AFTER_SECONDS) },
    );
  }
  if (error instanceof DatabaseBusyError) {
    return new ApiError(503, 'service_unavailable', error.message, undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }
  if (error.validation) return invalidArguments(error.validation as never, locationOf(error.validationContext));
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) {
    const code = STATUS_CODES[status] ?? 'bad_request';
    return new ApiError(status, code, MESSAGES[code] ?? error.message);
  }
  return undefined;
}

/**
 * Errors Fastify's router raises before any route runs (so the error handler never
 * sees them): a path with malformed percent-encoding (`/v2/agents/%zz`), a path
 * parameter over the router's length limit. Fastify's own bodies for them are not
 * error_payload.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? new ApiError(400, 'bad_request', 'The URL is not valid: malformed percent-encoding in the path')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ApiError(414, 'bad_request', 'The URL is too long: a path segment exceeds the limit')
        : (toApiError(error) ?? new ApiError(400, 'bad_request', 'The request is not valid'));
  return sendError(reply, apiError);
}

/**
 * Node's clientError, raised before Fastify sees a request: headers or body not received within
 * HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (a client dripping bytes, or stalled), or bytes that are
 * not HTTP. Answered with an error_payload, as everything else, and the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body]: [number, ErrorPayload] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          { code: 'request_timeout', message: 'The request was not received in time (headers or body too slow); the connection is closed' },
        ]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { code: 'bad_request', message: 'The request headers are too large' }]
        : [400, { code: 'bad_request', message: 'The request is not valid HTTP' }];
  // Only when no response has started on this connection (as Node's own handler does).
  if (socket.writable && socket.bytesWritten === 0) {
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${HTTP_REASONS[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}

export function sendError(reply: FastifyReply, error: ApiError) {
  const body: ErrorPayload = { code: error.code, message: error.message };
  if (error.errors) body.errors = error.errors;
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type('application/json').send(body);
}

export const INTERNAL_ERROR_MESSAGE = 'Internal error; quote the request id when reporting it';

/**
 * How a route family writes its errors (src/http/pipeline.ts): which ApiError a failure answers with
 * (undefined: unexpected, a 500) and the body it is sent as. The one error handler picks the format of the
 * request's family.
 */
export interface ErrorFormat {
  toApiError(error: FastifyError | ApiError): ApiError | undefined;
  send(reply: FastifyReply, error: ApiError): FastifyReply;
  /** An unexpected failure: a generic message and the request id, the detail in the log only (docs/behaviour.md §2). */
  sendInternal(reply: FastifyReply, requestId: string): FastifyReply;
}

/** `error_payload`, `{code, message, errors?}`: the API's, the visitor API's and the public routes' format. */
export const ERROR_PAYLOAD: ErrorFormat = {
  toApiError,
  send: sendError,
  sendInternal: (reply, requestId) =>
    reply.code(500).type('application/json').send({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, request_id: requestId }),
};

/**
 * An operation without a request body (`route()` marks it `bodyless`) refuses one rather than
 * ignoring it: a JSON object's properties are each a 422 `additionalProperties` (so `{}` passes),
 * any other JSON value a 422 `type`; a body of another type is already a 415, an unparsable one a 400.
 */
export function bodyErrors(body: unknown): ErrorItem[] {
  if (body === undefined) return [];
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) {
    return Object.keys(body).map((name) => ({
      path: name,
      code: 'additionalProperties',
      message: `${name} is not an allowed property: this operation takes no body`,
      location: 'body' as const,
    }));
  }
  return [{ path: '', code: 'type', message: 'body must be absent: this operation takes no body', location: 'body' }];
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Shown as optional (finishDocument() in src/http/openapi.ts reads its title). */
export const EMPTY_BODY = {
  title: 'empty_body',
  type: 'object',
  additionalProperties: false,
  description: 'No body is needed; an empty JSON object is accepted, and any property in it is refused (422).',
};

/**
 * What every route's errors share beyond the error handler (which is the request pipeline's, src/http/pipeline.ts):
 * the statuses a bodyless operation declares, and the 404 / 405 of a request that matched no route.
 */
export function installErrorHandling(app: FastifyInstance, knownRoutes: { method: string; pattern: RegExp }[]) {
  // The statuses a body sent to a bodyless operation can get, declared where it can be sent.
  app.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    if (!routeOptions.config?.bodyless || !routeOptions.schema?.response || methods.every((m) => BODYLESS_METHODS.has(m))) return;
    const responses = routeOptions.schema.response as Record<string, unknown>;
    const authenticated = routeOptions.config.scopes !== undefined;
    for (const status of [400, 413, 415, 422]) responses[status] ??= errorResponse(status, authenticated, false);
    // The document says what is accepted: nothing, or an empty JSON object (a client that always sends one).
    const transform = routeOptions.config.swaggerTransform;
    routeOptions.config.swaggerTransform = (args) => {
      const shown = transform ? transform(args) : { schema: args.schema, url: args.url };
      return { ...shown, schema: { ...shown.schema, body: EMPTY_BODY } };
    };
  });

  app.setNotFoundHandler((request, reply) => {
    const path = itemAt(request.url.split('?'), 0);
    const allowed = [...new Set(knownRoutes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        reply,
        new ApiError(405, 'method_not_allowed', `Method ${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`),
      );
    }
    return sendError(reply, new ApiError(404, 'not_found', `Route ${request.method} ${path} not found`));
  });
}

/** Turns a Fastify route URL (`/v2/agents/:id`) into a matcher for the 405 check. */
export function routePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

import type { FastifyRequest } from 'fastify';

/**
 * What the logs never hold (docs/behaviour.md §11): credentials in a URL's query or in headers.
 * The legacy export takes its `apiKey` in the query, so the request logger's URL would otherwise carry it.
 */
export const REDACTED = '[REDACTED]';

/** Query parameter names that carry a credential: apiKey, api_key, token, access_token, secret, password, signature, … */
const SECRET_PARAMETER = /key|token|secret|passw|pwd|^auth|authoriz|signature|^sig$|session|cookie|credential|bearer/i;

/** Headers whose values are credentials. */
export const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'idempotency-key',
  'x-webhook-signature',
];

/** The URL with the value of every credential-looking query parameter replaced by [REDACTED]; the path is kept. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed name is judged as sent.
      }
      return equals !== -1 && SECRET_PARAMETER.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/** pino's `req` serializer: Fastify's default fields, the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino `redact` paths: credential headers wherever a logged object carries headers. */
export const REDACT_PATHS = SECRET_HEADERS.flatMap((name) => [
  `req.headers["${name}"]`,
  `res.headers["${name}"]`,
  `headers["${name}"]`,
  `err.headers["${name}"]`,
]);

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { blockedRange, hostOf, publicOnlyLookup, RefusedAddressError } from './address.ts';

/**
 * Why a delivery attempt failed, as stored and shown to the tenant (docs/api.md, webhook deliveries): a small
 * fixed set, never the socket's own text, which quoted host names and internal addresses (issue 18.9).
 * - `timeout`: no response status within WEBHOOK_TIMEOUT_MS;
 * - `refused_address`: the host does not resolve, or resolves to an address webhooks may not reach
 *   (WEBHOOK_BLOCK_PRIVATE): one reason for both, as at creation;
 * - `connection_refused`, `connection_reset`, `network_unreachable`: the TCP connection failed, or broke before a status;
 * - `tls`: the TLS handshake failed (certificate, protocol);
 * - `protocol`: the answer was not HTTP;
 * - `http_status`: a status came, not a 2xx (a 3xx included: redirects are not followed);
 * - `other`: anything else.
 */
export const DELIVERY_ERRORS = [
  'timeout',
  'refused_address',
  'connection_refused',
  'connection_reset',
  'network_unreachable',
  'tls',
  'protocol',
  'http_status',
  'other',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

export interface SendResult {
  /** The receiver's status, or null when none came. */
  statusCode: number | null;
  /** Why it failed; null when a 2xx status came. */
  error: DeliveryError | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  blockPrivate: boolean;
}

/** Our own timeout, told apart from the socket's errors. */
class DeliveryTimeout extends Error {}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL', 'ENONAME']);

/** The reason for an error of http.request (or of its lookup). */
export function classifyError(error: unknown): DeliveryError {
  if (error instanceof DeliveryTimeout) return 'timeout';
  if (error instanceof RefusedAddressError) return 'refused_address';
  const code = String((error as { code?: unknown }).code ?? '');
  const syscall = String((error as { syscall?: unknown }).syscall ?? '');
  // An unresolvable host is one refusal with a blocked one: which one it was is a DNS oracle.
  if (DNS_CODES.has(code) || syscall === 'getaddrinfo') return 'refused_address';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL'].includes(code)) return 'network_unreachable';
  if (code === 'ETIMEDOUT') return 'timeout';
  // OpenSSL's failures during the handshake come as EPROTO ("SSL routines: wrong version number"), certificate ones by name.
  if (code === 'EPROTO' || /^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/.test(code))
    return 'tls';
  if (code.startsWith('HPE_')) return 'protocol';
  if ((error as Error)?.message === 'socket hang up') return 'connection_reset';
  return 'other';
}

/**
 * POSTs one JSON body. Never throws: every failure becomes a reason (DeliveryError). The
 * timeout covers everything up to the response status; redirects are not
 * followed (a 3xx is a failed delivery) and the response body is not read.
 */
export function postJson(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const startedAt = performance.now();
  const result = (statusCode: number | null, error: DeliveryError | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - startedAt),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(result(null, 'other'));
    }
    const host = hostOf(target);
    // IP literals are connected to without a lookup, so they are checked here.
    const literalRange = options.blockPrivate && isIP(host) ? blockedRange(host) : null;
    if (literalRange) return resolve(result(null, 'refused_address'));
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: options.blockPrivate ? publicOnlyLookup : undefined,
    });
    const timer = setTimeout(() => request.destroy(new DeliveryTimeout(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    request.once('response', (response) => {
      clearTimeout(timer);
      const status = response.statusCode ?? 0;
      response.destroy();
      resolve(result(status, status >= 200 && status < 300 ? null : 'http_status'));
    });
    // `on`, not `once`: destroying the socket after the response may emit a late error.
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve(result(null, classifyError(error)));
    });
    request.end(body);
  });
}

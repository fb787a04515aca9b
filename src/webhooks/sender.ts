import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { blockedAddressText, blockedRange, hostOf, publicOnlyLookup } from './address.ts';

export interface SendResult {
  /** The receiver's status, or null when none came. */
  statusCode: number | null;
  /** Why no status came: refused, timed out, blocked...; null when one did. */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  blockPrivate: boolean;
}

const MAX_ERROR_LENGTH = 500;

/**
 * POSTs one JSON body. Never throws: every failure becomes an error text. The
 * timeout covers everything up to the response status; redirects are not
 * followed (a 3xx is a failed delivery) and the response body is not read.
 */
export function postJson(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const startedAt = performance.now();
  const result = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error: error && error.slice(0, MAX_ERROR_LENGTH),
    durationMs: Math.round(performance.now() - startedAt),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(result(null, `invalid URL ${url}`));
    }
    const host = hostOf(target);
    // IP literals are connected to without a lookup, so they are checked here.
    const literalRange = options.blockPrivate && isIP(host) ? blockedRange(host) : null;
    if (literalRange) return resolve(result(null, blockedAddressText(host, literalRange)));
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: options.blockPrivate ? publicOnlyLookup : undefined,
    });
    const timer = setTimeout(() => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    request.once('response', (response) => {
      clearTimeout(timer);
      const status = response.statusCode ?? 0;
      response.destroy();
      resolve(result(status, null));
    });
    // `on`, not `once`: destroying the socket after the response may emit a late error.
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve(result(null, error.message));
    });
    request.end(body);
  });
}

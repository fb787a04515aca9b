/**
 * Stoplight Prism, a validating proxy nobody here wrote, shown every exchange of the suite (issue 20;
 * `npm run test:prism`, scripts/with-prism.ts). With TEST_PRISM_URL set, the harness sends each request
 * to the app as always and then once more through Prism, whose upstream (the router in
 * scripts/with-prism.ts, then this process's mirror server) answers with exactly what the app answered:
 * Prism sees the suite's requests and the service's responses without a second call to the service, so
 * no test changes behaviour under it. Prism reports in `sl-violations` where an exchange disagrees with
 * the document; a response violation, or a request violation on an exchange answered 2xx, is a mismatch
 * like the contract check's (src/test/contract.ts) and fails the test file. Every exchange and its
 * violations go to test-output/prism/ for the script's summary.
 */
import http from 'node:http';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MAX_NESTING } from '../http/validation.ts';

export const prismUrl = process.env.TEST_PRISM_URL || undefined;

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}

interface Violation {
  location?: unknown[];
  severity?: string;
  message?: string;
}

const outputDir = path.resolve('test-output', 'prism');
const answers = new Map<string, Answer>();
let exchangeCount = 0;
let mirror: Promise<number> | undefined;
const PRISM_TIMEOUT_MS = 30_000;

/**
 * RFC 9110 §11.1: the authentication scheme is a case-insensitive token, and the service reads it so
 * (src/auth/family.ts); Prism 5 accepts only `Bearer` as written.
 */
/** A request header the test wrote in any case, or ''. */
function headerOf(headers: Record<string, string> | undefined, name: string): string {
  return Object.entries(headers ?? {}).find(([given]) => given.toLowerCase() === name)?.[1] ?? '';
}

function bearerInAnotherCase(headers: Record<string, string> | undefined): boolean {
  const authorization = headerOf(headers, 'authorization');
  return /^bearer\s/i.test(authorization) && !/^Bearer\s/.test(authorization);
}

/** How deep a JSON text nests its arrays and objects (strings skipped). */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

/**
 * A JSON body Prism cannot judge: one that does not parse (Prism never answers it); `null` or `""`, which Prism
 * reads as no body at all (a file of those bytes is a valid upload); one nested past the service's limit, which
 * overflows Prism's stack and kills it (the service refuses it, 422).
 */
function jsonBodyPrismCannotTake(request: { payload?: string | Buffer; headers?: Record<string, string> }): boolean {
  const type = headerOf(request.headers, 'content-type');
  if (!/json/i.test(type) || request.payload === undefined || request.payload.length === 0) return false;
  const text = request.payload.toString();
  try {
    const body: unknown = JSON.parse(text);
    return body === null || body === '' || nesting(text) > MAX_NESTING;
  } catch {
    return true;
  }
}

/**
 * A multipart body with a part that has no Content-Type header (the service stores such a file as
 * application/octet-stream): Prism 5.16's multipart parser throws on it and its process dies.
 */
function multipartPrismCannotTake(request: { payload?: string | Buffer; headers?: Record<string, string> }): boolean {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(headerOf(request.headers, 'content-type'))?.[1];
  if (boundary === undefined || request.payload === undefined) return false;
  const text = typeof request.payload === 'string' ? request.payload : request.payload.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  return parts.some((part) => !/^content-type:/im.test(part.split('\r\n\r\n')[0] ?? ''));
}

/**
 * A body without a Content-Type: the service reads it as bytes (an upload stores it as application/octet-stream),
 * while Prism judges it by the first media type the operation lists (an upload's multipart object).
 */
function untypedBody(request: { payload?: string | Buffer; headers?: Record<string, string> }): boolean {
  return request.payload !== undefined && request.payload.length > 0 && headerOf(request.headers, 'content-type') === '';
}

/**
 * A URL Prism 5.16 cannot take: malformed percent-encoding (`/v2/agents/%`) kills its process; a dot segment
 * (`/v2/conversations/../close`) it leaves unanswered, then dies; one past Node's 16 KiB of headers its server
 * refuses, and its logger dies on the refusal.
 */
function urlPrismCannotTake(url: string): boolean {
  if (url.length > 8192) return true;
  const path = url.split('?')[0] ?? '';
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return true;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

function record(line: object): void {
  mkdirSync(outputDir, { recursive: true });
  appendFileSync(path.join(outputDir, `${process.pid}.ndjson`), `${JSON.stringify(line)}\n`);
}

/** This process's server answering Prism's forwarded requests with the answers the app gave. */
function mirrorPort(): Promise<number> {
  mirror ??= new Promise((resolve) => {
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const id = String(request.headers['x-test-exchange']);
        const answer = answers.get(id);
        answers.delete(id);
        if (!answer) {
          response.writeHead(502);
          response.end();
          return;
        }
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        headers['content-length'] = String(answer.rawPayload.length);
        response.writeHead(answer.statusCode, headers as http.OutgoingHttpHeaders);
        response.end(request.method === 'HEAD' ? undefined : answer.rawPayload);
      });
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  return mirror;
}

/**
 * Prism's `sl-violations` header: a JSON array, or past a number of them `Too many violations! ` and a truncated
 * array, which counts as one violation saying so (a throw here would leave the exchange unanswered).
 */
function parseViolations(header: string): Violation[] {
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    return [{ location: ['request'], severity: 'Error', message: `unreadable sl-violations: ${header.slice(0, 300)}` }];
  }
}

/**
 * Shows Prism the request the test sent and the answer the app gave; returns the mismatches Prism
 * reported (empty when none). A request Prism answers itself, without forwarding, has no answer of the
 * service's to judge: it is recorded as such, and counted by the script.
 */
export async function showPrism(
  request: { method: string; url: string; payload?: string | Buffer; headers?: Record<string, string> },
  answer: Answer,
): Promise<string[]> {
  const target = new URL(request.url, prismUrl);
  const operation = `${request.method} ${target.pathname}`;
  // The service's answer to a request Prism cannot take is checked by the contract check alone.
  if (jsonBodyPrismCannotTake(request) || multipartPrismCannotTake(request) || untypedBody(request) || urlPrismCannotTake(request.url)) {
    record({ operation, status: answer.statusCode, forwarded: false, prismStatus: 0, violations: [] });
    return [];
  }
  const port = await mirrorPort();
  const id = `${process.pid}-${++exchangeCount}`;
  answers.set(id, answer);
  const reply = await new Promise<{ status: number; violations: Violation[]; error?: string }>((resolve) => {
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-test-upstream': String(port), 'x-test-exchange': id },
      },
      (response) => {
        response.resume();
        response.on('error', (error) => resolve({ status: 0, violations: [], error: error.message }));
        response.on('end', () => {
          const reported = response.headers['sl-violations'];
          resolve({ status: response.statusCode ?? 0, violations: typeof reported === 'string' ? parseViolations(reported) : [] });
        });
      },
    );
    // Prism failing to carry a request (a path it cannot parse, a connection it drops) is its own
    // failure, not the service's: recorded as not judged, never failing the test.
    outgoing.on('error', (error) => resolve({ status: 0, violations: [], error: error.message }));
    outgoing.setTimeout(PRISM_TIMEOUT_MS, () =>
      outgoing.destroy(new Error(`Prism gave no answer to ${operation} in ${PRISM_TIMEOUT_MS} ms`)),
    );
    outgoing.end(request.payload);
  });
  const forwarded = !answers.delete(id);
  const status = answer.statusCode;
  const mismatches = (forwarded ? reply.violations : [])
    .filter((violation) => !(violation.message === 'Invalid security scheme used' && bearerInAnotherCase(request.headers)))
    .filter((violation) => violation.severity === 'Error' && (violation.location?.[0] === 'response' || (status >= 200 && status < 300)))
    .map((violation) => `Prism: ${operation} answered ${status}: ${(violation.location ?? []).join('.')}: ${violation.message}`);
  record({ operation, status, forwarded, prismStatus: reply.status, error: reply.error, violations: mismatches });
  return mismatches;
}

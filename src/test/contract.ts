/**
 * The OpenAPI document checked on every response the suite receives (issue 20 §2): each test app
 * (src/test/harness.ts) validates every exchange against the document it serves at /v2/openapi.json,
 * read as JSON, not against the route schemas in memory: the status is declared for the operation, the
 * content type too, the body is valid against its schema, declared response headers against theirs;
 * a request answered 2xx is itself valid (parameters, content type, body). Mismatches fail the test file
 * (TestApp.close()); the responses validated per operation are appended to test-output/contract/, and
 * scripts/test.mjs prints them after a run and fails a whole-suite run that left an operation unexercised.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Json;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  /** Pointer of the operation in the document (`#/paths/~1v2~1agents/get`). */
  pointer: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, Json>;
}

export interface Exchange {
  method: string;
  /** The URL as requested, with its query string. */
  url: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  /** The request body as the route saw it (parsed), or undefined. */
  requestBody: unknown;
  /** Fastify's route pattern (`/v2/agents/:id`) when a route matched. */
  routePattern?: string;
  status: number;
  responseHeaders: Record<string, unknown>;
  /** The response body as sent; undefined for a stream. */
  responseBody?: string | Buffer;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The document compiled once per process (every test app serves the same one). */
class Contract {
  readonly operations: Operation[];
  readonly #doc: Json;
  readonly #ajv;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.#doc = doc;
    this.#ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false, coerceTypes: false });
    addFormats.default(this.#ajv);
    this.#ajv.addFormat('binary', true);
    this.#ajv.addSchema(doc, 'openapi');
    const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
    this.operations = Object.entries(paths).flatMap(([route, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({
          id: String(op.operationId ?? `${method.toUpperCase()} ${route}`),
          method: method.toUpperCase(),
          path: route,
          pattern: new RegExp(`^${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}/?$`),
          pointer: `#/paths/${escapePointer(route)}/${method}`,
          parameters: (op.parameters ?? []) as Parameter[],
          requestBody: op.requestBody as Operation['requestBody'],
          responses: (op.responses ?? {}) as Record<string, Json>,
        })),
    );
  }

  /** The operation of a request: its route's pattern when one matched, else by path (fewest parameters first). */
  operationOf(method: string, url: string, routePattern?: string): Operation | undefined {
    const verb = method === 'HEAD' ? 'GET' : method;
    if (routePattern) {
      const documented = routePattern.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '') || '/';
      const exact = this.operations.find((op) => op.method === verb && op.path === documented);
      if (exact) return exact;
    }
    const pathname = url.split('?')[0]!;
    return this.operations
      .filter((op) => op.method === verb && op.pattern.test(pathname))
      .sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0];
  }

  /** Validator of the schema at `pointer` (a JSON pointer fragment into the document). */
  validator(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `openapi${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate;
  }

  /** A `$ref` to components/responses resolved, with the pointer of what it refers to. */
  resolveResponse(response: Json, pointer: string): { response: Json; pointer: string } {
    const ref = response.$ref;
    if (typeof ref !== 'string') return { response, pointer };
    const name = ref.split('/').pop() as string;
    const responses = (this.#doc.components as Json).responses as Record<string, Json>;
    const resolved = responses[name];
    if (!resolved) throw new Error(`${pointer}: ${ref} names no response of components/responses`);
    return { response: resolved, pointer: `#/components/responses/${escapePointer(name)}` };
  }

  errorsOf(validate: ValidateFunction): string {
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '(root)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
      )
      .join('; ');
  }
}

const mediaType = (value: unknown) =>
  String(value ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** The content entry of `content` for `type`: exact, then `type/*`, then `*\/*`. */
function contentFor<T>(content: Record<string, T> | undefined, type: string): [string, T] | undefined {
  if (!content) return undefined;
  const wildcard = `${type.split('/')[0]}/*`;
  for (const key of [type, wildcard, '*/*']) {
    const entry = content[key];
    if (entry !== undefined) return [key, entry];
  }
  return undefined;
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

let contract: Contract | undefined;
const counts = new Map<string, number>();
const mismatches: string[] = [];
let registeredExit = false;

/** Parses the served document (once per process) for the checks of this process's exchanges. */
export function useDocument(doc: Json): void {
  contract ??= new Contract(doc);
  if (!registeredExit) {
    registeredExit = true;
    process.on('exit', writeCounts);
  }
}

/** Checks one exchange; records mismatches, returns them (names the operation). */
export function checkExchange(exchange: Exchange): string[] {
  if (!contract) return [];
  const c = contract;
  const operation = c.operationOf(exchange.method, exchange.url, exchange.routePattern);
  const found: string[] = [];
  if (!operation) {
    // Not a documented operation (the document itself, /docs, the dashboard, metrics, an unknown route): only
    // the API's answers to unknown routes and methods are held to error_payload.
    if ((exchange.status === 404 || exchange.status === 405) && exchange.url.startsWith('/v2/')) {
      const body = parseBody(exchange);
      const validate = c.validator('#/components/schemas/error_payload');
      if (body === undefined || !validate(body)) found.push(`${exchange.method} ${exchange.url} ${exchange.status}: not an error_payload`);
    }
    mismatches.push(...found);
    return found;
  }
  const name = `${operation.id} (${operation.method} ${operation.path})`;
  counts.set(operation.id, (counts.get(operation.id) ?? 0) + 1);
  const status = String(exchange.status);
  const declared = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (!declared) {
    found.push(`${name}: status ${status} is not declared`);
  } else {
    const statusKey = status in operation.responses ? status : `${status[0]}XX` in operation.responses ? `${status[0]}XX` : 'default';
    const { response, pointer } = c.resolveResponse(declared, `${operation.pointer}/responses/${escapePointer(statusKey)}`);
    found.push(...checkResponse(c, name, status, response, pointer, exchange));
  }
  if (exchange.status >= 200 && exchange.status < 300) found.push(...checkRequest(c, name, operation, exchange));
  mismatches.push(...found);
  return found;
}

function parseBody(exchange: Exchange): unknown {
  const text = exchange.responseBody === undefined ? '' : exchange.responseBody.toString();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function checkResponse(c: Contract, name: string, status: string, response: Json, pointer: string, exchange: Exchange): string[] {
  const found: string[] = [];
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  const hasBody = exchange.responseBody === undefined || exchange.responseBody.length > 0;
  if (exchange.method !== 'HEAD' && hasBody) {
    const type = mediaType(exchange.responseHeaders['content-type']);
    const entry = contentFor(content, type);
    if (!entry) {
      found.push(
        `${name} ${status}: content type ${type || '(none)'} is not declared (${Object.keys(content ?? {}).join(', ') || 'no content'})`,
      );
    } else if (isJson(type) && entry[1].schema && exchange.responseBody !== undefined) {
      const body = parseBody(exchange);
      const validate = c.validator(`${pointer}/content/${escapePointer(entry[0])}/schema`);
      if (body === undefined) found.push(`${name} ${status}: the body is not JSON`);
      else if (!validate(body)) found.push(`${name} ${status}: body ${c.errorsOf(validate)}`);
    }
  }
  const headers = (response.headers ?? {}) as Record<string, { required?: boolean; schema?: Json }>;
  for (const [header, spec] of Object.entries(headers)) {
    const value = exchange.responseHeaders[header.toLowerCase()];
    if (value === undefined) {
      if (spec.required) found.push(`${name} ${status}: required header ${header} missing`);
      continue;
    }
    const validate = c.validator(`${pointer}/headers/${escapePointer(header)}/schema`);
    if (spec.schema && !validate(String(value))) found.push(`${name} ${status}: header ${header} ${c.errorsOf(validate)}`);
  }
  return found;
}

/** A parameter's text value coerced to its schema's type, as a document-reading validator would. */
function coerce(value: unknown, schema: Json | undefined): unknown {
  const types = ([] as unknown[]).concat(schema?.type ?? []);
  if (typeof value !== 'string') return value;
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function checkRequest(c: Contract, name: string, operation: Operation, exchange: Exchange): string[] {
  const found: string[] = [];
  const [pathname = '', search = ''] = exchange.url.split(/\?(.*)/s);
  const query = parseQuery(search);
  const pathValues = pathValuesOf(operation.path, pathname);
  operation.parameters.forEach((parameter, i) => {
    const raw =
      parameter.in === 'query'
        ? query[parameter.name]
        : parameter.in === 'path'
          ? pathValues[parameter.name]
          : parameter.in === 'header'
            ? exchange.requestHeaders[parameter.name.toLowerCase()]
            : undefined;
    if (raw === undefined) {
      if (parameter.required) found.push(`${name}: answered 2xx without the required ${parameter.in} parameter ${parameter.name}`);
      return;
    }
    const validate = c.validator(`${operation.pointer}/parameters/${i}/schema`);
    if (parameter.schema && !validate(coerce(raw, parameter.schema))) {
      found.push(`${name}: answered 2xx to an invalid ${parameter.in} parameter ${parameter.name}: ${c.errorsOf(validate)}`);
    }
  });
  const body = exchange.requestBody;
  const contentType = mediaType(exchange.requestHeaders['content-type']);
  // A body the handler reads itself (an upload, streamed) is not in request.body: its headers tell; with a
  // Content-Type, even an empty one is a body (an empty file).
  const length = Number(exchange.requestHeaders['content-length'] ?? 0);
  const streamed =
    exchange.requestHeaders['transfer-encoding'] !== undefined || length > 0 || (contentType !== '' && operation.requestBody !== undefined);
  const present = body === undefined ? streamed : body !== null && !(Buffer.isBuffer(body) && body.length === 0);
  if (!operation.requestBody) {
    // An empty object carries nothing: the service takes it as no body (docs/behaviour.md §2).
    const empty = typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && Object.keys(body).length === 0;
    if (present && !empty) found.push(`${name}: answered 2xx to a body, but the operation declares none`);
    return found;
  }
  if (!present) {
    if (operation.requestBody.required) found.push(`${name}: answered 2xx without the required body`);
    return found;
  }
  const entry = contentFor(operation.requestBody.content, contentType);
  if (!entry) {
    found.push(`${name}: answered 2xx to a body of undeclared type ${contentType || '(none)'}`);
  } else if (
    (isJson(contentType) || contentType === 'application/x-www-form-urlencoded') &&
    entry[1].schema &&
    body !== undefined &&
    !Buffer.isBuffer(body)
  ) {
    const validate = c.validator(`${operation.pointer}/requestBody/content/${escapePointer(entry[0])}/schema`);
    if (!validate(body)) found.push(`${name}: answered 2xx to an invalid body: ${c.errorsOf(validate)}`);
  }
  return found;
}

function pathValuesOf(template: string, pathname: string): Record<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  const out: Record<string, string> = {};
  names.forEach((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    const value = values[i];
    if (name !== undefined && value !== undefined) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        out[name] = value;
      }
    }
  });
  return out;
}

/** Mismatches found outside this module (Prism's, src/test/prism.ts), failing the test app's close() like its own. */
export function recordMismatches(found: string[]): void {
  mismatches.push(...found);
}

/** Mismatches found so far in this process, cleared: a test app's close() fails on them. */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

/** This process's counts, appended for scripts/test.mjs (one file per process). */
function writeCounts(): void {
  if (!contract) return;
  const dir = path.resolve('test-output', 'contract');
  mkdirSync(dir, { recursive: true });
  const engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';
  writeFileSync(
    path.join(dir, `${engine}-${process.pid}.json`),
    JSON.stringify({ operations: contract.operations.map((op) => op.id), counts: Object.fromEntries(counts) }),
  );
}

const HIJACK_CAPTURE = Symbol('contract capture');

interface Captured {
  checked: boolean;
  status?: number;
  headers?: Record<string, unknown>;
}

/**
 * Checks every exchange of `app` (added before it is ready): replies sent through Fastify in onSend,
 * hijacked ones (event streams) from what they wrote when their connection ends.
 */
export function installContractCheck(app: FastifyInstance): void {
  const exchangeOf = (
    request: FastifyRequest,
    status: number,
    responseHeaders: Record<string, unknown>,
    responseBody?: string | Buffer,
  ): Exchange => ({
    method: request.method,
    url: request.url,
    requestHeaders: request.headers,
    requestBody: request.body,
    routePattern: request.routeOptions.url,
    status,
    responseHeaders,
    responseBody,
  });

  app.addHook('onRequest', async (request, reply) => {
    const captured: Captured = { checked: false };
    (request as unknown as Record<symbol, Captured>)[HIJACK_CAPTURE] = captured;
    const raw = reply.raw as ServerResponse;
    const writeHead = raw.writeHead.bind(raw) as (...args: unknown[]) => ServerResponse;
    (raw as unknown as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args: unknown[]) => {
      const [status, ...rest] = args;
      const given = rest.find((arg) => typeof arg === 'object' && arg !== null) as Record<string, unknown> | undefined;
      captured.status = Number(status);
      captured.headers = {
        ...Object.fromEntries(Object.entries(raw.getHeaders())),
        ...Object.fromEntries(Object.entries(given ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      };
      return writeHead(...args);
    };
    raw.once('close', () => {
      if (captured.checked || captured.status === undefined || !reply.sent) return;
      captured.checked = true;
      checkExchange(exchangeOf(request, captured.status, captured.headers ?? {}));
    });
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const captured = (request as unknown as Record<symbol, Captured | undefined>)[HIJACK_CAPTURE];
    if (captured) captured.checked = true;
    const body =
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload === null || payload === undefined ? '' : undefined;
    checkExchange(exchangeOf(request, reply.statusCode, reply.getHeaders() as Record<string, unknown>, body));
    return payload;
  });
}

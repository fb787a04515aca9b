/**
 * Test helpers over the app's own OpenAPI document (used by the fuzz and tenancy
 * tests), so operations added later are covered without editing the tests.
 */
import assert from 'node:assert/strict';
import type { TestApp, Reply } from './harness.ts';
import { ERROR_CODES } from '../http/errors.ts';

/** The parts of an OpenAPI schema object these tests read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export interface Operation {
  method: string;
  /** The OpenAPI path, `/v2/agents/{id}`. */
  path: string;
  name: string;
  /** The bearer scope; undefined on public and legacy routes. */
  scope?: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  /** The JSON body schema, when the operation takes one. */
  body?: JsonSchema;
}

interface OpenApiOperation {
  security?: { bearer?: string[] }[];
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

/**
 * `doc` with every `#/components/schemas/` reference replaced by the schema it names,
 * so tests walking schemas see the named ones (conversation, message, ...) too.
 */
export function dereference<T>(doc: T): T {
  const schemas = (doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  const resolve = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (seen.includes(name)) throw new Error(`recursive schema ${name}`);
      return resolve(schemas[name], [...seen, name]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, seen)]));
  };
  return resolve(doc, []) as T;
}

/** Every operation of the OpenAPI document the app serves. */
export function operationsOf(t: TestApp): Operation[] {
  const doc = dereference(t.app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> });
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const parameters = op.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        scope: op.security?.[0]?.bearer?.[0],
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map(({ name, schema }) => ({ name, schema })),
        // An operation taking no body declares an optional empty one (src/http/error-handler.ts EMPTY_BODY).
        body: op.requestBody?.required === false ? undefined : op.requestBody?.content?.['application/json']?.schema,
      };
    }),
  );
}

/** The legacy export answers errors in its own shape (docs/behaviour.md §1 and §7). */
export const isLegacy = (path: string) => path.startsWith('/stats/');

/** Asserts `res` is an error answer in the shape its route promises: error_payload, or the legacy one. */
export function assertErrorBody(path: string, res: Reply, where: string): void {
  assert.match(String(res.headers['content-type']), /^application\/json/, `${where}: content type`);
  const body = res.body;
  if (isLegacy(path)) {
    assert.equal(body?.success, false, `${where}: ${JSON.stringify(body)}`);
    assert.deepEqual(Object.keys(body).sort(), ['error', 'success'], where);
    assert.ok((ERROR_CODES as readonly string[]).includes(body.error?.code), `${where}: code ${body.error?.code}`);
    assert.equal(typeof body.error.message, 'string', where);
    return;
  }
  assert.ok((ERROR_CODES as readonly string[]).includes(body?.code), `${where}: code in ${JSON.stringify(body)}`);
  assert.equal(typeof body.message, 'string', `${where}: message`);
  for (const key of Object.keys(body)) assert.ok(['code', 'message', 'errors', 'request_id'].includes(key), `${where}: key ${key}`);
  if (body.errors === undefined) return;
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0, `${where}: errors ${JSON.stringify(body.errors)}`);
  for (const item of body.errors) {
    assert.deepEqual(Object.keys(item).sort(), ['code', 'location', 'message', 'path'], `${where}: item ${JSON.stringify(item)}`);
    assert.ok(typeof item.path === 'string' && typeof item.code === 'string' && typeof item.message === 'string', where);
    assert.ok(['body', 'query', 'path'].includes(item.location), `${where}: location ${item.location}`);
  }
}

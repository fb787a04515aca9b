/**
 * The OpenAPI document describes every field (issue 2) of the foundation,
 * management and events operations: request bodies, parameters and responses.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './test/harness.ts';
import { dereference } from './test/openapi-operations.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const FOUNDATION_PATHS = /^\/(healthz|readyz|v2\/(agents|account|tokens|groups|tags|bots|contacts|events|webhooks))\b/;

interface JsonSchema {
  description?: string;
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/** Dotted paths of the properties under `schema` that have no description. */
function undescribed(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema || schema.$ref) return [];
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
    ...(property.description || property.$ref ? [] : [`${at}.${name}`]),
    ...undescribed(property, `${at}.${name}`),
  ]);
  return [...own, ...undescribed(schema.items, `${at}[]`), ...(schema.anyOf ?? []).flatMap((branch) => undescribed(branch, at))];
}

describe('OpenAPI field descriptions', () => {
  it('describe every field of the foundation, management and events operations', async () => {
    const doc = dereference((await t.client().get('/v2/openapi.json')).body) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string; description?: string; schema?: JsonSchema }[];
            requestBody?: { content: Record<string, { schema: JsonSchema }> };
            responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
          }
        >
      >;
      components: { schemas: Record<string, JsonSchema> };
    };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!FOUNDATION_PATHS.test(path)) continue;
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) if (!p.description && !p.schema?.description) missing.push(`${where} ${p.in} ${p.name}`);
        missing.push(...undescribed(op.requestBody?.content['application/json']?.schema, `${where} body`));
        for (const [status, response] of Object.entries(op.responses)) {
          missing.push(...undescribed(response.content?.['application/json']?.schema, `${where} ${status}`));
        }
      }
    }
    missing.push(...undescribed(doc.components.schemas.error_payload, 'error_payload'));
    assert.ok(operations >= 30, `found ${operations} operations`);
    assert.deepEqual(missing, []);
  });
});

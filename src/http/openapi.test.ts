import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is arbitrary JSON
let doc: any;
before(async () => {
  t = await startTestApp();
  const res = await t.client().get('/v2/openapi.json');
  assert.equal(res.status, 200);
  doc = res.body;
});
after(() => t.close());

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** `redocly lint` (the devDependency's CLI, with redocly.yaml) over `document`: its problems. */
async function lint(document: unknown): Promise<Problem[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
    // The CLI exits 1 when it finds errors; its JSON report is on stdout either way.
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', 'redocly.yaml', '--format=json'], {
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return (JSON.parse(stdout) as { problems: Problem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const operations = () =>
  Object.entries<Record<string, Record<string, unknown>>>(doc.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${route}`, op })),
  );

describe('the served OpenAPI document', () => {
  it('passes redocly lint with no error and no warning beyond the rules redocly.yaml turns off', async () => {
    const problems = await lint(doc);
    assert.deepEqual(
      problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`),
      [],
    );
  });

  it('the lint test fails on a broken document', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/v2/agents'].get.operationId;
    broken.paths['/v2/agents'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/nowhere' };
    const rules = new Set((await lint(broken)).map((p) => p.ruleId));
    for (const rule of ['no-unresolved-refs', 'operation-operationId']) assert.ok(rules.has(rule), rule);
  });

  it('names every operation with a unique camelCase operationId', () => {
    const ids = operations().map(({ name, op }) => {
      assert.match(String(op.operationId), /^[a-z][a-zA-Z]+$/, name);
      return op.operationId;
    });
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(doc.paths['/v2/conversations'].post.operationId, 'createConversation');
    assert.equal(doc.paths['/v2/statistics'].post.operationId, 'getStatistics');
  });

  it('references named component schemas instead of inlining a copy per response', () => {
    for (const name of ['conversation', 'message', 'contact', 'agent', 'error_payload', 'statistics_response']) {
      assert.ok(doc.components.schemas[name], name);
    }
    const schemaOf = (route: string, method: string) => doc.paths[route][method].responses['200'].content['application/json'].schema;
    assert.deepEqual(schemaOf('/v2/conversations', 'post'), { $ref: '#/components/schemas/conversation' });
    assert.deepEqual(schemaOf('/v2/conversations/{id}/rating', 'post'), { $ref: '#/components/schemas/conversation' });
    assert.deepEqual(schemaOf('/v2/contacts/{id}', 'get'), { $ref: '#/components/schemas/contact' });
    // Every named schema is referenced, none copied into an operation.
    const inlined: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (typeof (node as { title?: unknown }).title === 'string') inlined.push(`${at}: ${(node as { title: string }).title}`);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc.paths, '#/paths');
    assert.deepEqual(inlined, []);
  });

  it('describes every response', () => {
    for (const { name, op } of operations()) {
      for (const [status, given] of Object.entries<{ description: string; $ref?: string }>(op.responses as never)) {
        const response = given.$ref ? doc.components.responses[given.$ref.split('/').pop() as string] : given;
        assert.ok(response.description && response.description !== 'Default Response', `${name} ${status}`);
      }
    }
  });

  it('describes every operation', () => {
    assert.deepEqual(
      operations()
        .filter(({ op }) => typeof op.description !== 'string' || op.description.length < 20)
        .map(({ name }) => name),
      [],
    );
  });

  it('admits null in the enum of every nullable enum (a strict client refuses a null the enum lacks)', () => {
    const lacking: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { type?: unknown; enum?: unknown[] };
      if (Array.isArray(schema.type) && schema.type.includes('null') && schema.enum && !schema.enum.includes(null)) lacking.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    assert.deepEqual(lacking, []);
    assert.deepEqual(doc.components.schemas.conversation.properties.close_type.enum, ['agent', 'contact', 'inactivity', null]);
  });

  it('declares 405, 408 and 431 on every operation, 414 where a path parameter can be over-long, and 422 on every /v2 and /widget/v1 one', () => {
    for (const { name, op } of operations()) {
      const responses = op.responses as Record<string, { $ref?: string }>;
      for (const status of ['405', '408', '431']) assert.ok(responses[status]?.$ref, `${name} ${status}`);
      assert.equal(responses['414'] !== undefined, name.includes('{'), `${name} 414`);
      // The fuzz test found GET /v2/bots answering an undeclared 422 (a GET with a JSON body).
      const api = name.includes(' /v2/') || name.includes(' /widget/v1/');
      assert.equal(responses['422'] !== undefined, api, `${name} 422`);
      if (api) assert.ok(responses['503'], `${name} 503`);
    }
    assert.deepEqual(Object.keys(doc.components.responses).sort(), [
      'headers_too_large',
      'invalid_arguments',
      'method_not_allowed',
      'request_timeout',
      'service_unavailable',
      'uri_too_long',
    ]);
  });

  it('declares an optional empty body and the body statuses on operations without a body, which refuse one', () => {
    type Body = { required?: boolean; content?: Record<string, { schema?: { $ref?: string } }> };
    for (const name of ['POST /v2/agents/{id}/ping', 'PATCH /v2/conversations/{id}/close', 'DELETE /v2/tags/{id}']) {
      const { op } = operations().find((o) => o.name === name) as unknown as { op: { responses: object; requestBody?: Body } };
      assert.deepEqual(
        [op.requestBody?.required, Object.keys(op.requestBody?.content ?? {}), op.requestBody?.content?.['application/json']!.schema?.$ref],
        [false, ['application/json'], '#/components/schemas/empty_body'],
        name,
      );
      for (const status of ['400', '413', '415', '422']) assert.ok(status in op.responses, `${name} ${status}`);
    }
  });

  it('says what the service checks: download types, the Idempotency-Key, webhook urls, stream types and Last-Event-ID', () => {
    assert.deepEqual(Object.keys(doc.paths['/v2/uploads/{id}/content'].get.responses['200'].content), ['application/json', '*/*']);
    const key = doc.paths['/v2/contacts'].post.parameters.find((p: { name: string }) => p.name === 'idempotency-key');
    assert.deepEqual([key.schema.minLength, key.schema.maxLength, key.schema.pattern], [1, 255, '^[\\x21-\\x7e]+$']);
    const url = doc.paths['/v2/webhooks'].post.requestBody.content['application/json'].schema.properties.url;
    assert.equal(url.pattern, '^[Hh][Tt][Tt][Pp][Ss]?://');
    const stream = doc.paths['/v2/events'].get.parameters as { name: string; in: string; schema: { pattern: string } }[];
    const types = new RegExp(stream.find((p) => p.name === 'types')!.schema.pattern);
    assert.ok(types.test('conversation.opened, agent.updated') && !types.test('conversation.opened,nope'));
    assert.ok(stream.some((p) => p.in === 'header' && p.name === 'last-event-id'));
  });

  it('documents the legacy POST bodies as the export reads them: null values, the apiKey, unknown parameters', () => {
    for (const route of ['/stats/totals', '/stats/overview', '/stats/agents']) {
      const operation = doc.paths[route].post;
      const schema = operation.requestBody.content['application/json'].schema;
      assert.notEqual(schema.additionalProperties, false, route);
      for (const name of ['apiKey', 'from', 'to', 'group'])
        assert.deepEqual(schema.properties[name].type, ['string', 'null'], `${route} ${name}`);
      assert.deepEqual(operation.security.at(-1), {}, route);
    }
  });

  it('leaves query parameters with a default optional', () => {
    const parameters = operations().flatMap(({ name, op }) =>
      ((op.parameters ?? []) as { in: string; name: string; required?: boolean; schema: { default?: unknown } }[]).map((p) => ({
        ...p,
        where: name,
      })),
    );
    const defaulted = parameters.filter((p) => p.in === 'query' && p.schema.default !== undefined);
    assert.ok(defaulted.some((p) => p.where === 'POST /v2/statistics' && p.name === 'timezone'));
    for (const p of defaulted) assert.equal(p.required, false, `${p.where} ${p.name}`);
  });

  it('leaves request body properties with a default optional (the validator fills them in)', () => {
    const requiredDefaults: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { properties?: Record<string, { default?: unknown }>; required?: unknown };
      for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : [])
        if (schema.properties?.[name]?.default !== undefined) requiredDefaults.push(`${where} ${name}`);
      for (const [key, value] of Object.entries(node)) if (key !== 'default' && key !== 'example') walk(value, `${where}/${key}`);
    };
    const bodies = operations().map(({ name, op }) => ({ name, body: (op as { requestBody?: unknown }).requestBody }));
    for (const { name, body } of bodies) walk(body, name);
    assert.deepEqual(requiredDefaults, []);
    const rotate = bodies.find(({ name }) => name === 'POST /v2/webhooks/{id}/secret/rotate')?.body as {
      content: { 'application/json': { schema: { properties: Record<string, unknown>; required?: string[] } } };
    };
    assert.ok(rotate.content['application/json'].schema.properties.overlap_seconds);
    assert.equal(rotate.content['application/json'].schema.required, undefined);
  });

  it('documents the upload as multipart or raw (a JSON file as any JSON), and the legacy POSTs as form or JSON', () => {
    const upload = doc.paths['/v2/uploads'].post.requestBody.content;
    assert.deepEqual(Object.keys(upload).sort(), ['*/*', 'application/json', 'multipart/form-data']);
    assert.equal(upload['application/json'].schema.type, undefined);
    assert.deepEqual(upload['multipart/form-data'].schema.required, ['file']);
    assert.equal(upload['multipart/form-data'].schema.properties.file.format, 'binary');
    assert.equal(upload['*/*'].schema.format, 'binary');
    for (const route of ['/stats/totals', '/stats/overview', '/stats/agents']) {
      const content = doc.paths[route].post.requestBody.content;
      assert.deepEqual(Object.keys(content).sort(), ['application/json', 'application/x-www-form-urlencoded'], route);
      assert.deepEqual(content['application/x-www-form-urlencoded'].schema, content['application/json'].schema, route);
    }
  });

  it('documents text/html and messages of a new conversation as exclusive alternatives', () => {
    const schema = doc.paths['/v2/conversations'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.oneOf, [
      { properties: { messages: false } },
      { properties: { text: false, html: false }, required: ['messages'] },
    ]);
  });
});

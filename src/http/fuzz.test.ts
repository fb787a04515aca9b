/**
 * Hostile input on every operation of the OpenAPI document, with a valid
 * all-scopes token: never a 5xx, and every 4xx is a well-formed error body.
 * Bodies are mostly built from the operation's own schema with hostile leaves (so
 * they get past validation into the services), sometimes arbitrary JSON; ids and
 * string fields are often the ids of real resources of the caller's account.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type Reply, type TestAccount, type TestApp } from '../test/harness.ts';
import { MAX_NESTING } from './validation.ts';
import { assertErrorBody, isLegacy, operationsOf, type JsonSchema, type Operation } from '../test/openapi-operations.ts';

const RUNS = 25;

let t: TestApp;
let account: TestAccount;
/** Ids and keys of real resources of `account`, offered wherever a string goes. */
let known: string[];

before(async () => {
  t = await startTestApp();
  account = await t.account();
  const api = t.client(account.token);
  const created = async (url: string, body: unknown) => {
    const res = await api.post(url, body);
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const agent = await created('/v2/agents', { email: 'fuzz-agent@example.com' });
  const group = await created('/v2/groups', { name: 'fuzz group' });
  const tag = await created('/v2/tags', { name: 'fuzz-tag' });
  const bot = await created('/v2/bots', { name: 'fuzz bot' });
  const contact = await created('/v2/contacts', { email: 'fuzz@example.com', identity_id: 'fuzz-identity' });
  const conversation = await created('/v2/conversations', { contact_id: contact.id, text: 'hello', ext_id: 'fuzz-ext' });
  await created(`/v2/conversations/${conversation.id}/paths`, { url: 'https://fuzz.example.com/a' });
  const upload = await api.request({
    method: 'POST',
    url: '/v2/uploads?file_name=a.txt',
    payload: 'hi',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(upload.status, 200);
  const webhook = await created('/v2/webhooks', { url: 'https://93.184.215.14/in' });
  const token = await created('/v2/tokens', { name: 'fuzz', scopes: ['agents:read'] });
  known = [agent.id, agent.email, group.id, tag.id, tag.name, bot.id, contact.id, contact.email, conversation.id, 'fuzz-ext'];
  known.push(upload.body.token, webhook.id, token.id, account.apiKey);
});
after(() => t.close());

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '..',
  '../../etc/passwd',
  "' OR '1'='1' --",
  '1; drop table conversations; --',
  '%00',
  '%',
  '\\',
  '𝕏🙂\u200d\u202e',
  '\ud800',
  '<script>alert(1)</script>',
  '2024-02-30',
  '9999-12-31',
  '0000-01-01',
  '-1',
  '1e308',
  'null',
  'x'.repeat(70_000),
];

const hostileScalar = fc.oneof(
  fc.constantFrom<unknown>(
    ...HOSTILE_STRINGS,
    1e308,
    -1e308,
    Infinity,
    -Infinity,
    -0,
    -1,
    0.5,
    2 ** 53 + 2,
    Number.MIN_VALUE,
    true,
    false,
    null,
    [],
    {},
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double({ noNaN: true }),
  fc.integer(),
);

const knownString = () => fc.constantFrom(...known);

/** A string for `schema`: often a real id or key, a value of its format, or a hostile one. */
function stringFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const max = Math.min(schema.maxLength ?? 300, 300);
  const plain = fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: max });
  const byFormat: fc.Arbitrary<unknown>[] = [];
  if (schema.format === 'email') byFormat.push(fc.emailAddress());
  if (schema.format === 'uri' || schema.pattern?.includes('[hH][tT]')) byFormat.push(fc.webUrl({ withQueryParameters: true }));
  if (schema.format === 'date-time') byFormat.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  if (schema.pattern?.includes('[0-9]{2}-[0-9]{2}'))
    byFormat.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (schema.pattern?.includes('[0-9]{1,18}')) byFormat.push(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }).map(String));
  return fc.oneof(plain, knownString(), ...byFormat, ...byFormat);
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? -1e6;
  const max = Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
  const edges = fc.constantFrom(min, max, min - 1, max + 1, 0, -0);
  return fc.oneof(
    integer ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) : fc.double({ min, max, noNaN: true }),
    edges,
  );
}

/** A value shaped like `schema`, with a hostile value in place of any part now and then. */
function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedFor(schema, depth);
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: hostileScalar });
}

function shapedFor(schema: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((branch) => shapedFor(branch, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectFor(schema, depth) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringFor(schema);
        case 'integer':
          return numberFor(schema, true);
        case 'number':
          return numberFor(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(valueFor(schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
        default:
          return objectFor(schema, depth);
      }
    }),
  );
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueFor(property, depth + 1)])),
    { requiredKeys: (schema.required ?? []).filter((name) => name in properties) },
  );
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(fc.oneof(fc.string({ maxLength: 70 }), knownString()), valueFor(schema.additionalProperties, depth + 1), {
          maxKeys: 4,
        })
      : fc.oneof(
          fc.constant({}),
          fc.constant({}),
          fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
        );
  return fc.tuple(extra, record).map(([more, base]) => ({ ...more, ...base }));
}

/** JSON text that can also carry `-0` and out-of-range numbers (JSON.stringify cannot). */
function toJsonText(value: unknown): string {
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0';
    if (!Number.isFinite(value)) return value > 0 ? '1e999' : '-1e999';
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A lone surrogate cannot be percent-encoded (URLs are UTF-8): it goes as U+FFFD, as a browser would send it. */
const encode = (value: string) => encodeURIComponent(value.replace(/\p{Surrogate}/gu, '\ufffd'));

const HOSTILE_IDS = [
  '..',
  '%2e%2e',
  '%00',
  'a%00b',
  '%',
  '%zz',
  "1'%20OR%20'1'%3D'1",
  '1;drop%20table%20agents',
  'x'.repeat(300),
  '%F0%9F%99%82',
  '0',
  '-1',
  '9'.repeat(30),
];

const pathId = () =>
  fc.oneof(
    knownString().map(encodeURIComponent),
    fc.constantFrom(...HOSTILE_IDS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map(encodeURIComponent),
  );

/** A query string: the operation's parameters (often hostile, repeated, empty or as arrays) and unknown ones. */
function queryFor(op: Operation): fc.Arbitrary<string> {
  const parameter = (name: string, schema: JsonSchema) =>
    fc.oneof(
      valueFor(schema).map((value) => [`${name}=${encode(typeof value === 'string' ? value : toJsonText(value))}`]),
      fc.array(stringFor(schema), { minLength: 2, maxLength: 3 }).map((values) => values.map((v) => `${name}=${encode(String(v))}`)),
      fc.constantFrom(
        [`${name}=`],
        [name],
        [`${name}[]=a`],
        [`${name}[a]=1`],
        [`${name}=${'9'.repeat(5000)}`],
        [`${name}=%`],
        [`${name}=%E0%A4%A`],
      ),
    );
  const declared = op.query.map(({ name, schema }) => fc.option(parameter(name, schema), { freq: 3 }));
  const unknown = fc.option(parameter('zz', {}), { freq: 4 });
  // The legacy export authenticates by apiKey: usually send the real one, so the parameters are what gets checked.
  const apiKey = isLegacy(op.path) ? fc.option(fc.constant([`apiKey=${account.apiKey}`]), { freq: 8 }) : fc.constant(null);
  return fc.tuple(apiKey, unknown, ...declared).map((parts) => {
    const pairs = parts.flatMap((part) => part ?? []);
    return pairs.length > 0 ? `?${pairs.join('&')}` : '';
  });
}

interface Input {
  url: string;
  /** JSON text: fast-check never holds the deep documents as values (it would recurse through them). */
  body?: string;
}

/** JSON documents of the awkward kinds: too deep, very wide, odd scalars. */
const wildJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map(toJsonText),
  fc.constantFrom(MAX_NESTING, MAX_NESTING + 1, 10_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom(MAX_NESTING, 10_000).map((depth) => '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth)),
  fc.constant(`[${'0,'.repeat(200_000)}0]`),
  hostileScalar.map(toJsonText),
);

function inputFor(op: Operation): fc.Arbitrary<Input> {
  const ids = fc.tuple(...op.pathParams.map(() => pathId()));
  const url = fc
    .tuple(ids, queryFor(op))
    .map(([values, query]) => op.pathParams.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), op.path) + query);
  if (op.method === 'GET' || op.method === 'DELETE') return url.map((u) => ({ url: u }));
  const body = fc.oneof({ weight: 4, arbitrary: valueFor(op.body).map(toJsonText) }, { weight: 1, arbitrary: wildJson });
  return fc.record({ url, body });
}

async function send(op: Operation, input: Input): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${account.token}` };
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  if (op.path !== '/v2/events') return t.client().request({ method: op.method, url: input.url, payload: input.body, headers });
  // The event stream never ends by itself: take the status and headers, then hang up.
  const raw = await t.app.inject({ method: 'GET', url: input.url, headers, payloadAsStream: true });
  const stream = raw.stream();
  const text = raw.statusCode === 200 ? '' : await new Response(stream as never).text();
  if (raw.statusCode === 200) (raw.raw.res as unknown as { destroy(): void }).destroy();
  const body = text && String(raw.headers['content-type']).includes('json') ? JSON.parse(text) : text;
  return { status: raw.statusCode, body, headers: raw.headers, raw };
}

describe('hostile input on every operation', () => {
  it('finds the operations of the OpenAPI document', () => {
    const names = operationsOf(t).map((op) => op.name);
    assert.ok(names.length >= 40, `only ${names.length}`);
    for (const name of ['POST /v2/conversations', 'GET /v2/events', 'GET /stats/totals', 'POST /v2/statistics'])
      assert.ok(names.includes(name), name);
  });

  it('never answers 5xx; every 4xx is a well-formed error body', async () => {
    const failures: string[] = [];
    for (const op of operationsOf(t)) {
      try {
        await fc.assert(
          fc.asyncProperty(inputFor(op), async (input) => {
            const res = await send(op, input);
            const where = `${op.name} ${input.url.slice(0, 200)} ${input.body?.slice(0, 300) ?? ''}`;
            assert.ok(res.status < 500, `${where}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
            if (res.status >= 400) assertErrorBody(op.path, res, `${where}: ${res.status}`);
          }),
          { numRuns: RUNS },
        );
      } catch (error) {
        failures.push(`${op.name}: ${(error as Error).message.replace(/\nHint:[^]*?(?=\nGot|$)/, '').slice(0, 1500)}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});

describe('what the fuzzing found', () => {
  it('answers a path with malformed percent-encoding as 400 bad_request (the router answered its own body)', async () => {
    for (const url of ['/v2/agents/%zz', '/v2/conversations/%/messages', '/v2/webhooks/%E0%A4%A/deliveries']) {
      const res = await t.client(account.token).get(url);
      assert.equal(res.status, 400, url);
      assert.deepEqual(res.body, { code: 'bad_request', message: 'The URL is not valid: malformed percent-encoding in the path' });
    }
  });

  it('validates a long path id as 422 maxLength instead of the router answering 414', async () => {
    const res = await t.client(account.token).get(`/v2/contacts/${'c'.repeat(300)}`);
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors, [
      { path: 'id', code: 'maxLength', message: 'id must NOT have more than 64 characters', location: 'path' },
    ]);
    const beyond = await t.client(account.token).get(`/v2/contacts/${'c'.repeat(3000)}`);
    assert.equal(beyond.status, 414);
    assert.equal(beyond.body.code, 'bad_request');
  });

  it(`refuses JSON nested deeper than ${MAX_NESTING} levels as 422, and stores nothing (it overflowed the stack: 500)`, async () => {
    const owner = await t.account();
    const api = t.client(owner.token);
    const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const post = (url: string, payload: string) =>
      api.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
    const bot = await post('/v2/bots', `{"name":"b","trigger":{"conditions":{"x":${deep(5000)}}}}`);
    assert.equal(bot.status, 422);
    assert.deepEqual(bot.body.errors, [
      {
        path: `trigger.conditions.x${'.a'.repeat(MAX_NESTING - 3)}`,
        code: 'maxDepth',
        message: `trigger.conditions.x${'.a'.repeat(MAX_NESTING - 3)} must not be nested deeper than ${MAX_NESTING} levels`,
        location: 'body',
      },
    ]);
    assert.deepEqual((await api.get('/v2/bots')).body, { bots: [] });
    const atLimit = await post('/v2/bots', `{"name":"b","trigger":{"conditions":{"x":${deep(MAX_NESTING - 3)}}}}`);
    assert.equal(atLimit.status, 200);
    const contact = await post('/v2/contacts', '['.repeat(10_000) + ']'.repeat(10_000));
    assert.deepEqual([contact.status, contact.body.errors[0].code], [422, 'maxDepth']);
    const wide = await post('/v2/contacts', `[${'0,'.repeat(200_000)}0]`);
    assert.deepEqual([wide.status, wide.body.code], [422, 'invalid_arguments']);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../app.ts';
import { openDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { SCOPES } from '../auth/scopes.ts';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';

let t: TestApp;
let account: TestAccount;
before(async () => {
  t = await startTestApp();
  account = await t.account();
});
after(() => t.close());

const paths = (errors: { path: string; code: string; location: string }[]) => errors.map((e) => [e.path, e.code, e.location]);

async function contactCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>('select count(*) as n from contacts where account_id = $1', [account.accountId]);
  return rows[0]!.n;
}

describe('request errors common to every route', () => {
  it('answers malformed JSON with 400 bad_request and changes nothing', async () => {
    const res = await t.client(account.token).request({
      method: 'POST',
      url: '/v2/contacts',
      payload: '{"name": "Ann",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'bad_request');
    assert.match(res.body.message, /not valid JSON/);
    assert.equal(await contactCount(), 0);
  });

  it('checks the token before parsing: malformed JSON without a token is 401', async () => {
    const res = await t
      .client()
      .request({ method: 'POST', url: '/v2/contacts', payload: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 401);
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const res = await t.client(account.token).post('/v2/contacts', { name: 'x'.repeat(1024 * 1024) });
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'payload_too_large');
    assert.equal(await contactCount(), 0);
  });

  it('answers another content type on a JSON route with 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await t
        .client(account.token)
        .request({ method: 'POST', url: '/v2/contacts', payload: 'name=Ann', headers: { 'content-type': type } });
      assert.equal(res.status, 415, type);
      assert.equal(res.body.code, 'unsupported_media_type');
    }
    assert.equal(await contactCount(), 0);
  });

  it('answers an unknown route with 404 not_found', async () => {
    for (const url of ['/v2/nothing-here', '/v3/agents', '/']) {
      const res = await t.client(account.token).get(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(res.body, { code: 'not_found', message: `Route GET ${url} not found` });
    }
  });

  it('answers a wrong method on a known path with 405 method_not_allowed and an Allow header', async () => {
    const res = await t.client(account.token).request({ method: 'PUT', url: '/v2/agents' });
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'method_not_allowed');
    const allowed = String(res.headers.allow).split(', ');
    assert.ok(allowed.includes('GET') && allowed.includes('POST'), String(res.headers.allow));
    assert.ok(!allowed.includes('PUT'));
    const withParam = await t.client(account.token).request({ method: 'POST', url: '/v2/contacts/ct123' });
    assert.equal(withParam.status, 405);
    assert.match(String(withParam.headers.allow), /GET/);
  });

  it('refuses a body sent to an operation that takes none (422 per property, 415 for another type), and changes nothing', async () => {
    const client = t.client(account.token);
    const agent = await client.post('/v2/agents', { email: 'bodyless@example.com' });
    const pinged = await client.post(`/v2/agents/${agent.body.id}/ping`, { x: 1 });
    assert.equal(pinged.status, 422);
    assert.deepEqual(paths(pinged.body.errors), [['x', 'additionalProperties', 'body']]);
    assert.equal((await client.get(`/v2/agents/${agent.body.id}`)).body.last_ping_at, null);
    const tag = await client.post('/v2/tags', { name: 'Kept' });
    const deleted = await client.request({
      method: 'DELETE',
      url: `/v2/tags/${tag.body.id}`,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(deleted.status, 422);
    assert.deepEqual(paths(deleted.body.errors), [['', 'type', 'body']]);
    const text = await client.request({
      method: 'DELETE',
      url: `/v2/tags/${tag.body.id}`,
      payload: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal((await client.get('/v2/tags')).body.tags.length, 1);
    // No body, an empty one, or an empty object carry nothing: accepted.
    assert.equal((await client.post(`/v2/agents/${agent.body.id}/ping`)).status, 200);
    assert.equal((await client.post(`/v2/agents/${agent.body.id}/ping`, {})).status, 200);
  });

  it('reports query and path problems with their location', async () => {
    const query = await t.client(account.token).get('/v2/contacts/find?emial=a@example.com');
    assert.equal(query.status, 422);
    assert.deepEqual(paths(query.body.errors), [['emial', 'additionalProperties', 'query']]);
    const path = await t.client(account.token).get(`/v2/contacts/${'c'.repeat(65)}`);
    assert.equal(path.status, 422);
    assert.deepEqual(paths(path.body.errors), [['id', 'maxLength', 'path']]);
  });

  it('refuses the NUL character, which the database cannot store, as 422 wherever it is', async () => {
    const body = await t.client(account.token).post('/v2/contacts', { name: 'a\u0000b', email: null });
    assert.equal(body.status, 422);
    assert.equal(body.body.code, 'invalid_arguments');
    assert.deepEqual(paths(body.body.errors), [['name', 'pattern', 'body']]);
    const nested = await t.client(account.token).post('/v2/bots', { name: 'b', trigger: { conditions: { list: ['ok', 'x\u0000'] } } });
    assert.deepEqual(paths(nested.body.errors), [['trigger.conditions.list[1]', 'pattern', 'body']]);
    const query = await t.client(account.token).get('/v2/contacts/find?email=a%00b');
    assert.deepEqual([query.status, paths(query.body.errors)], [422, [['email', 'pattern', 'query']]]);
    const path = await t.client(account.token).get('/v2/contacts/ct%00');
    assert.deepEqual([path.status, paths(path.body.errors)], [422, [['id', 'pattern', 'path']]]);
    assert.equal(await contactCount(), 0);
  });
});

describe('numbers in the query', () => {
  it('are plain decimal digits: 0x10, 1e1, 0b1, +16, 16.0 or a padded 16 is 422 type, never read as 16', async () => {
    for (const size of ['0x10', '1e1', '0b1', '0o20', '+16', '16.0', '%2016', '16%20']) {
      const res = await t.client(account.token).get(`/v2/contacts?size=${size}`);
      assert.equal(res.status, 422, `size=${size}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(paths(res.body.errors), [['size', 'type', 'query']]);
    }
    assert.equal((await t.client(account.token).get('/v2/contacts?size=16')).status, 200);
    const events = await t.client(account.token).get('/v2/events?last_event_id=0x10');
    assert.equal(events.status, 422);
    assert.deepEqual(paths(events.body.errors), [['last_event_id', 'type', 'query']]);
    assert.equal(events.body.errors[0].message, 'last_event_id must be an integer written in decimal digits');
  });
});

describe('numbers in a body that a double cannot hold as written', () => {
  const send = (method: string, url: string, json: string) =>
    t.client(account.token).request({ method, url, payload: json, headers: { 'content-type': 'application/json' } });

  it('are refused with 422 where they are (an integer past 2^53 - 1, a number underflowing to 0), changing nothing', async () => {
    const contact = await t.client(account.token).post('/v2/contacts', { name: 'Exact' });
    const created = await t.client(account.token).post('/v2/conversations', { contact_id: contact.body.id, variables: { n: 1 } });
    const id = created.body.id;
    const patched = await send(
      'PATCH',
      `/v2/conversations/${id}`,
      '{"variables":{"big":9007199254740993,"tiny":0.1e-400,"neg":-12345678901234567890,"s":"9007199254740993 in a string","ok":9007199254740991,"zero":0e-500,"small":1e-300}}',
    );
    assert.equal(patched.status, 422, JSON.stringify(patched.body));
    assert.deepEqual(paths(patched.body.errors), [
      ['variables.big', 'type', 'body'],
      ['variables.tiny', 'type', 'body'],
      ['variables.neg', 'type', 'body'],
    ]);
    assert.equal(
      patched.body.errors[0].message,
      'variables.big must be a number a double holds as written: 9007199254740993 would read as 9007199254740992 ' +
        '(integers at most 9007199254740991 in magnitude; no number so small it reads as 0)',
    );
    assert.deepEqual((await t.client(account.token).get(`/v2/conversations/${id}`)).body.variables, { n: 1 });
    const exact = await send('PATCH', `/v2/conversations/${id}`, '{"variables":{"ok":9007199254740991,"zero":0e-500,"small":1e-300}}');
    assert.equal(exact.status, 200, JSON.stringify(exact.body));
    assert.deepEqual(exact.body.variables, { ok: 9007199254740991, zero: 0, small: 1e-300 });
  });
});

describe('numbers beyond the double range', () => {
  /** Sends `json` as written: JSON.stringify cannot write 1e309. */
  const send = (method: string, url: string, json: string) =>
    t.client(account.token).request({ method, url, payload: json, headers: { 'content-type': 'application/json' } });
  const finite = 'must be a finite number (at most 1.7976931348623157e308 in magnitude)';

  it('are refused with 422 in every free-form field (variables, trigger conditions) and change nothing', async () => {
    const contact = await t.client(account.token).post('/v2/contacts', { name: 'Numbers' });
    const created = await t.client(account.token).post('/v2/conversations', { contact_id: contact.body.id, variables: { n: 1 } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;

    const patched = await send('PATCH', `/v2/conversations/${id}`, '{"variables":{"n":1e309,"m":-1E400,"ok":1e308}}');
    assert.equal(patched.status, 422);
    assert.equal(patched.body.code, 'invalid_arguments');
    assert.deepEqual(paths(patched.body.errors), [
      ['variables.n', 'type', 'body'],
      ['variables.m', 'type', 'body'],
    ]);
    assert.equal(patched.body.errors[0].message, `variables.n ${finite}`);
    assert.deepEqual((await t.client(account.token).get(`/v2/conversations/${id}`)).body.variables, { n: 1 });

    const create = await send('POST', '/v2/conversations', `{"contact_id":"${contact.body.id}","variables":{"big":2e308}}`);
    assert.deepEqual([create.status, paths(create.body.errors)], [422, [['variables.big', 'type', 'body']]]);

    const bot = await send('POST', '/v2/bots', '{"name":"B","trigger":{"conditions":{"after":{"seconds":[1,1e999]}}}}');
    assert.deepEqual([bot.status, paths(bot.body.errors)], [422, [['trigger.conditions.after.seconds[1]', 'type', 'body']]]);
    assert.deepEqual((await t.client(account.token).get('/v2/bots')).body.bots, []);
  });
});

describe('request ids', () => {
  it('gives every response an X-Request-Id, and keeps a well-formed incoming one', async () => {
    const generated = await t.client(account.token).get('/v2/agents');
    assert.match(String(generated.headers['x-request-id']), /^req_[\w-]{16}$/);
    const notFound = await t.client().get('/nowhere');
    assert.match(String(notFound.headers['x-request-id']), /^req_/);
    const kept = await t.client(account.token).request({ method: 'GET', url: '/v2/agents', headers: { 'x-request-id': 'trace-7.a:b' } });
    assert.equal(kept.headers['x-request-id'], 'trace-7.a:b');
    const replaced = await t
      .client(account.token)
      .request({ method: 'GET', url: '/v2/agents', headers: { 'x-request-id': 'bad id <script>' } });
    assert.match(String(replaced.headers['x-request-id']), /^req_/);
  });
});

describe('health checks', () => {
  it('answers /healthz and /readyz without a token', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await t.client().get(url);
      assert.equal(res.status, 200, url);
      assert.deepEqual(res.body, { status: 'ok' });
    }
  });

  it('ignores a query string of parameters they do not take, even text no column could store (the fuzz test found a 422)', async () => {
    for (const url of ['/healthz?probe=%00', '/readyz?x=%ED%A0%80&y=1']) {
      const res = await t.client().get(url);
      assert.deepEqual([res.status, res.body], [200, { status: 'ok' }], url);
    }
  });
});

describe('rate limit', () => {
  it('answers 429 too_many_requests with Retry-After once a token spends its burst, per token', async () => {
    // A 200 s window holding 2 requests: no reset can happen while the test runs.
    const limited = await startTestApp({ rateLimitBurst: 2, rateLimitPerSecond: 0.01 });
    try {
      const owner = await limited.account();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.client(owner.token).get('/v2/agents')).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      const res = await limited.client(owner.token).get('/v2/agents');
      assert.equal(res.status, 429);
      assert.equal(res.body.code, 'too_many_requests');
      assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
      // A refused request's body is never read: the connection closes after the answer (docs/operations.md#slow-clients).
      const post = await limited.client(owner.token).post('/v2/contacts', { name: 'Ada' });
      assert.deepEqual([post.status, post.body.code, post.headers.connection], [429, 'too_many_requests', 'close']);
      const other = await limited.token(owner, ['agents:read']);
      assert.equal((await limited.client(other).get('/v2/agents')).status, 200);
      assert.equal((await limited.client().get('/healthz')).status, 200);
      assert.equal((await limited.client().get('/healthz')).status, 200);
      assert.equal((await limited.client().get('/healthz')).status, 200);
    } finally {
      await limited.close();
    }
  });
});

describe('rate limit key', () => {
  it('is the verified token: every case and spacing of `Bearer` spends one bucket', async () => {
    const limited = await startTestApp({ rateLimitBurst: 3, rateLimitPerSecond: 0.01 });
    try {
      const owner = await limited.account();
      const variants = ['Bearer', 'bearer', 'BEARER', 'bEaReR'].map((scheme, i) => `${scheme}${' '.repeat(i + 1)}${owner.token}`);
      variants.push(`Bearer\t${owner.token}  `);
      const statuses = [];
      for (const authorization of variants) {
        statuses.push((await limited.client().request({ method: 'GET', url: '/v2/agents', headers: { authorization } })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('unexpected failures', () => {
  it('answer 500 internal_error with the request id and no detail', async () => {
    const app = await buildApp(t.deps, { logger: false });
    app.get('/v2/explode', async () => {
      throw new Error('secret detail: password=hunter2');
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/v2/explode' });
      assert.equal(res.statusCode, 500);
      const body = res.json();
      assert.deepEqual(body, {
        code: 'internal_error',
        message: 'Internal error; quote the request id when reporting it',
        request_id: res.headers['x-request-id'],
      });
    } finally {
      await app.close();
    }
  });

  it('answer /readyz with 503 service_unavailable and other routes with 500 when the database is gone', async () => {
    // A database that worked (the app's event hub reads it on start), then goes away.
    const db = await openDb({ dataDir: 'memory' });
    await migrate(db);
    const app = await buildApp({ ...t.deps, db }, { logger: false });
    await app.ready();
    await db.close();
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { code: 'service_unavailable', message: 'The database is not reachable' });
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const res = await app.inject({ method: 'GET', url: '/v2/agents', headers: { authorization: 'Bearer cs_anything' } });
      assert.equal(res.statusCode, 500);
      // The whole body is the generic answer: no pool, query or SQL detail. (Matching the
      // body against /sql/i failed once a random request id happened to contain "SqL".)
      assert.deepEqual(res.json(), {
        code: 'internal_error',
        message: 'Internal error; quote the request id when reporting it',
        request_id: res.headers['x-request-id'],
      });
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI document and reference page', () => {
  it('is OpenAPI 3.1, version 2.6.0, with bearer security', async () => {
    const res = await t.client().get('/v2/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    assert.equal(res.body.info.version, '2.6.0');
    assert.deepEqual(
      { type: res.body.components.securitySchemes.bearer.type, scheme: res.body.components.securitySchemes.bearer.scheme },
      { type: 'http', scheme: 'bearer' },
    );
    assert.ok(res.body.components.schemas.error_payload || JSON.stringify(res.body).includes('error_payload'));
    // Bearer is the default; public operations opt out explicitly so clients send no token there.
    assert.deepEqual(res.body.security, [{ bearer: [] }]);
    for (const path of ['/healthz', '/readyz']) assert.deepEqual(res.body.paths[path].get.security, [], path);
    // The legacy export: its apiKey, or a statistics:read bearer token.
    assert.deepEqual(res.body.paths['/stats/totals'].get.security, [{ legacyApiKey: [] }, { bearer: ['statistics:read'] }]);
    assert.equal(res.body.tags[0].name, 'Management');
  });

  it('lists the scope and the error responses of every /v2 operation', async () => {
    const doc = (await t.client().get('/v2/openapi.json')).body;
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, OperationDoc>>(doc.paths)) {
      if (!path.startsWith('/v2/')) continue;
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        operations++;
        const scopes = op.security?.[0]?.bearer ?? [];
        assert.equal(scopes.length, 1, `${where} names one scope`);
        assert.ok((SCOPES as readonly string[]).includes(scopes[0]!), `${where}: ${scopes[0]}`);
        const statuses = Object.keys(op.responses);
        for (const status of ['200', '401', '403', '429', '500']) assert.ok(statuses.includes(status), `${where} documents ${status}`);
        // A body of any content type (an upload) cannot be refused as unsupported: no 415 there.
        const bodyStatuses = op.requestBody?.content['*/*'] ? ['400', '413', '422'] : ['400', '413', '415', '422'];
        if (op.requestBody) for (const status of bodyStatuses) assert.ok(statuses.includes(status), `${where} documents ${status}`);
        if (op.parameters?.length) assert.ok(statuses.includes('422'), `${where} documents 422`);
        if (path.includes('{')) assert.ok(statuses.includes('404'), `${where} documents 404`);
        assert.ok(op.summary, `${where} has a summary`);
      }
    }
    assert.ok(operations >= 20, `found ${operations} operations`);
  });

  it('serves the interactive reference under /docs', async () => {
    const redirect = await t.client().get('/docs');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/docs/');
    const page = await t.client().get('/docs/');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.body), /\/v2\/openapi\.json/);
  });
});

interface OperationDoc {
  summary?: string;
  security?: { bearer?: string[] }[];
  parameters?: unknown[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
}

/**
 * The authentication contract (docs/behaviour.md §1), checked on every operation the
 * OpenAPI document lists with a scope, so routes added later are covered too.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { SCOPES, type Scope } from './scopes.ts';
import { startTestApp, type Reply, type TestApp, type TestAccount } from '../test/harness.ts';

let t: TestApp;
let account: TestAccount;

interface Operation {
  method: string;
  /** The path with every parameter replaced by a dummy id. */
  url: string;
  /** The scopes any one of which the operation takes (its alternative security requirements). */
  scopes: Scope[];
  hasBody: boolean;
  name: string;
}

let operations: Operation[];

before(async () => {
  t = await startTestApp();
  account = await t.account();
  const doc = (await t.client().get('/v2/openapi.json')).body as {
    paths: Record<string, Record<string, { security?: { bearer?: Scope[] }[]; requestBody?: unknown }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) => {
      // Operations authenticated by bearer tokens only (the legacy export also takes its apiKey).
      const scopes = (op.security ?? []).map((requirement) => requirement.bearer?.[0]);
      if (scopes.length === 0 || scopes.some((scope) => scope === undefined)) return [];
      const url = path.replace(/\{[^}]+\}/g, 'dummy-id');
      return [
        {
          method: method.toUpperCase(),
          url,
          scopes: scopes as Scope[],
          hasBody: Boolean(op.requestBody),
          name: `${method.toUpperCase()} ${path}`,
        },
      ];
    }),
  );
});
after(() => t.close());

/** Calls the operation with `{}` as body where it takes one: auth is checked before validation. */
function call(op: Operation, headers: Record<string, string>): Promise<Reply> {
  return t.client().request({
    method: op.method,
    url: op.url,
    payload: op.hasBody ? '{}' : undefined,
    headers: op.hasBody ? { ...headers, 'content-type': 'application/json' } : headers,
  });
}

/** Runs `check` on every operation and reports all that fail at once. */
async function everyOperation(check: (op: Operation) => Promise<string | undefined>) {
  const failures: string[] = [];
  for (const op of operations) {
    const failure = await check(op);
    if (failure) failures.push(`${op.name}: ${failure}`);
  }
  assert.deepEqual(failures, []);
}

function unauthorized(res: Reply): string | undefined {
  if (res.status !== 401) return `status ${res.status}, expected 401`;
  if (res.body?.code !== 'unauthorized' || typeof res.body.message !== 'string') return `body ${JSON.stringify(res.body)}`;
  if (!/^Bearer\b/.test(String(res.headers['www-authenticate']))) return 'no WWW-Authenticate: Bearer header';
  return undefined;
}

describe('a refused request with a body', () => {
  it('gets its 401 at once, and the connection closes instead of waiting for the rest of the body', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    for (const auth of ['', `Authorization: Bearer ${'x'.repeat(40)}\r\n`]) {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (data) => (answer += data));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // Headers announcing a large body, then only its first bytes, as a client dripping it would.
      socket.write(
        `POST /v2/contacts HTTP/1.1\r\nHost: test\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":`,
      );
      // A 'close' here, without the client ending its side, is the server closing the connection (the test's own
      // timeout catches a server that keeps waiting for the body, up to REQUEST_TIMEOUT_MS).
      await closed;
      assert.match(answer, /^HTTP\/1\.1 401 /);
      assert.match(answer, /\r\nconnection: close\r\n/i);
      assert.match(answer, /"code":"unauthorized"/);
    }
  });
});

describe('authentication on every scoped operation', () => {
  it('finds the operations, each with a known scope', () => {
    assert.ok(operations.length >= 20, `only ${operations.length} operations`);
    for (const op of operations)
      assert.ok(
        op.scopes.every((scope) => SCOPES.includes(scope)),
        `${op.name}: ${op.scopes}`,
      );
    const scopesOf = (name: string) => operations.find((op) => op.name === name)?.scopes;
    assert.deepEqual(scopesOf('GET /v2/agents'), ['agents:read']);
    assert.deepEqual(scopesOf('POST /v2/tokens'), ['account:manage']);
    // The lists of groups and tags also take a reporting token (the dashboard's filters); creating them does not.
    assert.deepEqual(scopesOf('GET /v2/groups'), ['account:manage', 'statistics:read']);
    assert.deepEqual(scopesOf('GET /v2/tags'), ['account:manage', 'statistics:read']);
    assert.deepEqual(scopesOf('POST /v2/groups'), ['account:manage']);
  });

  it('answers no token with 401 and WWW-Authenticate', async () => {
    await everyOperation(async (op) => unauthorized(await call(op, {})));
  });

  it('answers a malformed Authorization header with 401', async () => {
    await everyOperation(async (op) => unauthorized(await call(op, { authorization: `Basic ${account.token}` })));
  });

  it('answers an unknown token with 401', async () => {
    await everyOperation(async (op) => unauthorized(await call(op, { authorization: 'Bearer cs_not-a-real-token' })));
  });

  it('answers a token holding every scope but the operation’s with 403 Missing scope', async () => {
    const tokens = new Map<string, string>();
    for (const op of operations) {
      const key = op.scopes.join();
      if (!tokens.has(key))
        tokens.set(
          key,
          await t.token(
            account,
            SCOPES.filter((s) => !op.scopes.includes(s)),
          ),
        );
    }
    await everyOperation(async (op) => {
      const res = await call(op, { authorization: `Bearer ${tokens.get(op.scopes.join())}` });
      const expected = { code: 'forbidden', message: `Missing scope ${op.scopes.join(' or ')}` };
      if (res.status !== 403 || JSON.stringify(res.body) !== JSON.stringify(expected)) return `${res.status} ${JSON.stringify(res.body)}`;
      return undefined;
    });
  });

  it('answers a token revoked through the API with 401 at once, even one just used', async () => {
    const created = (await t.client(account.token).post('/v2/tokens', { name: 'doomed', scopes: [...SCOPES] })).body;
    assert.equal((await t.client(created.token).get('/v2/agents')).status, 200);
    assert.equal((await t.client(account.token).delete(`/v2/tokens/${created.id}`)).status, 200);
    await everyOperation(async (op) => unauthorized(await call(op, { authorization: `Bearer ${created.token}` })));
  });

  it('stops a token revoked elsewhere (another instance) within a second', async () => {
    const created = (await t.client(account.token).post('/v2/tokens', { name: 'elsewhere', scopes: ['agents:read'] })).body;
    assert.equal((await t.client(created.token).get('/v2/agents')).status, 200);
    await t.db.query('update api_tokens set revoked_at = now() where account_id = $1 and id = $2', [account.accountId, created.id]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal(unauthorized(await t.client(created.token).get('/v2/agents')), undefined);
  });

  it("never lets one account's token reach another account's data", async () => {
    const other = await t.account();
    const contact = (await t.client(other.token).post('/v2/contacts', { name: 'Theirs' })).body;
    const res = await t.client(account.token).get(`/v2/contacts/${contact.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
  });
});

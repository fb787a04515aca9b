/**
 * `chat-service serve` behind PgBouncer 1.18 in transaction mode (docs/operations.md "Connection pooling"):
 * DATABASE_URL through the pooler, DATABASE_DIRECT_URL to the server. Fewer server connections than the
 * service's pool, so consecutive transactions of one client connection land on different server sessions.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { engine } from '../test/harness.ts';
import { freshPostgresDatabase, runCli, startServe, type ServeProcess, type PostgresStorage } from '../test/processes.ts';
import { skipWithoutPgBouncer, startPgBouncer, type PgBouncer } from '../test/pgbouncer.ts';
import { loadConfig } from '../config.ts';
import { dbOptionsOf } from './db.ts';

describe('connection settings', () => {
  const options = (env: Record<string, string>) => {
    const { databaseUrl, directUrl, preparedStatements } = dbOptionsOf(loadConfig(env));
    return { databaseUrl, directUrl, preparedStatements };
  };
  const direct = 'postgres://chat@db:5432/chat';
  const pooler = 'postgres://chat@pgbouncer:6432/chat';

  it('names statements only on the direct connection, unless DATABASE_PREPARED_STATEMENTS says otherwise', () => {
    assert.deepEqual(options({ DATABASE_URL: direct }), { databaseUrl: direct, directUrl: direct, preparedStatements: true });
    assert.deepEqual(options({ DATABASE_URL: direct, DATABASE_DIRECT_URL: direct }), {
      databaseUrl: direct,
      directUrl: direct,
      preparedStatements: true,
    });
    assert.deepEqual(options({ DATABASE_URL: pooler, DATABASE_DIRECT_URL: direct }), {
      databaseUrl: pooler,
      directUrl: direct,
      preparedStatements: false,
    });
    assert.equal(
      options({ DATABASE_URL: pooler, DATABASE_DIRECT_URL: direct, DATABASE_PREPARED_STATEMENTS: 'on' }).preparedStatements,
      true,
    );
    assert.equal(options({ DATABASE_URL: direct, DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements, false);
    assert.deepEqual(options({}), { databaseUrl: undefined, directUrl: undefined, preparedStatements: true });
    assert.throws(() => loadConfig({ DATABASE_URL: direct, DATABASE_DIRECT_URL: 'db:5432' }), /DATABASE_DIRECT_URL must be a URL/);
  });

  it(
    'migrates over DATABASE_DIRECT_URL, and names it when it does not answer',
    { skip: engine === 'pglite' && 'PGlite: no DATABASE_URL' },
    async () => {
      const storage = await freshPostgresDatabase(process.env.TEST_DATABASE_URL as string, 'cs_direct');
      try {
        const refused = await runCli(['migrate'], { ...storage.env, DATABASE_DIRECT_URL: 'postgres://chat:s3cret@127.0.0.1:1/chat' });
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /^chat-service: Cannot use the database 127\.0\.0\.1:1\/chat \(DATABASE_DIRECT_URL\): .*ECONNREFUSED/);
        assert.doesNotMatch(refused.stderr, /s3cret/);
      } finally {
        await storage.cleanup();
      }
    },
  );
});

const skip = engine === 'pglite' ? 'PGlite: no pooler in front of an embedded database' : skipWithoutPgBouncer;

describe('serve through PgBouncer in transaction mode', { skip, timeout: 300_000 }, () => {
  let storage: PostgresStorage;
  let bouncer: PgBouncer;
  let server: ServeProcess;
  let token: string;
  const received: { event: string; body: string }[] = [];
  const hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ event: JSON.parse(body).event, body });
      res.end('ok');
    });
  });

  before(async () => {
    storage = await freshPostgresDatabase(process.env.TEST_DATABASE_DIRECT_URL || (process.env.TEST_DATABASE_URL as string), 'cs_pool');
    bouncer = await startPgBouncer({ upstream: storage.env.DATABASE_URL, poolSize: 3 });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    server = await startServe({
      DATABASE_URL: bouncer.pooled(storage.env.DATABASE_URL),
      DATABASE_DIRECT_URL: storage.env.DATABASE_URL,
      WEBHOOK_BLOCK_PRIVATE: 'false',
      // Events reach the stream and the webhook worker by LISTEN/NOTIFY only, not by the safety poll.
      EVENT_SAFETY_POLL_MS: '600000',
    });
    token = (/owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout) as RegExpExecArray)[1]!;
  });

  after(async () => {
    server?.signal('SIGTERM');
    const stopped = await server?.exited;
    hook.close();
    await bouncer?.stop();
    await storage?.cleanup();
    assert.equal(stopped?.code, 0, `${stopped?.stderr}${stopped?.stdout.split('\n').slice(-8).join('\n')}`);
  });

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };

  it('is ready, writes, reads, and answers statistics (bounded heavy statements)', async () => {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    // More writes than server connections, at once: each transaction may run on any of them.
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', '/v2/agents', { email: `agent${i}@example.com` })));
    assert.deepEqual(
      created.map((reply) => reply.status),
      created.map(() => 200),
    );
    for (let round = 0; round < 3; round++) {
      const list = await call('GET', '/v2/agents');
      assert.equal(list.status, 200);
      assert.equal(list.body.agents.length, 20);
    }
    const stats = await call('POST', '/v2/statistics?timezone=Europe/Prague', {
      closed: { name: 'closed_conversation', range: { from: '2024-03-04T00:00:00', to: '2024-03-06T23:59:59' } },
    });
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.deepEqual(stats.body.closed, { name: 'closed_conversation', value: 0, count: 0, buckets: null });
  });

  it('streams events and delivers webhooks, woken by LISTEN on the direct connection', async () => {
    const { port } = hook.address() as AddressInfo;
    const webhook = await call('POST', '/v2/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['agent.updated'] });
    assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
    const agent = await call('POST', '/v2/agents', { email: 'streamed@example.com' });
    // node:http rather than fetch: one connection, closed when done (fetch's pool may leave one open that delays the server's stop).
    let text = '';
    const stream = http.get(`${server.url}/v2/events?types=agent.updated`, { agent: false, headers: { authorization: `Bearer ${token}` } });
    const response = await new Promise<http.IncomingMessage>((resolve) => stream.once('response', resolve));
    assert.equal(response.statusCode, 200);
    response.setEncoding('utf8');
    const seen = (what: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => text.includes(what) && (response.off('data', onData), resolve());
        const onData = (chunk: string) => ((text += chunk), check());
        response.on('data', onData);
        response.once('end', () => reject(new Error(`the stream ended before ${what}: ${text}`)));
        check();
      });
    await seen(': connected');
    assert.equal((await call('PATCH', `/v2/agents/${agent.body.id}`, { status: 'online' })).status, 200);
    await seen('event: agent.updated');
    stream.destroy();
    assert.match(text, new RegExp(`"id":"${agent.body.id}"`));
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(received[0]!.event, 'agent.updated');
    assert.match(received[0]!.body, new RegExp(`"id":"${agent.body.id}"`));
  });
});

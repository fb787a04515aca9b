import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { postJson } from './sender.ts';

/** The default configuration: WEBHOOK_BLOCK_PRIVATE is on. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The one answer to every refused URL host (issue 18.9): never which address, range or DNS failure it was. */
const REFUSAL = 'url must be an http(s) URL whose host resolves to public addresses only (WEBHOOK_BLOCK_PRIVATE is on)';

// [url, the address refused, its range]
const BLOCKED: [string, string, string][] = [
  ['http://127.0.0.1:8080/hook', '127.0.0.1', 'loopback'],
  ['http://0x7f.1/', '127.0.0.1', 'loopback'],
  ['http://2130706433/', '127.0.0.1', 'loopback'],
  ['http://0.0.0.0/', '0.0.0.0', 'unspecified'],
  ['http://10.1.2.3/', '10.1.2.3', 'private'],
  ['http://172.16.0.1/', '172.16.0.1', 'private'],
  ['http://192.168.1.1/', '192.168.1.1', 'private'],
  ['http://169.254.169.254/latest/meta-data', '169.254.169.254', 'linkLocal'],
  ['http://100.64.0.1/', '100.64.0.1', 'carrierGradeNat'],
  ['http://192.0.2.1/', '192.0.2.1', 'reserved'],
  ['http://198.51.100.7/', '198.51.100.7', 'reserved'],
  ['http://203.0.113.9/', '203.0.113.9', 'reserved'],
  ['http://198.18.0.1/', '198.18.0.1', 'reserved'],
  ['http://192.0.0.8/', '192.0.0.8', 'reserved'],
  ['http://240.0.0.1/', '240.0.0.1', 'reserved'],
  ['http://255.255.255.255/', '255.255.255.255', 'broadcast'],
  ['http://224.0.0.1/', '224.0.0.1', 'multicast'],
  ['http://[::1]/', '::1', 'loopback'],
  ['http://[::]/', '::', 'unspecified'],
  ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'ipv4Mapped'],
  ['http://[::ffff:93.184.215.14]/', '::ffff:5db8:d70e', 'ipv4Mapped'],
  ['http://[::ffff:0:7f00:1]/', '::ffff:0:7f00:1', 'rfc6145 of 127.0.0.1, loopback'],
  ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1', 'rfc6052 of 127.0.0.1, loopback'],
  ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe', 'rfc6052 of 169.254.169.254, linkLocal'],
  ['http://[64:ff9b:1::5db8:d70e]/', '64:ff9b:1::5db8:d70e', 'rfc6052'],
  ['http://[2002:7f00:1::]/', '2002:7f00:1::', '6to4 of 127.0.0.1, loopback'],
  ['http://[2002:a00:1::1]/', '2002:a00:1::1', '6to4 of 10.0.0.1, private'],
  // Teredo: server 65.54.227.120, client 127.0.0.1 (its bits inverted)
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo of 127.0.0.1, loopback'],
  ['http://[::7f00:1]/', '::7f00:1', 'reserved'],
  ['http://[fe80::1]/', 'fe80::1', 'linkLocal'],
  ['http://[fec0::1]/', 'fec0::1', 'deprecatedSiteLocal'],
  ['http://[fc00::1]/', 'fc00::1', 'uniqueLocal'],
  ['http://[fd12:3456::1]/', 'fd12:3456::1', 'uniqueLocal'],
  ['http://[ff02::1]/', 'ff02::1', 'multicast'],
  ['http://[2001:db8::1]/', '2001:db8::1', 'reserved'],
  ['http://[100::1]/', '100::1', 'discard'],
  ['http://localhost:8080/hook', '127.0.0.1', 'loopback'],
];

describe('webhook addresses (WEBHOOK_BLOCK_PRIVATE, on by default)', () => {
  it('is on by default and off only when set to false', () => {
    assert.equal(loadConfig({}).webhookBlockPrivate, true);
    assert.equal(loadConfig({ WEBHOOK_BLOCK_PRIVATE: 'false' }).webhookBlockPrivate, false);
    assert.equal(t.deps.config.webhookBlockPrivate, true);
  });

  for (const [url, address, range] of BLOCKED) {
    it(`refuses ${url}: ${range}`, async () => {
      const account = await t.account();
      const res = await t.client(account.token).post('/v2/webhooks', { url });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        code: 'invalid_arguments',
        message: `Invalid arguments: ${REFUSAL}`,
        errors: [{ path: 'url', code: 'public_address', location: 'body', message: REFUSAL }],
      });
      assert.ok(!JSON.stringify(res.body).includes(address) || url.includes(address), 'the answer names no resolved address');
      assert.deepEqual((await t.client(account.token).get('/v2/webhooks')).body, { webhooks: [] });
    });
  }

  for (const url of [
    'https://93.184.215.14/hook',
    'http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/',
    'http://[64:ff9b::5db8:d70e]/', // NAT64 of 93.184.215.14, as DNS64 answers on an IPv6-only network
    'http://[2002:5db8:d70e::]/',
  ]) {
    it(`accepts the global unicast address of ${url}`, async () => {
      const account = await t.account();
      const res = await t.client(account.token).post('/v2/webhooks', { url });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.url, url);
    });
  }

  it('refuses a host that does not resolve with the same answer as a private one: no DNS oracle (issue 18.9)', async () => {
    const account = await t.account();
    const unresolvable = await t.client(account.token).post('/v2/webhooks', { url: 'http://no-such-host.invalid/hook' });
    const loopback = await t.client(account.token).post('/v2/webhooks', { url: 'http://localhost/hook' });
    assert.deepEqual([unresolvable.status, unresolvable.body], [loopback.status, loopback.body]);
    assert.deepEqual(unresolvable.body.errors, [{ path: 'url', code: 'public_address', location: 'body', message: REFUSAL }]);
  });

  it('accepts a local receiver with WEBHOOK_BLOCK_PRIVATE=false (local development)', async () => {
    const open = await startTestApp({ webhookBlockPrivate: false });
    try {
      const account = await open.account();
      const res = await open.client(account.token).post('/v2/webhooks', { url: 'http://localhost:8080/hook' });
      assert.equal(res.status, 200);
    } finally {
      await open.close();
    }
  });
});

/** A receiver on 127.0.0.1 counting the requests it gets; `answer` writes the response. */
async function startReceiver(
  ctx: TestContext,
  answer: (response: http.ServerResponse) => void = (response) => response.writeHead(200).end(),
) {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    received.push(request.url ?? '');
    request.resume();
    answer(response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  ctx.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, received };
}

describe('sending a delivery', () => {
  const options = { timeoutMs: 60_000, blockPrivate: true };

  it('checks the address it connects to: a name resolving to 127.0.0.1 is refused before any request', async (ctx) => {
    const receiver = await startReceiver(ctx);
    const result = await postJson(`http://localhost:${receiver.port}/hook`, '{}', {}, options);
    assert.deepEqual({ ...result, durationMs: 0 }, { statusCode: null, error: 'refused_address', durationMs: 0 });
    assert.deepEqual(receiver.received, []);
  });

  it('refuses a blocked IP literal before any request', async (ctx) => {
    const receiver = await startReceiver(ctx);
    const result = await postJson(`http://127.0.0.1:${receiver.port}/hook`, '{}', {}, options);
    assert.equal(result.error, 'refused_address');
    assert.deepEqual(receiver.received, []);
  });

  it('does not follow a redirect: a 3xx is the answer', async (ctx) => {
    const target = await startReceiver(ctx);
    const redirecting = await startReceiver(ctx, (response) =>
      response.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end(),
    );
    const result = await postJson(`http://127.0.0.1:${redirecting.port}/hook`, '{}', {}, { ...options, blockPrivate: false });
    assert.equal(result.statusCode, 307);
    assert.equal(result.error, 'http_status');
    assert.deepEqual(redirecting.received, ['/hook']);
    assert.deepEqual(target.received, []);
  });

  it('stores a reason from a fixed set, never the socket text (issue 18.9)', async (ctx) => {
    const open = { ...options, blockPrivate: false };
    // A port nobody listens on: the port of a receiver just closed.
    const closed = await startReceiver(ctx);
    const server = http.createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const freePort = (server.address() as AddressInfo).port;
    server.close();
    await once(server, 'close');
    assert.equal((await postJson(`http://127.0.0.1:${freePort}/hook`, '{}', {}, open)).error, 'connection_refused');
    assert.equal((await postJson('http://no-such-host.invalid/hook', '{}', {}, open)).error, 'refused_address');
    const hangingUp = await startReceiver(ctx, (response) => response.socket?.destroy());
    assert.equal((await postJson(`http://127.0.0.1:${hangingUp.port}/hook`, '{}', {}, open)).error, 'connection_reset');
    const tls = await postJson(`https://127.0.0.1:${closed.port}/hook`, '{}', {}, open);
    assert.equal(tls.error, 'tls', 'an https URL answered in plain HTTP');
    const failing = await startReceiver(ctx, (response) => response.writeHead(500).end());
    assert.deepEqual(
      { ...(await postJson(`http://127.0.0.1:${failing.port}/hook`, '{}', {}, open)), durationMs: 0 },
      { statusCode: 500, error: 'http_status', durationMs: 0 },
    );
    assert.deepEqual(
      { ...(await postJson(`http://127.0.0.1:${closed.port}/hook`, '{}', {}, open)), durationMs: 0 },
      { statusCode: 200, error: null, durationMs: 0 },
    );
  });
});

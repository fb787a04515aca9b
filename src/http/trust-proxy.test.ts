/**
 * TRUST_PROXY (docs/operations.md "Behind a proxy"): which X-Forwarded-For the service believes when it keys
 * the per-IP limits (here the legacy export's rate limit) on the client's address.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../config.ts';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';

describe('TRUST_PROXY', () => {
  it('is off by default and takes addresses, CIDRs and proxy-addr range names', () => {
    assert.deepEqual(loadConfig({}).trustProxy, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '' }).trustProxy, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5' }).trustProxy, ['10.0.0.5']);
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 172.16.0.0/12,::1,fd00::/8,::ffff:10.1.2.3,loopback ' }).trustProxy, [
      '10.0.0.5',
      '172.16.0.0/12',
      '::1',
      'fd00::/8',
      '::ffff:10.1.2.3',
      'loopback',
    ]);
  });

  it('refuses anything else with a one-line message naming the variable', () => {
    const refused: [string, RegExp][] = [
      ['true', /^TRUST_PROXY=true would let any client choose its address/],
      ['TRUE', /^TRUST_PROXY=true would let any client choose its address/],
      ['1', /^TRUST_PROXY takes no hop count \("1"/],
      ['2', /^TRUST_PROXY takes no hop count \("2"/],
      ['nginx', /^TRUST_PROXY must be false or a comma-separated list of addresses or CIDRs .*, got "nginx"$/],
      ['10.0.0.256', /got "10\.0\.0\.256"$/],
      ['010.0.0.1', /got "010\.0\.0\.1"$/],
      ['0x0a.0.0.1', /got "0x0a\.0\.0\.1"$/],
      ['10.0.0.0/33', /got "10\.0\.0\.0\/33"$/],
      ['10.0.0.0/0', /got "10\.0\.0\.0\/0"$/],
      ['10.0.0.0/255.0.0.0', /got "10\.0\.0\.0\/255\.0\.0\.0"$/],
      ['10.0.0.0/8/8', /got "10\.0\.0\.0\/8\/8"$/],
      ['fd00::/129', /got "fd00::\/129"$/],
      ['fe80::1%eth0', /got "fe80::1%eth0"$/],
      ['10.0.0.5,', /got ""$/],
      ['10.0.0.5,,10.0.0.6', /got ""$/],
    ];
    for (const [value, message] of refused) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: value }),
        (error: Error) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
        value,
      );
    }
  });
});

/** The legacy export's rate limit, keyed on the client's address: 2 requests per 200 s, so no window ends mid-test. */
const LIMITED = { rateLimitBurst: 2, rateLimitPerSecond: 0.01 };

async function totals(t: TestApp, account: TestAccount, from: { remoteAddress?: string; forwardedFor?: string }): Promise<number> {
  const res = await t.client().request({
    method: 'GET',
    url: `/stats/totals?apiKey=${account.apiKey}`,
    headers: from.forwardedFor === undefined ? {} : { 'x-forwarded-for': from.forwardedFor },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
  });
  return res.status;
}

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  let account: TestAccount;
  before(async () => {
    t = await startTestApp(LIMITED);
    account = await t.account();
  });
  after(() => t.close());

  it('ignores X-Forwarded-For: a client cannot leave its per-IP limit by sending another address', async () => {
    const statuses = [];
    for (const forwardedFor of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '198.51.100.7, 203.0.113.4']) {
      statuses.push(await totals(t, account, { remoteAddress: '192.0.2.10', forwardedFor }));
    }
    assert.deepEqual(statuses, [200, 200, 429, 429]);
    // Another peer address is another client.
    assert.equal(await totals(t, account, { remoteAddress: '192.0.2.11', forwardedFor: '203.0.113.1' }), 200);
  });
});

describe('with TRUST_PROXY set to the proxy', () => {
  let t: TestApp;
  let account: TestAccount;
  const proxy = '10.0.0.5';
  before(async () => {
    t = await startTestApp({ ...LIMITED, trustProxy: [proxy] });
    account = await t.account();
  });
  after(() => t.close());

  it('gives two clients behind the proxy a limit each', async () => {
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await totals(t, account, { remoteAddress: proxy, forwardedFor: '203.0.113.1' }));
    assert.deepEqual(first, [200, 200, 429]);
    assert.equal(await totals(t, account, { remoteAddress: proxy, forwardedFor: '203.0.113.2' }), 200);
    assert.equal(await totals(t, account, { remoteAddress: proxy, forwardedFor: '203.0.113.2' }), 200);
    assert.equal(await totals(t, account, { remoteAddress: proxy, forwardedFor: '203.0.113.2' }), 429);
  });

  it('takes the address the proxy appended, not one the client sent before it', async () => {
    // nginx's $proxy_add_x_forwarded_for appends the peer it saw to what the client sent.
    const forged = ['192.0.2.99', '198.51.100.1', 'garbage'].map((sent) => `${sent}, 203.0.113.1`);
    for (const forwardedFor of forged) assert.equal(await totals(t, account, { remoteAddress: proxy, forwardedFor }), 429);
  });

  it('believes no other peer: a direct client is keyed on its own address', async () => {
    const statuses = [];
    for (const forwardedFor of ['203.0.113.7', '203.0.113.8', '203.0.113.9']) {
      statuses.push(await totals(t, account, { remoteAddress: '192.0.2.20', forwardedFor }));
    }
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});

/**
 * Failed authentications (docs/behaviour.md §1): counted per client address, 429 before any lookup once an
 * address has spent its failures, working tokens still passing; bad tokens cached for at most a second, never
 * hiding a token created since.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Queryable } from '../db/db.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { newId, sha256 } from '../ids.ts';
import { insertToken } from '../tokens/repository.ts';
import { createToken } from '../tokens/service.ts';
import { startTestApp, type Reply, type TestAccount, type TestApp } from '../test/harness.ts';
import { AuthFailureLimiter, addressKey } from './failures.ts';
import { TokenVerifier, generateToken } from './tokens.ts';

const LIMIT = 3;
const PROXY = '10.0.0.5';

let t: TestApp;
let account: TestAccount;
/** Lookups of a token by its hash, counted while `countLookups` runs. */
let lookups = 0;

before(async () => {
  // An hour's window: none ends while the tests run.
  t = await startTestApp({ authFailureLimit: LIMIT, authFailureWindowSeconds: 3600, trustProxy: [PROXY] });
  account = await t.account();
  const query = t.db.query.bind(t.db);
  t.db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('from api_tokens where token_hash')) lookups += 1;
    return query(sql, params);
  }) as Queryable['query'];
});
after(() => t.close());

/** Sends `token` (any string; none when undefined) from `ip`. */
function from(ip: string, token: string | undefined, url = '/v2/agents', method = 'GET'): Promise<Reply> {
  return t.client().request({ method, url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, remoteAddress: ip });
}

const UNAUTHORIZED_BODY = '{"code":"unauthorized","message":"Unknown or revoked token"}';

function assertUnauthorized(res: Reply) {
  assert.equal(res.status, 401);
  assert.equal(res.raw.body, UNAUTHORIZED_BODY);
  assert.equal(res.headers['www-authenticate'], 'Bearer realm="chat-service"');
}

function assertLimited(res: Reply) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${res.headers['retry-after']}`);
  assert.deepEqual(res.body, {
    code: 'too_many_requests',
    message: `Too many failed authentications from this address; retry in ${retryAfter} s`,
  });
}

/** Spends `ip`'s failures with distinct unknown tokens; each is answered 401 exactly as without the limit. */
async function spendFailures(ip: string) {
  for (let i = 0; i < LIMIT; i++) assertUnauthorized(await from(ip, generateToken()));
}

describe('failed authentications over HTTP', () => {
  it('answer 401 as before up to the limit, then 429 with Retry-After without looking the token up', async () => {
    const ip = '192.0.2.1';
    await spendFailures(ip);
    const before = lookups;
    for (let i = 0; i < 5; i++) assertLimited(await from(ip, generateToken()));
    assert.equal(lookups, before);
    // A missing or malformed header is limited too (it costs no lookup either way).
    assertLimited(await from(ip, undefined));
    assertLimited(await t.client().request({ method: 'GET', url: '/v2/agents', headers: { authorization: 'Basic x' }, remoteAddress: ip }));
    assert.equal(lookups, before);
  });

  it('count a missing or malformed Authorization header as a failure', async () => {
    const ip = '192.0.2.20';
    assert.equal((await from(ip, account.token)).status, 200);
    const missing = await from(ip, undefined);
    assert.equal(missing.status, 401);
    assert.equal(missing.raw.body, '{"code":"unauthorized","message":"Missing bearer token: send Authorization: Bearer <token>"}');
    const malformed = await t
      .client()
      .request({ method: 'GET', url: '/v2/agents', headers: { authorization: 'Basic x' }, remoteAddress: ip });
    assert.equal(malformed.status, 401);
    assertUnauthorized(await from(ip, generateToken()));
    assertLimited(await from(ip, undefined));
    assertLimited(await from(ip, generateToken()));
    assert.equal((await from(ip, account.token)).status, 200, 'a token working here still passes');
  });

  it('leave other addresses alone', async () => {
    await spendFailures('192.0.2.2');
    assert.equal((await from('192.0.2.3', account.token)).status, 200);
    assertUnauthorized(await from('192.0.2.3', generateToken()));
  });

  it('let a limited address keep using the tokens working there, and tokens created there', async () => {
    const ip = '192.0.2.4';
    const working = await t.token(account, ['agents:read', 'account:manage']);
    assert.equal((await from(ip, working)).status, 200);
    await spendFailures(ip);
    assertLimited(await from(ip, generateToken()));
    assert.equal((await from(ip, working)).status, 200);
    // A token made on this instance works at once, even from the limited address.
    const created = await t.client(working).request({
      method: 'POST',
      url: '/v2/tokens',
      payload: JSON.stringify({ name: 'new', scopes: ['agents:read'] }),
      headers: { 'content-type': 'application/json' },
      remoteAddress: ip,
    });
    assert.equal(created.status, 200);
    assert.equal((await from(ip, created.body.token)).status, 200);
    // A valid token this instance has not seen work waits, like any unknown one, until the window ends.
    const unseen = await t.token(account, ['agents:read']);
    assertLimited(await from(ip, unseen));
    assert.equal((await from('192.0.2.5', unseen)).status, 200);
    // A working token once revoked is an unknown one again.
    const revoked = await t.client(working).delete(`/v2/tokens/${created.body.id}`);
    assert.equal(revoked.status, 200);
    assertLimited(await from(ip, created.body.token));
  });

  it('cover the event stream and the legacy export (its bearer token and its apiKey)', async () => {
    const ip = '192.0.2.6';
    assertUnauthorized(await from(ip, generateToken(), '/v2/events'));
    const legacy = await from(ip, generateToken(), '/stats/totals');
    assert.equal(legacy.status, 401);
    assert.equal(legacy.raw.body, '{"success":false,"error":{"code":"unauthorized","message":"Unknown or revoked token"}}');
    const apiKey = await t.client().request({ method: 'GET', url: '/stats/totals?apiKey=ak_nope', remoteAddress: ip });
    assert.equal(apiKey.raw.body, '{"success":false,"error":{"code":"unauthorized","message":"Unknown apiKey"}}');
    assertLimited(await from(ip, generateToken(), '/v2/events'));
    for (const res of [
      await from(ip, generateToken(), '/stats/totals'),
      await t.client().request({ method: 'GET', url: '/stats/totals?apiKey=ak_nope', remoteAddress: ip }),
      await t.client().request({ method: 'GET', url: '/stats/totals', remoteAddress: ip }),
      await t.client().request({
        method: 'POST',
        url: '/stats/totals',
        payload: 'apiKey=ak_nope',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: ip,
      }),
    ]) {
      assert.equal(res.status, 429);
      assert.equal(res.body.success, false);
      assert.equal(res.body.error.code, 'too_many_requests');
      assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
    }
  });

  it('count a legacy request without an apiKey (or a bearer token) as a failure', async () => {
    const ip = '192.0.2.21';
    const bare = () => t.client().request({ method: 'GET', url: '/stats/totals', remoteAddress: ip });
    for (let i = 0; i < LIMIT; i++) assert.equal((await bare()).status, 401);
    const limited = await bare();
    assert.deepEqual([limited.status, limited.body.error.code], [429, 'too_many_requests']);
    assertLimited(await from(ip, generateToken()));
  });

  it('count the legacy apiKey like a token: a key that works here still passes a limited address', async () => {
    const ip = '192.0.2.7';
    assert.equal(
      (await t.client().request({ method: 'GET', url: `/stats/totals?apiKey=${account.apiKey}`, remoteAddress: ip })).status,
      200,
    );
    for (let i = 0; i < LIMIT; i++) {
      assert.equal((await t.client().request({ method: 'GET', url: `/stats/totals?apiKey=ak_wrong${i}`, remoteAddress: ip })).status, 401);
    }
    assert.equal((await t.client().request({ method: 'GET', url: '/stats/totals?apiKey=ak_wrong', remoteAddress: ip })).status, 429);
    assert.equal(
      (await t.client().request({ method: 'GET', url: `/stats/totals?apiKey=${account.apiKey}`, remoteAddress: ip })).status,
      200,
    );
  });

  it('count clients behind a trusted proxy apart, and a forged X-Forwarded-For does not help', async () => {
    const behind = (client: string, token: string) =>
      t.client().request({
        method: 'GET',
        url: '/v2/agents',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client },
        remoteAddress: PROXY,
      });
    for (let i = 0; i < LIMIT; i++) assertUnauthorized(await behind('203.0.113.1', generateToken()));
    assertLimited(await behind('203.0.113.1', generateToken()));
    assertLimited(await behind('198.51.100.1, 203.0.113.1', generateToken()));
    assertUnauthorized(await behind('203.0.113.2', generateToken()));
    assert.equal((await behind('203.0.113.3', account.token)).status, 200);
  });
});

describe('the verifier cache', () => {
  /** A verifier on the test database with its own clock, as another instance would be. */
  function instance(clock: { ms: number }, limit = 1_000) {
    return new TokenVerifier(t.db, new AuthFailureLimiter({ limit, windowMs: 10_000, now: () => clock.ms }), () => clock.ms);
  }

  it('looks one bad token up once a second however often it comes', async () => {
    const clock = { ms: 1_000_000 };
    const verifier = instance(clock);
    const bad = generateToken();
    const before = lookups;
    for (let i = 0; i < 10; i++) assert.equal(await verifier.verify(bad, `192.0.2.${100 + i}`), null);
    assert.equal(lookups, before + 1);
    clock.ms += 999;
    assert.equal(await verifier.verify(bad, '192.0.2.100'), null);
    assert.equal(lookups, before + 1);
    clock.ms += 1;
    assert.equal(await verifier.verify(bad, '192.0.2.100'), null);
    assert.equal(lookups, before + 2);
  });

  it('never hides a token created since: at once on the creating instance, within a second on others', async () => {
    const clock = { ms: 1_000_000 };
    const creating = instance(clock);
    const other = instance(clock);
    // A value looked up (and cached as unknown) before a token with it exists: impossible with random tokens, the worst case.
    const token = generateToken();
    assert.equal(await creating.verify(token, '192.0.2.120'), null);
    assert.equal(await other.verify(token, '192.0.2.120'), null);
    await insertToken(t.db, {
      accountId: account.accountId,
      id: newId('tk'),
      name: 'late',
      scopes: ['agents:read'],
      tokenHash: sha256(token),
      at: new Date(),
    });
    creating.created(token);
    assert.equal((await creating.verify(token, '192.0.2.120'))?.accountId, account.accountId);
    assert.equal(await other.verify(token, '192.0.2.120'), null);
    clock.ms += 1000;
    assert.equal((await other.verify(token, '192.0.2.120'))?.accountId, account.accountId);
  });

  it('is told of tokens the token service creates', async () => {
    const clock = { ms: 1_000_000 };
    const verifier = instance(clock, 1);
    await assert.rejects(
      verifier.verify(generateToken(), '192.0.2.121').then(() => verifier.verify(generateToken(), '192.0.2.121')),
      {
        status: 429,
      },
    );
    const created = await createToken({ db: t.db, now: () => new Date(), verifier }, account.accountId, {
      name: 'x',
      scopes: ['agents:read'],
    });
    assert.equal((await verifier.verify(created.token, '192.0.2.121'))?.tokenId, created.id);
  });
});

describe('the failure limiter', () => {
  it('opens a new window when the last ends', () => {
    const clock = { ms: 0 };
    const limiter = new AuthFailureLimiter({ limit: 2, windowMs: 10_000, now: () => clock.ms });
    limiter.failed('192.0.2.1', 'a');
    clock.ms = 4_000;
    limiter.failed('192.0.2.1', 'b');
    assert.throws(
      () => limiter.check('192.0.2.1', 'c'),
      (error: { status: number; headers: Record<string, string> }) => {
        assert.equal(error.status, 429);
        assert.equal(error.headers['Retry-After'], '6');
        return true;
      },
    );
    clock.ms = 9_999;
    assert.throws(() => limiter.check('192.0.2.1', 'c'), { status: 429 });
    clock.ms = 10_000;
    limiter.check('192.0.2.1', 'c');
    limiter.failed('192.0.2.1', 'c');
    limiter.check('192.0.2.1', 'c');
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    assert.equal(addressKey('192.0.2.1'), '192.0.2.1');
    assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64');
    const limiter = new AuthFailureLimiter({ limit: 2, windowMs: 10_000, now: () => 0 });
    limiter.failed('2001:db8:1:2::1', 'a');
    limiter.failed('2001:db8:1:2::2', 'b');
    assert.throws(() => limiter.check('2001:db8:1:2::3', 'c'), { status: 429 });
    limiter.check('2001:db8:1:3::1', 'c');
    limiter.failed('::ffff:192.0.2.9', 'a');
    limiter.failed('192.0.2.9', 'b');
    assert.throws(() => limiter.check('192.0.2.9', 'c'), { status: 429 });
  });

  it('keeps its memory bounded, dropping the oldest windows first', () => {
    let ms = 0;
    const limiter = new AuthFailureLimiter({ limit: 1, windowMs: 1_000_000_000, now: () => ms });
    for (let i = 0; i < 100_001; i++) {
      ms += 1;
      limiter.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'x');
    }
    // The first address's window was dropped to make room; the last one's stands.
    limiter.check('10.0.0.0', 'x');
    assert.throws(() => limiter.check('10.1.134.160', 'x'), { status: 429 });
  });
});

describe('AUTH_FAILURE_LIMIT and AUTH_FAILURE_WINDOW_SECONDS', () => {
  it('default to 20 failures per 10 s and refuse values out of range with a one-line message', () => {
    assert.equal(loadConfig({}).authFailureLimit, 20);
    assert.equal(loadConfig({}).authFailureWindowSeconds, 10);
    assert.equal(loadConfig({ AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_WINDOW_SECONDS: '60' }).authFailureLimit, 5);
    assert.throws(
      () => loadConfig({ AUTH_FAILURE_LIMIT: '0' }),
      (error: Error) => error instanceof ConfigError && /^AUTH_FAILURE_LIMIT must be an integer from 1 to /.test(error.message),
    );
    assert.throws(
      () => loadConfig({ AUTH_FAILURE_WINDOW_SECONDS: '86401' }),
      (error: Error) =>
        error instanceof ConfigError && /^AUTH_FAILURE_WINDOW_SECONDS must be an integer from 1 to 86400/.test(error.message),
    );
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { redactUrl } from './log-redaction.ts';

let t: TestApp;
let app: FastifyInstance;
let account: TestAccount;
const lines: string[] = [];

before(async () => {
  t = await startTestApp();
  // The app as the server builds it, at level debug, its log read line by line.
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp(t.deps, { logger: { level: 'debug', stream } });
  await app.ready();
  account = await t.account();
});
after(async () => {
  await app.close();
  await t.close();
});

describe('request logs (docs/behaviour.md §11)', () => {
  it('never hold the legacy apiKey, a bearer token, a cookie or an Idempotency-Key', async () => {
    lines.length = 0;
    const secrets = [account.apiKey, account.token, 'cookie-secret-42', 'idem-key-secret-17'];
    const responses = await Promise.all([
      app.inject({ method: 'GET', url: `/stats/totals?apiKey=${account.apiKey}&from=2024-03-01&to=2024-03-02` }),
      app.inject({ method: 'GET', url: `/stats/totals?from=2024-03-01&API_KEY=${account.apiKey}` }),
      app.inject({ method: 'GET', url: `/stats/nope?apiKey=${account.apiKey}` }),
      app.inject({
        method: 'GET',
        url: `/v2/account?access_token=${account.token}`,
        headers: { authorization: `Bearer ${account.token}` },
      }),
      app.inject({
        method: 'POST',
        url: '/v2/contacts',
        headers: { authorization: `Bearer ${account.token}`, cookie: 'sid=cookie-secret-42', 'idempotency-key': 'idem-key-secret-17' },
        payload: { name: 'Ada' },
      }),
    ]);
    assert.deepEqual(
      responses.map((r) => r.statusCode),
      [200, 401, 404, 200, 200],
    );
    const urls = lines.map((line) => JSON.parse(line)).flatMap((entry) => (entry.req ? [entry.req.url] : []));
    assert.ok(urls.includes('/stats/totals?apiKey=[REDACTED]&from=2024-03-01&to=2024-03-02'), urls.join('\n'));
    assert.ok(urls.includes('/v2/account?access_token=[REDACTED]'), urls.join('\n'));
    const log = lines.join('\n');
    for (const secret of secrets) assert.ok(!log.includes(secret), `the log holds ${secret}`);
  });

  it('keep the path and the harmless parameters as sent', () => {
    assert.equal(redactUrl('/stats/overview?interval=day&from=2024-03-01'), '/stats/overview?interval=day&from=2024-03-01');
    assert.equal(redactUrl('/v2/conversations'), '/v2/conversations');
    assert.equal(
      redactUrl('/x?a=1&apiKey=ak_1&token=t&client_secret=s&password=p&sig=x&api%4Bey=k&%zz=1'),
      '/x?a=1&apiKey=[REDACTED]&token=[REDACTED]&client_secret=[REDACTED]&password=[REDACTED]&sig=[REDACTED]&api%4Bey=[REDACTED]&%zz=1',
    );
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { freshStorage } from '../test/processes.ts';
import { produceAgentEvents } from '../test/events.ts';
import { loadConfig, ConfigError } from '../config.ts';
import { startServer } from '../server.ts';
import { deliverDueWebhooks } from '../webhooks/delivery.ts';
import { closeIdleConversations } from '../conversations/inactivity.ts';
import { measuredJob } from './metrics.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** One sample line of the Prometheus text format: name, optional {labels}, value. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the whole exposition, failing on any line that is neither a comment nor a sample. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE.exec(line);
    assert.ok(match, `not a Prometheus sample line: ${line}`);
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named `name` whose labels include `labels`; 0 when there is none yet. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `several ${name} samples match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

let t: TestApp;
before(async () => {
  t = await startTestApp({ metricsToken: METRICS_TOKEN, webhookBlockPrivate: false });
});
after(() => t.close());

async function scrape(): Promise<Sample[]> {
  const res = await t.client(METRICS_TOKEN).get('/metrics');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parse(res.body);
}

describe('GET /metrics', () => {
  it('requires METRICS_TOKEN as a bearer token', async () => {
    for (const token of [undefined, 'metrics-token-wrong-value', (await t.account()).token]) {
      const res = await t.client(token).get('/metrics');
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
  });

  it('is off (404) without METRICS_TOKEN and METRICS_PORT', async () => {
    const off = await startTestApp();
    try {
      const res = await off.client(METRICS_TOKEN).get('/metrics');
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
    } finally {
      await off.close();
    }
  });

  it('rejects a short METRICS_TOKEN at start', () => {
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), ConfigError);
    assert.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464);
  });

  it('counts requests by route pattern and status, and database statements', async () => {
    const account = await t.account();
    const before = await scrape();
    const client = t.client(account.token);
    for (let i = 0; i < 3; i++) assert.equal((await client.get('/v2/agents')).status, 200);
    assert.equal((await client.get('/v2/agents/no-such-agent')).status, 404);
    assert.equal((await t.client().get('/v2/agents')).status, 401);
    assert.equal((await client.get('/no/such/path')).status, 404);
    const now = await scrape();

    const requests = (labels: Record<string, string>) =>
      value(now, 'chat_http_request_duration_seconds_count', labels) - value(before, 'chat_http_request_duration_seconds_count', labels);
    assert.equal(requests({ method: 'GET', route: '/v2/agents', status: '200' }), 3);
    assert.equal(requests({ method: 'GET', route: '/v2/agents', status: '401' }), 1);
    assert.equal(requests({ method: 'GET', route: '/v2/agents/:id', status: '404' }), 1);
    assert.equal(requests({ method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.ok(!now.some((s) => s.labels.route?.includes('no-such')), 'no URL becomes a label');

    const statements = (s: Sample[]) => value(s, 'chat_db_query_duration_seconds_count', { kind: 'query', lane: 'small', outcome: 'ok' });
    assert.ok(statements(now) > statements(before));
    assert.equal(value(now, 'chat_db_queries_in_flight'), 0);
    assert.ok(value(now, 'chat_db_pool_size') >= 1);
    // The scrape's own outbox query may hold a small connection; nothing else runs.
    assert.ok(value(now, 'chat_db_pool_busy', { lane: 'small' }) <= 1);
    assert.equal(value(now, 'chat_db_pool_busy', { lane: 'heavy' }), 0);
    assert.equal(value(now, 'chat_db_pool_waiting', { lane: 'small' }), 0);

    // Heavy work (statistics) is timed in its own lane.
    const heavy = (s: Sample[]) => value(s, 'chat_db_query_duration_seconds_count', { kind: 'query', lane: 'heavy', outcome: 'ok' });
    const statistics = await client.post('/v2/statistics?timezone=UTC', {
      closed: { name: 'closed_conversation', range: { from: '2024-03-04T00:00:00', to: '2024-03-06T23:59:59' } },
    });
    assert.equal(statistics.status, 200);
    assert.ok(heavy(await scrape()) > heavy(now));
    // Node process metrics come along.
    assert.ok(value(now, 'process_cpu_user_seconds_total') > 0);
    assert.ok(now.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
  });

  it('shows the outbox backlog and counts webhook deliveries', async () => {
    const account = await t.account();
    let answer = 200;
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(answer).end());
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const hook = await t.client(account.token).post('/v2/webhooks', { url });
      assert.equal(hook.status, 200);
      const before = await scrape();
      await produceAgentEvents(t, account, 2);

      const queued = await scrape();
      assert.equal(value(queued, 'chat_outbox_unqueued_events') - value(before, 'chat_outbox_unqueued_events'), 2);

      answer = 500;
      await deliverDueWebhooks(t.deps); // queues both (one lane), sends the first: it fails and will be retried
      const failing = await scrape();
      assert.equal(value(failing, 'chat_outbox_unqueued_events'), value(before, 'chat_outbox_unqueued_events'));
      assert.equal(value(failing, 'chat_outbox_pending_deliveries') - value(before, 'chat_outbox_pending_deliveries'), 2);
      assert.ok(value(failing, 'chat_outbox_oldest_pending_seconds') >= 0);
      const delta = (s: Sample[], name: string, outcome: string) => value(s, name, { outcome }) - value(before, name, { outcome });
      assert.equal(delta(failing, 'chat_webhook_deliveries_total', 'retrying'), 1);
      assert.equal(delta(failing, 'chat_webhook_delivery_duration_seconds_count', 'retrying'), 1);

      answer = 200;
      for (
        let pass = 0;
        pass < 10 && value(await scrape(), 'chat_outbox_pending_deliveries') > value(before, 'chat_outbox_pending_deliveries');
        pass++
      ) {
        t.clock.advance(3600);
        await deliverDueWebhooks(t.deps);
      }
      const done = await scrape();
      assert.equal(delta(done, 'chat_webhook_deliveries_total', 'delivered'), 2);
      assert.equal(delta(done, 'chat_webhook_deliveries_total', 'failed'), 0);
      assert.equal(value(done, 'chat_outbox_pending_deliveries'), value(before, 'chat_outbox_pending_deliveries'));
      await t.client(account.token).delete(`/v2/webhooks/${hook.body.id}`);
    } finally {
      t.clock.reset();
      receiver.close();
    }
  });

  it('counts open event streams', async () => {
    const account = await t.account();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const opened = await fetch(`${base}/v2/events`, { headers: { authorization: `Bearer ${account.token}` } });
    assert.equal(opened.status, 200);
    assert.equal(value(await scrape(), 'chat_event_streams_open'), 1);
    await opened.body?.cancel();
    // The server notices the closed connection on its next write or poll.
    for (let i = 0; i < 100 && value(await scrape(), 'chat_event_streams_open') > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(value(await scrape(), 'chat_event_streams_open'), 0);
  });

  it('times background job passes', async () => {
    const job = measuredJob(t.deps.metrics, 'inactivity_close', () => closeIdleConversations(t.deps));
    await job();
    await assert.rejects(measuredJob(t.deps.metrics, 'inactivity_close', () => Promise.reject(new Error('down')))());
    const now = await scrape();
    assert.equal(value(now, 'chat_job_duration_seconds_count', { job: 'inactivity_close', outcome: 'ok' }), 1);
    assert.equal(value(now, 'chat_job_duration_seconds_count', { job: 'inactivity_close', outcome: 'error' }), 1);
  });

  it('counts rate-limit rejections', async () => {
    const limited = await startTestApp({ metricsToken: METRICS_TOKEN, rateLimitBurst: 2, rateLimitPerSecond: 1 });
    try {
      const account = await limited.account();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.client(account.token).get('/v2/agents')).status);
      assert.deepEqual(statuses, [200, 200, 429, 429]);
      const res = await limited.client(METRICS_TOKEN).get('/metrics');
      assert.equal(res.status, 200, 'the metrics are not rate limited');
      assert.equal(value(parse(res.body), 'chat_rate_limit_rejections_total', { route: '/v2/agents' }), 2);
    } finally {
      await limited.close();
    }
  });
});

describe('METRICS_PORT', { timeout: 120_000 }, () => {
  it('serves /metrics on its own port only, with the token when one is set; other paths are 404 not_found', async () => {
    const storage = await freshStorage();
    const server = await startServer(
      loadConfig({ ...storage.env, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', METRICS_TOKEN, LOG_LEVEL: 'silent' }),
      () => undefined,
    );
    try {
      assert.ok(server.metricsUrl && server.metricsUrl !== server.url);
      assert.equal((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 404);
      assert.equal((await fetch(`${server.metricsUrl}/metrics`)).status, 401);
      const elsewhere = await fetch(`${server.metricsUrl}/v2/agents?limit=1`);
      assert.equal(elsewhere.status, 404);
      assert.deepEqual(await elsewhere.json(), { code: 'not_found', message: 'Route GET /v2/agents not found' });
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      const res = await fetch(`${server.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(res.status, 200);
      const samples = parse(await res.text());
      assert.equal(value(samples, 'chat_http_request_duration_seconds_count', { route: '/healthz', status: '200' }), 1);
    } finally {
      await server.stop();
      await storage.cleanup();
    }
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freshStorage, startServe } from './test/processes.ts';

interface LogLine {
  msg?: string;
  reqId?: string;
  req?: unknown;
  res?: unknown;
}

const logLines = (stdout: string): LogLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('chat-service serve, as a real process', { timeout: 600_000 }, () => {
  it('starts, creates the first account once, logs request ids, stops with exit code 0, and keeps its data', async () => {
    const storage = await freshStorage();
    try {
      const server = await startServe(storage.env);
      let token: string;
      try {
        const health = await fetch(`${server.url}/healthz`);
        assert.equal(health.status, 200);
        assert.deepEqual(await health.json(), { status: 'ok' });
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200);

        const banner = /owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout);
        assert.ok(banner, 'the first start prints the owner token');
        token = banner[1];
        assert.match(server.output().stdout, /legacy apiKey: ak_[\w-]{32}/);
        assert.match(server.output().stdout, new RegExp(`curl -H 'Authorization: Bearer ${token}' ${server.url}/v2/agents`));

        const res = await fetch(`${server.url}/v2/agents`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-42' } });
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { agents: [] });
        assert.equal(res.headers.get('x-request-id'), 'trace-42');
      } finally {
        server.signal('SIGTERM');
      }
      const stopped = await server.exited;
      assert.equal(stopped.code, 0, stopped.stderr);
      const lines = logLines(stopped.stdout);
      const traced = lines.filter((line) => line.reqId === 'trace-42').map((line) => line.msg);
      assert.deepEqual(traced, ['incoming request', 'request completed']);
      for (const line of lines.filter((l) => l.req || l.res)) assert.match(String(line.reqId), /\S/, 'every request line has its id');
      assert.ok(lines.some((line) => line.msg === 'shutting down'));

      // Second start on the same storage: no new account, the token still works; SIGINT stops it too.
      const again = await startServe(storage.env);
      try {
        assert.doesNotMatch(again.output().stdout, /Created the first account/);
        const res = await fetch(`${again.url}/v2/agents`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.status, 200);
      } finally {
        again.signal('SIGINT');
      }
      assert.equal((await again.exited).code, 0);
    } finally {
      await storage.cleanup();
    }
  });
});

import { describe, it } from 'node:test';
import { connect } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import pg from 'pg';
import { engine } from './test/harness.ts';
import { freshStorage, runCli, startServe } from './test/processes.ts';

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

/**
 * Sends `chunks` on a raw socket, `gapMs` apart (a client dripping its request), and resolves with
 * everything the server sent once it closes the connection.
 */
function rawExchange(url: string, chunks: string[], gapMs: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const sendNext = (index: number) => {
      if (index >= chunks.length || socket.destroyed) return;
      socket.write(chunks[index]);
      timer = setTimeout(() => sendNext(index + 1), gapMs);
    };
    socket.on('connect', () => sendNext(0));
    socket.on('data', (data) => (received += data));
    socket.on('error', (error) => (received ? undefined : reject(error)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** The status and the JSON body of a raw HTTP/1.1 response. */
function parseResponse(raw: string): { status: number; body: unknown } {
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

describe('slow clients and shutdown, as a real process', { timeout: 600_000 }, () => {
  const timeout = {
    code: 'request_timeout',
    message: 'The request was not received in time (headers or body too slow); the connection is closed',
  };

  it('answers 408 to headers or a body not received in time, and SIGTERM ends open event streams and exits 0', async () => {
    const storage = await freshStorage();
    try {
      const server = await startServe({ ...storage.env, HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
      let stopping = false;
      try {
        const token = /owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout)![1];
        const post = `POST /v2/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
        const body = `{"name":"${'x'.repeat(90)}"}`;
        const [headersStalled, bodyStalled, bodyDripping] = await Promise.all([
          rawExchange(server.url, ['GET /healthz HTTP/1.1\r\nHost: x\r\n'], 0),
          rawExchange(server.url, [post, body.slice(0, 2)], 0),
          // One byte every 300 ms: never idle, yet the whole request takes longer than REQUEST_TIMEOUT_MS.
          rawExchange(server.url, [post, ...body], 300),
        ]);
        for (const raw of [headersStalled, bodyStalled, bodyDripping]) assert.deepEqual(parseResponse(raw), { status: 408, body: timeout });
        const tags = await fetch(`${server.url}/v2/tags`, { headers: { authorization: `Bearer ${token}` } });
        assert.deepEqual(await tags.json(), { tags: [] }, 'no request that timed out was handled');

        const stream = await fetch(`${server.url}/v2/events`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(stream.status, 200);
        const reader = stream.body!.getReader();
        await reader.read();
        server.signal('SIGTERM');
        stopping = true;
        let ended = false;
        while (!ended) ended = (await reader.read()).done;
      } finally {
        if (!stopping) server.signal('SIGTERM');
      }
      const stopped = await server.exited;
      assert.equal(stopped.code, 0, stopped.stderr);
    } finally {
      await storage.cleanup();
    }
  });

  it('exits after SHUTDOWN_TIMEOUT_MS, with code 1 and a log line, when a request never finishes', async () => {
    const storage = await freshStorage();
    try {
      const server = await startServe({ ...storage.env, REQUEST_TIMEOUT_MS: '600000', SHUTDOWN_TIMEOUT_MS: '1500' });
      const token = /owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout)![1];
      const post = `POST /v2/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"`;
      const stalled = rawExchange(server.url, [post], 0);
      // The request is in flight once the server has logged it.
      while (!server.output().stdout.includes('"incoming request"')) await new Promise((resolve) => setTimeout(resolve, 50));
      server.signal('SIGTERM');
      const stopped = await server.exited;
      assert.equal(stopped.code, 1);
      assert.ok(logLines(stopped.stdout).some((line) => line.msg?.startsWith('shutdown timed out (SHUTDOWN_TIMEOUT_MS)')));
      assert.equal(await stalled, '', 'the stalled client got no answer: its connection closed with the process');
      if (engine === 'pglite') {
        // PGlite was closed before the exit (issue 18.15): the control file says shut down (1), not in production (6), and the lock is gone.
        const dir = storage.env.DATA_DIR;
        assert.equal(readFileSync(path.join(dir, 'global', 'pg_control')).readInt32LE(16), 1);
        assert.deepEqual(
          readdirSync(dir).filter((file) => file.startsWith('chat-service.lock')),
          [],
        );
      }
    } finally {
      await storage.cleanup();
    }
  });
});

describe('first account, as real processes', { timeout: 600_000 }, () => {
  it(
    'instances starting at once on an empty PostgreSQL database create one first account',
    { skip: engine === 'pglite' && 'PGlite: one process per data directory' },
    async () => {
      const storage = await freshStorage();
      try {
        // Migrated beforehand, so the instances do not reach the first account one migration apart. Processes start
        // hundreds of milliseconds apart, so this rarely races even unlocked: src/accounts/first-account.test.ts does.
        assert.equal((await runCli(['migrate'], storage.env)).code, 0);
        const servers = await Promise.all([startServe(storage.env), startServe(storage.env)]);
        for (const server of servers) server.signal('SIGTERM');
        const outputs = await Promise.all(servers.map((server) => server.exited));
        for (const output of outputs) assert.equal(output.code, 0, output.stderr);
        assert.equal(outputs.filter((output) => output.stdout.includes('Created the first account')).length, 1);
        const client = new pg.Client({ connectionString: storage.env.DATABASE_URL });
        await client.connect();
        try {
          assert.deepEqual((await client.query('select count(*)::int as n from accounts')).rows, [{ n: 1 }]);
        } finally {
          await client.end();
        }
      } finally {
        await storage.cleanup();
      }
    },
  );
});

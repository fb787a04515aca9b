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
        token = banner[1]!;
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
      socket.write(chunks[index]!);
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
  assert.ok(head && body);
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

  it('drains on SIGTERM: new connections are refused, the request under way is answered with Connection: close', async () => {
    const storage = await freshStorage();
    try {
      const server = await startServe(storage.env);
      const token = /owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout)![1];
      const { hostname, port } = new URL(server.url);
      const body = '{"name":"drained"}';
      // A request under way when SIGTERM comes (its body not all sent yet) on a kept-alive connection, as a proxy's are.
      const head = `POST /v2/tags HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (data) => (received += data));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(head + body.slice(0, 5));
      while (!server.output().stdout.includes('"incoming request"')) await new Promise((resolve) => setTimeout(resolve, 20));
      server.signal('SIGTERM');
      // The listener closes at once: a new connection is refused (a proxy sends its request to another instance).
      let refused = false;
      for (let wait = 0; !refused && wait < 100; wait++) {
        refused = await new Promise<boolean>((resolve) => {
          const probe = connect(Number(port), hostname);
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', () => resolve(true));
        });
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(refused, 'a new connection is refused once SIGTERM came');
      socket.write(body.slice(5));
      // The server closes the connection after the answer: the proxy's next request cannot land on it.
      await closed;
      assert.match(received, /^HTTP\/1\.1 200 OK\r\n/, received);
      assert.match(received, /\r\nconnection: close\r\n/i, 'the answer during the shutdown closes its connection');
      assert.match(received, /"name":"drained"/);
      assert.equal((await server.exited).code, 0);
    } finally {
      await storage.cleanup();
    }
  });

  it('exits within SHUTDOWN_TIMEOUT_MS while writers and statistics keep it busy', async () => {
    const storage = await freshStorage();
    try {
      const shutdownMs = 2000;
      const server = await startServe({
        ...storage.env,
        SHUTDOWN_TIMEOUT_MS: String(shutdownMs),
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_BURST: '1000000',
      });
      const token = /owner token:\s+(cs_[\w-]{40})/.exec(server.output().stdout)![1];
      const call = (url: string, body: unknown) =>
        fetch(`${server.url}${url}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const contact = await (await call('/v2/contacts', { name: 'Load' })).json();
      let running = true;
      let written = 0;
      const loop = async (send: () => Promise<Response>, answered: () => void) => {
        while (running) {
          try {
            const res = await send();
            await res.arrayBuffer();
            if (res.ok) answered();
          } catch {
            return; // the server is gone
          }
        }
      };
      const text = { content: { text: 'Under load' }, sub_type: 'contact' };
      const load = [
        ...Array.from({ length: 16 }, () =>
          loop(
            () => call('/v2/conversations', { contact_id: contact.id, messages: [text, text, text] }),
            () => (written += 1),
          ),
        ),
        ...Array.from({ length: 2 }, () =>
          loop(
            () => call('/v2/statistics', { x: { name: 'new_conversation', range: { from: null, to: null } } }),
            () => undefined,
          ),
        ),
      ];
      while (written < 100) await new Promise((resolve) => setTimeout(resolve, 20));
      const signalled = performance.now();
      server.signal('SIGTERM');
      const stopped = await server.exited;
      const elapsed = performance.now() - signalled;
      running = false;
      await Promise.all(load);
      // The bound the docs state (docs/operations.md#graceful-shutdown), with room for the process's own exit on a loaded machine.
      assert.ok(elapsed < shutdownMs + 1000, `exited ${Math.round(elapsed)} ms after SIGTERM (SHUTDOWN_TIMEOUT_MS=${shutdownMs})`);
      assert.ok(stopped.code === 0 || stopped.code === 1, stopped.stderr);
      assert.ok(logLines(stopped.stdout).some((line) => line.msg === 'shutting down'));
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
        const dir = storage.env.DATA_DIR!;
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

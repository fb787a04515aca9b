import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { migrationFiles } from './db/migrate.ts';
import { engine } from './test/harness.ts';
import { freshStorage, openStorage, runCli, startServe, type Finished, type Storage } from './test/processes.ts';

function json(result: Finished) {
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

function assertFailed(result: Finished, message: RegExp) {
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, message);
}

describe('chat-service CLI', { timeout: 600_000 }, () => {
  let storage: Storage;
  let created: { account_id: string; token: string; api_key: string };
  const ids: Record<string, string> = {};

  before(async () => {
    storage = await freshStorage();
  });
  after(() => storage.cleanup());

  it('account create --json prints the account id, the owner token and the apiKey', async () => {
    created = json(await runCli(['account', 'create', '--name', 'Acme', '--json'], storage.env));
    assert.deepEqual(Object.keys(created).sort(), ['account_id', 'api_key', 'token']);
    assert.match(created.account_id, /^ac[\w-]{12}$/);
    assert.match(created.token, /^cs_[\w-]{40}$/);
    assert.match(created.api_key, /^ak_[\w-]{32}$/);
  });

  it('token create makes a token with the given scopes', async () => {
    const token = json(
      await runCli(['token', 'create', '--account', created.account_id, '--scopes', 'agents:read,contacts:read', '--json'], storage.env),
    );
    assert.deepEqual(token.scopes, ['agents:read', 'contacts:read']);
    assert.match(token.token, /^cs_/);
    ids.readToken = token.token;
  });

  it('group add, tag add, agent add and bot add create records like the management API', async () => {
    const account = ['--account', created.account_id];
    const group = json(await runCli(['group', 'add', ...account, '--name', 'Sales', '--json'], storage.env));
    assert.match(group.id, /^gr/);
    assert.equal(group.name, 'Sales');
    const tag = json(await runCli(['tag', 'add', ...account, '--name', 'VIP', '--json'], storage.env));
    assert.match(tag.id, /^tg/);
    const agent = json(
      await runCli(
        ['agent', 'add', ...account, '--email', 'ann@example.com', '--nickname', 'Ann', '--role', 'admin', '--group', group.id, '--json'],
        storage.env,
      ),
    );
    assert.deepEqual([agent.email, agent.nickname, agent.role, agent.group_ids], ['ann@example.com', 'Ann', 'admin', [group.id]]);
    const bot = json(
      await runCli(
        [
          'bot',
          'add',
          ...account,
          '--name',
          'Greeter',
          '--event',
          'idle',
          '--text',
          'Hi',
          '--conditions',
          '{"after_seconds":30}',
          '--json',
        ],
        storage.env,
      ),
    );
    assert.match(bot.id, /^bo/);
    Object.assign(ids, { group: group.id, tag: tag.id, agent: agent.id, bot: bot.id });
  });

  it('prints plain text without --json', async () => {
    const result = await runCli(['tag', 'add', '--account', created.account_id, '--name', 'Later'], storage.env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^tag tg[\w-]{12} Later\n$/);
  });

  it('account rotate-api-key prints a new apiKey (the old one is refused once served, below); an unknown account fails', async () => {
    const rotated = json(await runCli(['account', 'rotate-api-key', '--account', created.account_id, '--json'], storage.env));
    assert.deepEqual(Object.keys(rotated), ['api_key']);
    assert.match(rotated.api_key, /^ak_[\w-]{32}$/);
    assert.notEqual(rotated.api_key, created.api_key);
    ids.apiKey = rotated.api_key;
    assertFailed(await runCli(['account', 'rotate-api-key', '--account', 'acNOPE'], storage.env), /Account acNOPE/);
  });

  it('answers bad arguments with a clear message and a non-zero exit, changing nothing', async () => {
    const account = ['--account', created.account_id];
    // Refused before the database is opened, so these may run side by side.
    const refusedEarly: [string[], Record<string, string>, RegExp][] = [
      [['token', 'create', ...account, '--scopes', 'agents:read,root'], {}, /unknown scope root/],
      [['group', 'add', '--name', 'x'], {}, /required option '--account <id>'/],
      [
        ['agent', 'add', ...account, '--email', 'not-an-email', '--role', 'boss'],
        {},
        /email must match format "email"[\s\S]*role must be one of: agent, admin, owner/,
      ],
      [['bot', 'add', ...account, '--name', 'x', '--conditions', '{oops'], {}, /--conditions.*not valid JSON/],
      [['bot', 'add', ...account, '--name', 'x', '--event', 'sunrise'], {}, /trigger\.event must be one of/],
      [['bot', 'add', ...account, '--name', 'x', '--conditions', `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`], {}, /nested deeper than/],
      [['account', 'create', '--name', ''], {}, /name must NOT have fewer than 1 characters/],
      [['account', 'create', '--name', 'x'.repeat(201)], {}, /name must NOT have more than 200 characters/],
      [['frobnicate'], {}, /unknown command 'frobnicate'/],
      [['serve'], { PORT: 'eighty' }, /^chat-service: PORT must be an integer from 0 to 65535, got "eighty"\n$/],
      [['serve'], { PORT: '70000' }, /^chat-service: PORT must be an integer from 0 to 65535, got "70000"\n$/],
      [['serve'], { WEBHOOK_TIMEOUT_MS: '1e3' }, /^chat-service: WEBHOOK_TIMEOUT_MS must be an integer from 1 to 2147483647, got "1e3"\n$/],
      [
        ['serve'],
        { INACTIVITY_TIMEOUT_SECONDS: '99999999999' },
        /^chat-service: INACTIVITY_TIMEOUT_SECONDS must be an integer from 1 to 2147483, got/,
      ],
    ];
    const results = await Promise.all(refusedEarly.map(([args, env]) => runCli(args, { ...storage.env, ...env })));
    results.forEach((result, i) => assertFailed(result, refusedEarly[i]![2]));
    // Refused by a rule checked against the data.
    assertFailed(await runCli(['agent', 'add', ...account, '--email', 'ANN@example.com'], storage.env), /email is already used/);
    assertFailed(
      await runCli(['agent', 'add', ...account, '--email', 'b@example.com', '--group', 'grNope'], storage.env),
      /Group grNope not found/,
    );
    assertFailed(await runCli(['tag', 'add', '--account', 'acUnknown', '--name', 'x'], storage.env), /Account acUnknown not found/);
  });

  it('--version prints the version alone, without opening the database', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const result = await runCli(['--version'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    assert.deepEqual([result.code, result.stdout, result.stderr], [0, `${version}\n`, '']);
  });

  it('migrate --status lists pending migrations without applying them, then the applied ones with their time', async () => {
    const fresh = await freshStorage();
    try {
      const files = migrationFiles();
      const before = await runCli(['migrate', '--status'], fresh.env);
      assert.equal(before.code, 0, before.stderr);
      assert.deepEqual(before.stdout.trim().split('\n'), [
        ...files.map((file) => `pending  ${file}`),
        `${files.length} pending: run \`chat-service migrate\` (the server applies them on start)`,
      ]);
      assert.equal((await runCli(['migrate', '--status'], fresh.env)).stdout, before.stdout, 'the status applied nothing');
      assert.equal((await runCli(['migrate'], fresh.env)).code, 0);
      const after = (await runCli(['migrate', '--status'], fresh.env)).stdout.trim().split('\n');
      assert.equal(after.pop(), 'Schema is up to date');
      assert.deepEqual(
        after.map((line) => line.replace(/ {2}\d{4}-\d\d-\d\dT[\d:.]+Z$/, '')),
        files.map((file) => `applied  ${file}`),
      );
    } finally {
      await fresh.cleanup();
    }
  });

  it('demo-data reports progress in plain lines when stderr is not a terminal, and analyzes what it wrote', async () => {
    const fresh = await freshStorage();
    try {
      const result = await runCli(['demo-data', '--conversations', '30', '--days', '7'], fresh.env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /^demo-data 100% \| 30\/30 conversations \| \d+s$/m);
      assert.ok(!result.stderr.includes('\u001b['), 'no terminal escape codes');
      assert.match(result.stdout, /^Wrote 30 conversations/m);
      // ANALYZE sets the planner's row estimates (reltuples stays -1 on a table never analyzed).
      const db = await openStorage(fresh);
      try {
        const { rows } = await db.query<{ reltuples: number }>("select reltuples from pg_class where relname = 'messages'");
        assert.ok(rows[0]!.reltuples > 0, `messages reltuples ${rows[0]!.reltuples}`);
      } finally {
        await db.close();
      }
    } finally {
      await fresh.cleanup();
    }
  });

  it('reports an unusable environment in one line, without a stack trace or the password', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const busyPort = String((busy.address() as AddressInfo).port);
    try {
      const cases: [string[], Record<string, string>, RegExp][] = [
        [['migrate'], { DATABASE_URL: 'localhost/chat' }, /^chat-service: DATABASE_URL must be a URL such as postgres:\/\//],
        [
          ['migrate'],
          { DATABASE_URL: 'postgres://chat:s3cret@127.0.0.1:1/chat' },
          /^chat-service: Cannot use the database 127\.0\.0\.1:1\/chat \(DATABASE_URL\): .*ECONNREFUSED/,
        ],
        [
          ['serve'],
          { DATABASE_URL: '', DATABASE_DIRECT_URL: '', DATABASE_READ_URL: '', DATA_DIR: 'memory', PORT: busyPort },
          /^chat-service: listen EADDRINUSE/,
        ],
        [
          ['migrate'],
          { DATABASE_URL: '', DATABASE_DIRECT_URL: 'postgres://chat:s3cret@127.0.0.1:1/chat', DATABASE_READ_URL: '' },
          /^chat-service: DATABASE_DIRECT_URL needs DATABASE_URL/,
        ],
        [
          ['migrate'],
          { DATABASE_PREPARED_STATEMENTS: 'yes' },
          /^chat-service: DATABASE_PREPARED_STATEMENTS must be one of auto, on, off, got "yes"/,
        ],
      ];
      const results = await Promise.all(cases.map(([args, env]) => runCli(args, { ...storage.env, ...env })));
      results.forEach((result, i) => {
        assertFailed(result, cases[i]![2]);
        assert.doesNotMatch(result.stderr, /\n\s+at |s3cret/);
      });
    } finally {
      busy.close();
    }
  });

  it('what the CLI created is served over HTTP; a second process on a held data directory names the holder', async () => {
    const server = await startServe(storage.env);
    try {
      const get = async (url: string, token: string) => {
        const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: await res.json() };
      };
      const agents = await get('/v2/agents', ids.readToken!);
      assert.equal(agents.status, 200);
      assert.deepEqual(
        agents.body.agents.map((a: { id: string; group_ids: string[] }) => [a.id, a.group_ids]),
        [[ids.agent, [ids.group]]],
      );
      assert.deepEqual((await get('/v2/agents', 'cs_unknown')).status, 401);
      const trigger = await get(`/v2/bots/${ids.bot}/trigger`, created.token);
      assert.deepEqual([trigger.body.event, trigger.body.conditions, trigger.body.content.text], ['idle', { after_seconds: 30 }, 'Hi']);
      assert.deepEqual(
        (await get('/v2/tags', created.token)).body.tags.map((tag: { name: string }) => tag.name),
        ['VIP', 'Later'],
      );
      const totals = async (apiKey: string) =>
        (await fetch(`${server.url}/stats/totals?apiKey=${apiKey}&from=2024-03-01&to=2024-03-02`)).status;
      assert.deepEqual([await totals(created.api_key), await totals(ids.apiKey!)], [401, 200]);
      // Rejected commands above created nothing.
      assert.equal((await get('/v2/groups', created.token)).body.groups.length, 1);
      assert.equal((await get('/v2/bots', created.token)).body.bots.length, 1);

      if (engine === 'pglite') {
        const second = await runCli(['account', 'create', '--json'], storage.env);
        assertFailed(second, new RegExp(`in use by process ${server.pid}\\b`));
        assert.equal(second.stdout, '');
      }
    } finally {
      server.signal('SIGTERM');
    }
    assert.equal((await server.exited).code, 0);
  });
});

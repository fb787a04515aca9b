import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';
import { createAgent } from './service.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ presenceTtlSeconds: 120 });
});
after(() => t.close());

async function accountWithAgent(): Promise<{ account: TestAccount; agentId: string }> {
  const account = await t.account();
  const agent = await createAgent(t.deps, account.accountId, { email: `a${Math.random()}@example.com`, nickname: 'Ann' });
  return { account, agentId: agent.id };
}

describe('GET /v2/agents', () => {
  it('lists the account agents and nobody else', async () => {
    const { account, agentId } = await accountWithAgent();
    await accountWithAgent();
    const res = await t.client(account.token).get('/v2/agents');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.agents.map((a: { id: string }) => a.id),
      [agentId],
    );
    const agent = res.body.agents[0];
    assert.match(agent.id, /^\d+$/);
    assert.equal(agent.status, 'offline');
    assert.equal(agent.is_connected, false);
    assert.equal(agent.last_ping_at, null);
    assert.deepEqual(agent.group_ids, []);
    assert.match(agent.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('needs agents:read', async () => {
    const { account } = await accountWithAgent();
    const res = await t.client(await t.token(account, ['contacts:read'])).get('/v2/agents');
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope agents:read' });
  });

  it('answers 401 with WWW-Authenticate without a token', async () => {
    const res = await t.client().get('/v2/agents');
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'unauthorized');
    assert.match(String(res.headers['www-authenticate']), /^Bearer/);
  });
});

describe('GET /v2/agents/{id}', () => {
  it('returns the agent', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(account.token).get(`/v2/agents/${agentId}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, agentId);
    assert.equal(res.body.nickname, 'Ann');
  });

  it("answers another account's agent as not found", async () => {
    const { agentId } = await accountWithAgent();
    const other = await t.account();
    const res = await t.client(other.token).get(`/v2/agents/${agentId}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
    assert.match(res.body.message, /Agent/);
  });
});

describe('PATCH /v2/agents/{id}', () => {
  it('sets the status', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(account.token).patch(`/v2/agents/${agentId}`, { status: 'online' });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'online');
    const again = await t.client(account.token).get(`/v2/agents/${agentId}`);
    assert.equal(again.body.status, 'online');
  });

  it('rejects an unknown status with a precise 422 and changes nothing', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(account.token).patch(`/v2/agents/${agentId}`, { status: 'away' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['status', 'enum', 'body']],
    );
    assert.equal((await t.client(account.token).get(`/v2/agents/${agentId}`)).body.status, 'offline');
  });

  it('rejects unknown properties', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(account.token).patch(`/v2/agents/${agentId}`, { status: 'online', nickname: 'x' });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['nickname', 'additionalProperties']],
    );
  });

  it('needs agents:manage, checked before validation', async () => {
    const { account, agentId } = await accountWithAgent();
    const readOnly = await t.token(account, ['agents:read']);
    assert.equal((await t.client(readOnly).patch(`/v2/agents/${agentId}`, { status: 'online' })).status, 403);
    assert.equal((await t.client().patch(`/v2/agents/${agentId}`, { status: 'bogus' })).status, 401);
  });

  it('answers 404 for an unknown agent', async () => {
    const { account } = await accountWithAgent();
    const res = await t.client(account.token).patch('/v2/agents/999999999', { status: 'online' });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
  });
});

describe('POST /v2/agents/{id}/ping', () => {
  it('marks the agent connected until the presence TTL passes', async () => {
    const { account, agentId } = await accountWithAgent();
    t.clock.set('2026-01-01T10:00:00.000Z');
    try {
      const res = await t.client(account.token).post(`/v2/agents/${agentId}/ping`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true });
      let agent = (await t.client(account.token).get(`/v2/agents/${agentId}`)).body;
      assert.equal(agent.is_connected, true);
      assert.equal(agent.last_ping_at, '2026-01-01T10:00:00.000Z');
      t.clock.advance(119);
      agent = (await t.client(account.token).get(`/v2/agents/${agentId}`)).body;
      assert.equal(agent.is_connected, true);
      t.clock.advance(2);
      agent = (await t.client(account.token).get(`/v2/agents/${agentId}`)).body;
      assert.equal(agent.is_connected, false);
    } finally {
      t.clock.reset();
    }
  });

  it('accepts an empty JSON body', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(account.token).request({
      method: 'POST',
      url: `/v2/agents/${agentId}/ping`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200);
  });

  it("answers 404 for another account's agent", async () => {
    const { agentId } = await accountWithAgent();
    const other = await t.account();
    assert.equal((await t.client(other.token).post(`/v2/agents/${agentId}/ping`)).status, 404);
  });
});

describe('POST /v2/agents (management)', () => {
  it('adds an agent, offline and in the given groups', async () => {
    const account = await t.account();
    const group = (await t.client(account.token).post('/v2/groups', { name: 'Sales' })).body;
    const res = await t.client(account.token).post('/v2/agents', {
      email: 'Bob@Example.com',
      full_name: 'Bob Smith',
      nickname: 'Bob',
      role: 'admin',
      group_ids: [group.id, group.id],
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^\d+$/);
    assert.deepEqual(
      { ...res.body, id: undefined, created_at: undefined },
      {
        id: undefined,
        email: 'Bob@Example.com',
        full_name: 'Bob Smith',
        nickname: 'Bob',
        role: 'admin',
        status: 'offline',
        is_connected: false,
        last_ping_at: null,
        group_ids: [group.id],
        created_at: undefined,
      },
    );
    assert.deepEqual((await t.client(account.token).get(`/v2/agents/${res.body.id}`)).body, res.body);
  });

  it('defaults the role to agent and the names to null', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/agents', { email: 'min@example.com' });
    assert.equal(res.status, 200);
    assert.equal(res.body.role, 'agent');
    assert.equal(res.body.full_name, null);
    assert.equal(res.body.nickname, null);
  });

  it('rejects an e-mail already used in the account, case-insensitively, and adds nobody', async () => {
    const account = await t.account();
    await t.client(account.token).post('/v2/agents', { email: 'same@example.com' });
    const res = await t.client(account.token).post('/v2/agents', { email: 'SAME@example.com' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['email', 'unique', 'body']],
    );
    assert.equal((await t.client(account.token).get('/v2/agents')).body.agents.length, 1);
  });

  it('allows the same e-mail in another account', async () => {
    const first = await t.account();
    const second = await t.account();
    assert.equal((await t.client(first.token).post('/v2/agents', { email: 'shared@example.com' })).status, 200);
    assert.equal((await t.client(second.token).post('/v2/agents', { email: 'shared@example.com' })).status, 200);
  });

  it('reports every schema problem at once', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/agents', { email: 'not-an-email', role: 'boss', group_ids: [1], extra: true });
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]).sort(), [
      ['email', 'format'],
      ['extra', 'additionalProperties'],
      ['group_ids[0]', 'type'],
      ['role', 'enum'],
    ]);
    assert.equal((await t.client(account.token).get('/v2/agents')).body.agents.length, 0);
  });

  it('requires the e-mail', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/agents', { nickname: 'x' });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['email', 'required']],
    );
  });

  it("answers an unknown or another account's group with 422 group_not_found and adds nobody", async () => {
    const account = await t.account();
    const other = await t.account();
    const foreign = (await t.client(other.token).post('/v2/groups', { name: 'Theirs' })).body;
    const res = await t.client(account.token).post('/v2/agents', { email: 'g@example.com', group_ids: [foreign.id] });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'group_not_found');
    assert.match(res.body.message, new RegExp(foreign.id));
    assert.equal((await t.client(account.token).get('/v2/agents')).body.agents.length, 0);
  });

  it('needs account:manage; agents:manage is not enough', async () => {
    const account = await t.account();
    const res = await t.client(await t.token(account, ['agents:manage', 'agents:read'])).post('/v2/agents', { email: 'x@example.com' });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
  });
});

describe('DELETE /v2/agents/{id} (management)', () => {
  it('removes the agent from lists and lookups, and frees its e-mail', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const kept = (await client.post('/v2/agents', { email: 'kept@example.com' })).body;
    const gone = (await client.post('/v2/agents', { email: 'gone@example.com' })).body;
    const res = await client.delete(`/v2/agents/${gone.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.deepEqual(
      (await client.get('/v2/agents')).body.agents.map((a: { id: string }) => a.id),
      [kept.id],
    );
    for (const reply of [
      await client.get(`/v2/agents/${gone.id}`),
      await client.patch(`/v2/agents/${gone.id}`, { status: 'online' }),
      await client.post(`/v2/agents/${gone.id}/ping`),
      await client.delete(`/v2/agents/${gone.id}`),
    ]) {
      assert.equal(reply.status, 404);
      assert.equal(reply.body.code, 'not_found');
    }
    assert.equal((await client.post('/v2/agents', { email: 'gone@example.com' })).status, 200);
  });

  it("answers another account's agent as not found and leaves it", async () => {
    const { account, agentId } = await accountWithAgent();
    const other = await t.account();
    const res = await t.client(other.token).delete(`/v2/agents/${agentId}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
    assert.equal((await t.client(account.token).get(`/v2/agents/${agentId}`)).status, 200);
  });

  it('needs account:manage', async () => {
    const { account, agentId } = await accountWithAgent();
    const res = await t.client(await t.token(account, ['agents:manage'])).delete(`/v2/agents/${agentId}`);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    assert.equal((await t.client(account.token).get(`/v2/agents/${agentId}`)).status, 200);
  });
});

describe('agent ids (issue 18.10)', () => {
  it("are numbered per account: another account's agents leave no gap, and the numbers say nothing of other accounts", async () => {
    const a = await t.account();
    const b = await t.account();
    const create = async (account: TestAccount, email: string) => {
      const res = await t.client(account.token).post('/v2/agents', { email });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const first = await create(a, 'first@example.com');
    for (let i = 0; i < 5; i++) await create(b, `b${i}@example.com`);
    const second = await create(a, 'second@example.com');
    assert.match(first, /^[1-9][0-9]{8}$/, 'a numeric string');
    assert.equal(Number(second), Number(first) + 1, "B's five agents in between do not show in A's ids");
    assert.equal((await t.client(a.token).post('/v2/agents', { email: 'second@example.com' })).status, 422);
    assert.ok(Number(await create(a, 'third@example.com')) > Number(second), 'increasing within the account');
  });
});

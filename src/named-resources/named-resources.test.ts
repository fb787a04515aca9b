import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

for (const { plural, prefix, label } of [
  { plural: 'groups', prefix: 'gr', label: 'Group' },
  { plural: 'tags', prefix: 'tg', label: 'Tag' },
]) {
  describe(`POST and GET /v2/${plural}`, () => {
    it('creates one and lists it, for its account only', async () => {
      const account = await t.account();
      const other = await t.account();
      await t.client(other.token).post(`/v2/${plural}`, { name: 'Theirs' });
      const res = await t.client(account.token).post(`/v2/${plural}`, { name: 'Support' });
      assert.equal(res.status, 200);
      assert.match(res.body.id, new RegExp(`^${prefix}[\\w-]{12}$`));
      assert.equal(res.body.name, 'Support');
      assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const list = await t.client(account.token).get(`/v2/${plural}`);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, { [plural]: [res.body] });
    });

    it('lists them for a statistics:read token too (the dashboard names its filters), but creates and deletes only with account:manage', async () => {
      const account = await t.account();
      const other = await t.account();
      await t.client(other.token).post(`/v2/${plural}`, { name: 'Theirs' });
      const created = (await t.client(account.token).post(`/v2/${plural}`, { name: 'Support' })).body;
      const reporting = t.client(await t.token(account, ['statistics:read']));
      const list = await reporting.get(`/v2/${plural}`);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, { [plural]: [created] });
      const forbidden = { code: 'forbidden', message: 'Missing scope account:manage' };
      const create = await reporting.post(`/v2/${plural}`, { name: 'Nope' });
      assert.deepEqual([create.status, create.body], [403, forbidden]);
      const remove = await reporting.delete(`/v2/${plural}/${created.id}`);
      assert.deepEqual([remove.status, remove.body], [403, forbidden]);
      assert.deepEqual((await reporting.get(`/v2/${plural}`)).body, { [plural]: [created] });
    });

    it('rejects a missing or empty name and an unknown property, creating nothing', async () => {
      const account = await t.account();
      const client = t.client(account.token);
      const cases: [unknown, [string, string][]][] = [
        [{}, [['name', 'required']]],
        [{ name: '' }, [['name', 'minLength']]],
        [{ name: 'x'.repeat(101) }, [['name', 'maxLength']]],
        [{ name: 7 }, [['name', 'type']]],
        [{ name: 'ok', color: 'red' }, [['color', 'additionalProperties']]],
      ];
      for (const [body, expected] of cases) {
        const res = await client.post(`/v2/${plural}`, body);
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, 'invalid_arguments');
        assert.deepEqual(
          res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
          expected,
        );
      }
      assert.deepEqual((await client.get(`/v2/${plural}`)).body, { [plural]: [] });
    });
  });

  describe(`DELETE /v2/${plural}/{id}`, () => {
    it('deletes it, then answers 404 naming it', async () => {
      const account = await t.account();
      const client = t.client(account.token);
      const kept = (await client.post(`/v2/${plural}`, { name: 'Kept' })).body;
      const doomed = (await client.post(`/v2/${plural}`, { name: 'Doomed' })).body;
      const res = await client.delete(`/v2/${plural}/${doomed.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true });
      assert.deepEqual((await client.get(`/v2/${plural}`)).body, { [plural]: [kept] });
      const again = await client.delete(`/v2/${plural}/${doomed.id}`);
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, { code: 'not_found', message: `${label} ${doomed.id} not found` });
    });

    it("answers another account's as not found and leaves it", async () => {
      const account = await t.account();
      const other = await t.account();
      const theirs = (await t.client(other.token).post(`/v2/${plural}`, { name: 'Theirs' })).body;
      const res = await t.client(account.token).delete(`/v2/${plural}/${theirs.id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
      assert.deepEqual((await t.client(other.token).get(`/v2/${plural}`)).body, { [plural]: [theirs] });
    });
  });

  it(`needs account:manage to create and delete ${plural}, and it or statistics:read to list them`, async () => {
    const account = await t.account();
    const token = await t.token(account, ['agents:read', 'agents:manage']);
    const client = t.client(token);
    for (const res of [await client.post(`/v2/${plural}`, { name: 'x' }), await client.delete(`/v2/${plural}/x`)]) {
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope account:manage' });
    }
    const list = await client.get(`/v2/${plural}`);
    assert.deepEqual([list.status, list.body], [403, { code: 'forbidden', message: 'Missing scope account:manage or statistics:read' }]);
  });
}

describe('a deleted group', () => {
  it('leaves its agents (without it) and its conversations (keeping the id), and is refused as unknown afterwards', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const group = (await client.post('/v2/groups', { name: 'Sales' })).body;
    const agent = (await client.post('/v2/agents', { email: 'sales@example.com', group_ids: [group.id] })).body;
    const contact = (await client.post('/v2/contacts', {})).body;
    const conversation = (await client.post('/v2/conversations', { contact_id: contact.id, group_id: group.id })).body;

    assert.equal((await client.delete(`/v2/groups/${group.id}`)).status, 200);

    assert.deepEqual((await client.get(`/v2/agents/${agent.id}`)).body.group_ids, []);
    assert.equal((await client.get(`/v2/conversations/${conversation.id}`)).body.group_id, group.id);
    const res = await client.post('/v2/agents', { email: 'late@example.com', group_ids: [group.id] });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'group_not_found');
  });
});

describe('a deleted tag', () => {
  it('stays on the conversations that carry it and is refused as unknown afterwards', async () => {
    const account = await t.account();
    const client = t.client(account.token);
    const tag = (await client.post('/v2/tags', { name: 'VIP' })).body;
    const contact = (await client.post('/v2/contacts', {})).body;
    const conversation = (await client.post('/v2/conversations', { contact_id: contact.id, tags: [tag.id] })).body;

    assert.equal((await client.delete(`/v2/tags/${tag.id}`)).status, 200);

    assert.deepEqual((await client.get(`/v2/conversations/${conversation.id}`)).body.tags, [tag.id]);
    const res = await client.post('/v2/conversations', { contact_id: contact.id, tags: [tag.id] });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'tag_not_found');
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function contactEvents(account: TestAccount): Promise<{ type: string; data: { contact: { id: string } } }[]> {
  const { rows } = await t.db.query<{ type: string; data: { contact: { id: string } } }>(
    "select type, data from events where account_id = $1 and type = 'contact.created' order by id",
    [account.accountId],
  );
  return rows;
}

describe('POST /v2/contacts', () => {
  it('creates a contact and records contact.created', async () => {
    const account = await t.account();
    const body = { email: 'Jane@Example.com', identity_id: 'user-1', name: 'Jane', phone: '+33 1 23 45 67 89' };
    const res = await t.client(await t.token(account, ['contacts:write'])).post('/v2/contacts', body);
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^ct[\w-]{12}$/);
    assert.match(res.body.created_at, ISO);
    assert.match(res.body.updated_at, ISO);
    assert.deepEqual(
      { ...res.body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        ...body,
        id: undefined,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.deepEqual(await contactEvents(account), [{ type: 'contact.created', data: { contact: res.body } }]);
  });

  it('accepts an empty object and nulls: every field is optional and nullable', async () => {
    const account = await t.account();
    for (const body of [{}, { email: null, identity_id: null, name: null, phone: null }]) {
      const res = await t.client(account.token).post('/v2/contacts', body);
      assert.equal(res.status, 200);
      assert.deepEqual([res.body.email, res.body.identity_id, res.body.name, res.body.phone], [null, null, null, null]);
    }
  });

  it('always creates, even with the same e-mail', async () => {
    const account = await t.account();
    const first = await t.client(account.token).post('/v2/contacts', { email: 'dup@example.com' });
    const second = await t.client(account.token).post('/v2/contacts', { email: 'dup@example.com' });
    assert.equal(second.status, 200);
    assert.notEqual(first.body.id, second.body.id);
  });

  it('rejects an identity_id already used in the account, and creates nothing', async () => {
    const account = await t.account();
    const first = await t.client(account.token).post('/v2/contacts', { identity_id: 'same' });
    const res = await t.client(account.token).post('/v2/contacts', { identity_id: 'same', name: 'Other' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['identity_id', 'unique', 'body']],
    );
    assert.deepEqual(
      (await contactEvents(account)).map((e) => e.data.contact.id),
      [first.body.id],
    );
  });

  it('allows the same identity_id in another account', async () => {
    const first = await t.account();
    const second = await t.account();
    assert.equal((await t.client(first.token).post('/v2/contacts', { identity_id: 'shared' })).status, 200);
    assert.equal((await t.client(second.token).post('/v2/contacts', { identity_id: 'shared' })).status, 200);
  });

  it('rejects bad bodies precisely and creates nothing', async () => {
    const account = await t.account();
    const cases: [unknown, [string, string][]][] = [
      [{ email: 'not an email' }, [['email', 'format']]],
      [{ email: 42 }, [['email', 'type']]],
      [{ name: ['x'] }, [['name', 'type']]],
      [{ phone: 'x'.repeat(65) }, [['phone', 'maxLength']]],
      [{ identity_id: '' }, [['identity_id', 'minLength']]],
      [{ nickname: 'x' }, [['nickname', 'additionalProperties']]],
      [[], [['', 'type']]],
    ];
    for (const [body, expected] of cases) {
      const res = await t.client(account.token).post('/v2/contacts', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        expected,
      );
    }
    assert.deepEqual(await contactEvents(account), []);
  });

  it('needs a body', async () => {
    const account = await t.account();
    const res = await t.client(account.token).post('/v2/contacts');
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
  });

  it('needs contacts:write', async () => {
    const account = await t.account();
    const res = await t.client(await t.token(account, ['contacts:read'])).post('/v2/contacts', {});
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope contacts:write' });
    assert.deepEqual(await contactEvents(account), []);
  });
});

describe('GET /v2/contacts/{id}', () => {
  it('returns the contact', async () => {
    const account = await t.account();
    const created = (await t.client(account.token).post('/v2/contacts', { name: 'Ann' })).body;
    const res = await t.client(await t.token(account, ['contacts:read'])).get(`/v2/contacts/${created.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, created);
  });

  it("answers an unknown or another account's contact as 404 naming it", async () => {
    const account = await t.account();
    const other = await t.account();
    const theirs = (await t.client(other.token).post('/v2/contacts', { name: 'Theirs' })).body;
    for (const id of [theirs.id, 'ctMissing']) {
      const res = await t.client(account.token).get(`/v2/contacts/${id}`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { code: 'not_found', message: `Contact ${id} not found` });
    }
  });

  it('needs contacts:read', async () => {
    const account = await t.account();
    const created = (await t.client(account.token).post('/v2/contacts', {})).body;
    const res = await t.client(await t.token(account, ['contacts:write'])).get(`/v2/contacts/${created.id}`);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope contacts:read' });
  });
});

describe('GET /v2/contacts/find', () => {
  it('matches case-insensitively', async () => {
    const account = await t.account();
    const created = (await t.client(account.token).post('/v2/contacts', { email: 'Mixed.Case@Example.com' })).body;
    const res = await t.client(account.token).get('/v2/contacts/find?email=mixed.case%40EXAMPLE.com');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, created);
  });

  it('returns the most recently updated of several matches', async () => {
    const account = await t.account();
    const older = (await t.client(account.token).post('/v2/contacts', { email: 'many@example.com', name: 'older' })).body;
    const newer = (await t.client(account.token).post('/v2/contacts', { email: 'many@example.com', name: 'newer' })).body;
    assert.equal((await t.client(account.token).get('/v2/contacts/find?email=many@example.com')).body.id, newer.id);
    // Updated later than the other one: now it wins.
    await t.db.query("update contacts set updated_at = now() + interval '1 minute' where account_id = $1 and id = $2", [
      account.accountId,
      older.id,
    ]);
    assert.equal((await t.client(account.token).get('/v2/contacts/find?email=many@example.com')).body.id, older.id);
  });

  it("answers no match, another account's contact, a missing or empty email with 404", async () => {
    const account = await t.account();
    const other = await t.account();
    await t.client(other.token).post('/v2/contacts', { email: 'theirs@example.com' });
    for (const url of [
      '/v2/contacts/find?email=nobody@example.com',
      '/v2/contacts/find?email=theirs@example.com',
      '/v2/contacts/find',
      '/v2/contacts/find?email=',
    ]) {
      const res = await t.client(account.token).get(url);
      assert.equal(res.status, 404, url);
      assert.equal(res.body.code, 'not_found');
      assert.match(res.body.message, /^Contact/);
    }
  });

  it('rejects unknown query parameters', async () => {
    const account = await t.account();
    const res = await t.client(account.token).get('/v2/contacts/find?mail=x@example.com');
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['mail', 'additionalProperties', 'query']],
    );
  });

  it('needs contacts:read', async () => {
    const account = await t.account();
    const res = await t.client(await t.token(account, ['contacts:write'])).get('/v2/contacts/find?email=a@example.com');
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope contacts:read' });
  });
});

describe('GET /v2/contacts', () => {
  const list = async (token: string, query: string) => t.client(token).get(`/v2/contacts${query}`);
  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((item) => item.name);

  it('lists contacts newest first, page by page, only the account’s', async () => {
    const account = await t.account();
    const api = t.client(account.token);
    for (let i = 0; i < 5; i++) {
      t.clock.set(`2026-04-0${i + 1}T08:00:00.000Z`);
      await api.post('/v2/contacts', { name: `Person ${i}` });
    }
    t.clock.reset();
    await t.client((await t.account()).token).post('/v2/contacts', { name: 'Person elsewhere' });
    const token = await t.token(account, ['contacts:read']);
    const first = await list(token, '?size=2');
    assert.equal(first.status, 200);
    assert.deepEqual(names(first), ['Person 4', 'Person 3']);
    const second = await list(token, `?size=2&after=${first.body.after}`);
    assert.deepEqual(names(second), ['Person 2', 'Person 1']);
    await api.post('/v2/contacts', { name: 'Person new' });
    const third = await list(token, `?size=2&after=${second.body.after}`);
    assert.deepEqual(names(third), ['Person 0']);
    assert.equal(third.body.after, null);
    assert.equal((await list(token, '')).body.items.length, 6);
  });

  it('finds by a prefix of a word of the name or of the e-mail, ignoring case and diacritics', async () => {
    const account = await t.account();
    const api = t.client(account.token);
    await api.post('/v2/contacts', { name: 'Jiří Nováková-Dvořáková', email: 'jiri@example.cz' });
    await api.post('/v2/contacts', { name: 'Anna Svobodová', email: 'a.svoboda@firma.cz' });
    await api.post('/v2/contacts', { name: null, email: 'petr_100%@example.com' });
    const token = await t.token(account, ['contacts:read']);
    const cases: [string, string[]][] = [
      ['nova', ['Jiří Nováková-Dvořáková']],
      ['NOVÁ', ['Jiří Nováková-Dvořáková']],
      ['dvor', ['Jiří Nováková-Dvořáková']],
      ['jiri no', ['Jiří Nováková-Dvořáková']],
      ['ova', []],
      ['svob', ['Anna Svobodová']],
      ['a.svo', ['Anna Svobodová']],
      ['firma', []],
      ['petr_100%', [null as unknown as string]],
      ['petr_1', [null as unknown as string]],
      ['petr%', []],
      ['%', []],
      ['_', []],
      ["a & !b | c:* '", []],
    ];
    for (const [q, expected] of cases) {
      const res = await list(token, `?q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
      assert.deepEqual(names(res), expected, q);
    }
  });

  it('refuses bad cursors, cursors of another q or account, and long q', async () => {
    const account = await t.account();
    const api = t.client(account.token);
    await api.post('/v2/contacts', { name: 'One' });
    await api.post('/v2/contacts', { name: 'Two' });
    const token = await t.token(account, ['contacts:read']);
    const page = await list(token, '?size=1');
    const stranger = await t.token(await t.account(), ['contacts:read']);
    for (const [who, query, path, code] of [
      [token, '?after=garbage', 'after', 'cursor'],
      [token, `?q=o&after=${page.body.after}`, 'after', 'cursor'],
      [stranger, `?after=${page.body.after}`, 'after', 'cursor'],
      [token, `?q=${'x'.repeat(257)}`, 'q', 'maxLength'],
      [token, '?size=0', 'size', 'minimum'],
      [token, '?colour=red', 'colour', 'additionalProperties'],
    ] as const) {
      const res = await list(who, query);
      assert.equal(res.status, 422, query);
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
        [[path, code, 'query']],
        query,
      );
    }
    assert.equal((await list(await t.token(account, ['contacts:write']), '')).status, 403);
  });
});

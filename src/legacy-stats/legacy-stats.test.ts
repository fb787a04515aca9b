import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type Reply, type TestAccount, type TestApp } from '../test/harness.ts';
import { SCOPES } from '../auth/scopes.ts';
import { conversationFactory } from '../test/conversations.ts';
import { dereference } from '../test/openapi-operations.ts';
import { buildChats, type ChatSpec, type World } from '../test/chats.ts';
import { INACTIVITY_SECONDS, classify, referenceAgent, referenceOverview } from '../test/legacy-reference.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ inactivityTimeoutSeconds: INACTIVITY_SECONDS });
});
after(() => t.close());

/** "Now" while building: after every imported time. */
const NOW = '2024-06-01T12:00:00.000Z';

async function world(timezone: string, agents: string[] = [], contacts = 1): Promise<World & { account: TestAccount }> {
  const account = await t.account();
  const res = await t.client(account.token).patch('/v2/account', { timezone });
  assert.equal(res.status, 200);
  const factory = conversationFactory(t, account);
  const agentIds: string[] = [];
  for (const nickname of agents) agentIds.push((await factory.agent({ nickname })).id);
  const contactIds: string[] = [];
  for (let i = 0; i < contacts; i++) contactIds.push((await factory.contact()).id);
  return { account, factory, agentIds, contactIds };
}

const query = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();

async function stats(path: string, parameters: Record<string, string>) {
  const res = await t.client().get(`/stats/${path}?${query(parameters)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const ZERO_AGENT = {
  completed: 0,
  completed1to3: 0,
  completed3to5: 0,
  completed5to10: 0,
  completed10toInf: 0,
  dropped: 0,
  droppedByVisitorInactivity: 0,
  droppedByAgentInactivity: 0,
  triggered: 0,
  avgDuration: 0,
  avgFirstResponse: 0,
  avgResponse: 0,
  totalDuration: 0,
};
const ZERO_OVERVIEW = { visitors: 0, channels: 0, chats: 0, ...ZERO_AGENT, missed: 0, offline: 0 };

describe('apiKey', () => {
  it('answers 401 in the legacy shape when the key is missing or unknown, on every operation and method', async () => {
    for (const path of ['totals', 'overview', 'agents']) {
      for (const url of [`/stats/${path}`, `/stats/${path}?apiKey=nope`, `/stats/${path}?apiKey=`]) {
        for (const method of ['GET', 'POST']) {
          const res = await t.client().request({ method, url });
          assert.equal(res.status, 401, `${method} ${url}`);
          assert.equal(res.body.success, false);
          assert.equal(res.body.error.code, 'unauthorized');
          assert.match(res.body.error.message, /apiKey/);
        }
      }
    }
  });

  it('checks the key before the parameters', async () => {
    const res = await t.client().get('/stats/overview?apiKey=nope&interval=year&from=yesterday');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
    // Input the database cannot store is a bad parameter too, checked after the key.
    for (const url of ['/stats/overview?interval=%00', '/stats/overview?apiKey=nope&interval=%00']) {
      assert.deepEqual((await t.client().get(url)).status, 401, url);
    }
  });

  it('checks the key before the rate limit: past the limit, a missing or unknown key is still 401, and refused requests spend none of it', async () => {
    // 2 requests per 200 s per client address: no window ends while the test runs.
    const limited = await startTestApp({ rateLimitBurst: 2, rateLimitPerSecond: 0.01 });
    try {
      const account = await limited.account();
      // From an address of its own (the harness reads the OpenAPI document from the default one, a public route).
      const totals = (apiKey?: string) =>
        limited.client().request({
          method: 'GET',
          url: `/stats/totals${apiKey === undefined ? '' : `?apiKey=${apiKey}`}`,
          remoteAddress: '192.0.2.40',
        });
      for (const apiKey of [undefined, 'nope', undefined, 'nope']) assert.equal((await totals(apiKey)).status, 401);
      assert.equal((await totals(account.apiKey)).status, 200);
      assert.equal((await totals(account.apiKey)).status, 200);
      const over = await totals(account.apiKey);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'too_many_requests');
      assert.match(String(over.headers['retry-after']), /^[1-9]\d*$/);
      for (const apiKey of [undefined, 'nope']) {
        const refused = await totals(apiKey);
        assert.deepEqual([refused.status, refused.body.success, refused.body.error.code], [401, false, 'unauthorized']);
      }
    } finally {
      await limited.close();
    }
  });

  it('takes the key from the query, a form body or a JSON body', async () => {
    const { account } = await world('UTC');
    const range = { from: '2024-03-01', to: '2024-03-02' };
    const viaQuery = await t.client().get(`/stats/totals?${query({ apiKey: account.apiKey, ...range })}`);
    const viaForm = await t.client().request({
      method: 'POST',
      url: '/stats/totals',
      payload: query({ apiKey: account.apiKey, ...range }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const viaJson = await t.client().post('/stats/totals', { apiKey: account.apiKey, ...range });
    const mixed = await t.client().post(`/stats/totals?apiKey=${account.apiKey}`, range);
    for (const res of [viaQuery, viaForm, viaJson, mixed]) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { success: true, interval: range, overview: ZERO_OVERVIEW, agents: [] });
    }
  });
});

describe('bearer token instead of apiKey (extension)', () => {
  const range = { from: '2024-03-01', to: '2024-03-02' };
  const chat = (agent: number, at: string): ChatSpec => ({
    contact: 0,
    said: [
      { from: 'contact', at: `${at}:00Z` },
      { from: 'agent', agent, at: `${at}:30Z` },
    ],
    close: { by: 'agent', at: `${at}:59Z` },
  });
  let mine: Awaited<ReturnType<typeof world>>;
  let theirs: Awaited<ReturnType<typeof world>>;
  before(async () => {
    mine = await world('Europe/Prague', ['Ann']);
    theirs = await world('UTC', ['Eve', 'Bob']);
    await buildChats(t, mine, [chat(0, '2024-03-01T10:00')], NOW);
    await buildChats(t, theirs, [chat(0, '2024-03-01T11:00'), chat(1, '2024-03-02T12:00')], NOW);
  });

  const legacyError = (res: Reply, status: number, code: string, message: RegExp) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['success', 'error']);
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, code);
    assert.match(res.body.error.message, message);
  };

  it("answers a statistics:read token with exactly the apiKey's answer, on every operation and method", async () => {
    const token = await t.token(mine.account, ['statistics:read']);
    assert.equal((await stats('totals', { apiKey: mine.account.apiKey, ...range })).overview.completed, 1);
    for (const path of ['totals', 'overview', 'agents']) {
      const expected = await stats(path, { apiKey: mine.account.apiKey, ...range });
      const viaGet = await t.client(token).get(`/stats/${path}?${query(range)}`);
      const viaJson = await t.client(token).post(`/stats/${path}`, range);
      const viaForm = await t.client(token).request({
        method: 'POST',
        url: `/stats/${path}`,
        payload: query({ apiKey: '', ...range }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      for (const res of [viaGet, viaJson, viaForm]) {
        assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, expected);
      }
    }
  });

  it("never shows another account's data: each token sees its own account only", async () => {
    const mineTotals = (await t.client(await t.token(mine.account, ['statistics:read'])).get(`/stats/totals?${query(range)}`)).body;
    const theirTotals = (await t.client(await t.token(theirs.account, ['statistics:read'])).get(`/stats/totals?${query(range)}`)).body;
    assert.equal(mineTotals.overview.completed, 1);
    assert.deepEqual(
      mineTotals.agents.map((a: { nickname: string }) => a.nickname),
      ['Ann'],
    );
    assert.equal(theirTotals.overview.completed, 2);
    assert.deepEqual(theirTotals.agents.map((a: { nickname: string }) => a.nickname).sort(), ['Bob', 'Eve']);
    // A group of the other account filters to nothing rather than revealing anything.
    const theirGroup = (await t.client(theirs.account.token).post('/v2/groups', { name: 'Theirs' })).body.id;
    const filtered = await t
      .client(await t.token(mine.account, ['statistics:read']))
      .get(`/stats/totals?${query({ ...range, group: theirGroup })}`);
    assert.equal(filtered.body.overview.channels, 0);
  });

  it('answers a token without statistics:read with 403 in the legacy shape', async () => {
    const token = await t.token(
      mine.account,
      SCOPES.filter((scope) => scope !== 'statistics:read'),
    );
    for (const path of ['totals', 'overview', 'agents']) {
      for (const method of ['GET', 'POST']) {
        const res = await t.client(token).request({ method, url: `/stats/${path}` });
        legacyError(res, 403, 'forbidden', /^Missing scope statistics:read$/);
      }
    }
  });

  it('answers unknown, malformed and revoked tokens with 401 and WWW-Authenticate, before the parameters', async () => {
    const created = (await t.client(mine.account.token).post('/v2/tokens', { name: 'doomed', scopes: ['statistics:read'] })).body;
    assert.equal((await t.client(created.token).get('/stats/totals')).status, 200);
    assert.equal((await t.client(mine.account.token).delete(`/v2/tokens/${created.id}`)).status, 200);
    for (const authorization of [`Bearer ${created.token}`, 'Bearer cs_not-a-real-token', `Basic ${created.token}`, '']) {
      const res = await t.client().request({ method: 'GET', url: '/stats/overview?interval=year', headers: { authorization } });
      legacyError(res, 401, 'unauthorized', /token|Authorization|apiKey/);
      if (authorization !== '') assert.match(String(res.headers['www-authenticate']), /^Bearer\b/);
    }
  });

  it('keeps the apiKey deciding when both are sent, whatever the Authorization header says', async () => {
    const expected = await stats('totals', { apiKey: mine.account.apiKey, ...range });
    const theirToken = await t.token(theirs.account, ['statistics:read']);
    for (const authorization of [`Bearer ${theirToken}`, 'Bearer cs_not-a-real-token', 'Basic dXNlcjpwYXNz']) {
      const res = await t
        .client()
        .request({ method: 'GET', url: `/stats/totals?${query({ apiKey: mine.account.apiKey, ...range })}`, headers: { authorization } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, expected);
    }
    const wrongKey = await t.client(theirToken).get(`/stats/totals?apiKey=nope`);
    legacyError(wrongKey, 401, 'unauthorized', /^Unknown apiKey$/);
  });
});

describe('parameters', () => {
  let apiKey: string;
  before(async () => {
    apiKey = (await t.account()).apiKey;
  });

  const rejects = async (path: string, parameters: string, message: RegExp, status = 400, code = 'invalid_parameters') => {
    for (const res of [
      await t.client().get(`/stats/${path}?apiKey=${apiKey}&${parameters}`),
      await t.client().request({
        method: 'POST',
        url: '/stats/' + path,
        payload: `apiKey=${apiKey}&${parameters}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ]) {
      assert.equal(res.status, status, `${path}?${parameters}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(Object.keys(res.body), ['success', 'error']);
      assert.equal(res.body.success, false);
      assert.equal(res.body.error.code, code);
      assert.match(res.body.error.message, message);
    }
  };

  it('rejects an unknown interval, naming it', async () => {
    await rejects('overview', 'interval=year', /^interval must be one of: day, week, month$/);
    await rejects('agents', 'interval=DAY', /^interval must be one of: day, week, month$/);
  });

  it('rejects malformed and impossible dates, naming the parameter', async () => {
    await rejects('totals', 'from=2024-3-5', /^from must be a date in the form YYYY-MM-DD/);
    await rejects('overview', 'to=05.03.2024', /^to must be a date in the form YYYY-MM-DD/);
    await rejects('agents', 'from=2024-02-30', /^from must be a date .*2024-02-30 does not exist/);
    await rejects('totals', 'to=2023-02-29', /^to must be a date .*does not exist/);
    await rejects('totals', 'from=0000-01-01', /^from must be a date/);
    await rejects('totals', 'from=2024-03-05T00:00:00Z', /^from must be a date/);
  });

  it('rejects parameters holding a NUL character as any bad parameter: 400 invalid_parameters, naming it', async () => {
    await rejects('overview', 'interval=%00', /^interval must not contain the NUL character \(U\+0000\)$/);
    await rejects('agents', 'interval=day%00', /^interval must not contain the NUL character/);
    await rejects('totals', 'from=%00', /^from must not contain the NUL character/);
    await rejects('totals', 'group=a%00b', /^group must not contain the NUL character/);
    const json = await t.client().request({
      method: 'POST',
      url: '/stats/overview',
      payload: JSON.stringify({ apiKey, interval: '\u0000' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual(
      [json.status, json.body],
      [400, { success: false, error: { code: 'invalid_parameters', message: 'interval must not contain the NUL character (U+0000)' } }],
    );
  });

  it('rejects from after to, and ranges over 3660 days', async () => {
    await rejects('totals', 'from=2024-03-06&to=2024-03-05', /^from \(2024-03-06\) must not be after to \(2024-03-05\)$/);
    await rejects('overview', 'from=2000-01-01&to=2024-03-05', /^from must be at most 3660 days before to$/);
  });

  it('ignores parameters the operation does not know, as existing integrations send them', async () => {
    const known = { from: '2024-03-01', to: '2024-03-03' };
    // One parameter set for all three paths (interval on totals, even one totals could not take), cache busters, extras.
    // Unknown ones holding text no column could store are dropped as unread too (they answered 400).
    const extras = 'interval=week&_=1712345678&cb=1&cb=2&callback=&foo[bar]=x&format=json&nul=%00&half=%ED%A0%80';
    for (const path of ['totals', 'overview', 'agents']) {
      const expected = await stats(path, { apiKey, ...known, ...(path === 'totals' ? {} : { interval: 'week' }) });
      const viaGet = await t.client().get(`/stats/${path}?apiKey=${apiKey}&${query(known)}&${extras}`);
      const viaForm = await t.client().request({
        method: 'POST',
        url: `/stats/${path}`,
        payload: `apiKey=${apiKey}&${query(known)}&${extras}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const viaJson = await t
        .client()
        .post(`/stats/${path}?_=1`, { apiKey, ...known, interval: 'week', nested: { a: [1] }, n: 5, nul: 'a\u0000b' });
      for (const res of [viaGet, viaForm, viaJson]) {
        assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, expected);
      }
    }
    const totals = await t.client().get(`/stats/totals?apiKey=${apiKey}&${query(known)}&interval=year`);
    assert.equal(totals.status, 200, JSON.stringify(totals.body));
    // Known parameters stay strict alongside unknown ones.
    await rejects('overview', 'foo=1&interval=year', /^interval must be one of: day, week, month$/);
    await rejects('totals', 'interval=week&from=2024-02-30', /^from must be a date .*does not exist/);
  });

  it('rejects repeated parameters', async () => {
    await rejects('overview', 'from=2024-03-01&from=2024-03-02', /^from must be a single value, given once$/);
    await rejects('overview', 'interval=day&interval=week', /^interval must be a single value, given once$/);
    await rejects('agents', 'group=a&group=b', /^group must be a single value, given once$/);
  });

  it('rejects JSON bodies that are not parameter objects, or have wrong types', async () => {
    const cases: [string, RegExp][] = [
      [JSON.stringify([1, 2]), /^body must be an object of named parameters$/],
      [JSON.stringify({ apiKey, group: 5 }), /^group must be a single string$/],
      [JSON.stringify({ apiKey, interval: ['day'] }), /^interval must be a single value, given once$/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.client().request({
        method: 'POST',
        url: `/stats/overview?apiKey=${apiKey}`,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400, payload);
      assert.equal(res.body.error.code, 'invalid_parameters');
      assert.match(res.body.error.message, message);
    }
  });

  it('answers malformed JSON and other content types in the legacy shape', async () => {
    const malformed = await t.client().request({
      method: 'POST',
      url: '/stats/totals',
      payload: '{"apiKey":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.success, false);
    assert.equal(malformed.body.error.code, 'bad_request');
    const text = await t.client().request({
      method: 'POST',
      url: `/stats/totals?apiKey=${apiKey}`,
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.deepEqual(text.body, {
      success: false,
      error: {
        code: 'unsupported_media_type',
        message: 'Unsupported content type; send application/x-www-form-urlencoded or application/json',
      },
    });
  });

  it('treats empty values as not given', async () => {
    t.clock.set('2024-03-10T12:00:00Z');
    const body = await stats('overview', { apiKey, from: '', to: '', interval: '', group: '' });
    assert.deepEqual(body.interval, { from: '2024-02-10', to: '2024-03-10' });
    assert.equal(Object.keys(body.records).length, 30);
    t.clock.reset();
  });

  it('answers the extreme dates it accepts', async () => {
    for (const [path, parameters, units] of [
      ['overview', 'interval=week&from=1000-01-01&to=1000-01-10', 2],
      ['agents', 'interval=month&from=9999-11-15&to=9999-12-31', 0],
      ['overview', 'interval=week&from=9999-12-20&to=9999-12-31', 2],
      ['overview', 'to=1000-01-05', 30],
    ] as const) {
      const res = await t.client().get(`/stats/${path}?apiKey=${apiKey}&${parameters}`);
      assert.equal(res.status, 200, `${parameters}: ${JSON.stringify(res.body)}`);
      assert.equal(Object.keys(res.body.records).length, units, parameters);
    }
  });

  it('answers other methods with 405', async () => {
    const res = await t.client().delete(`/stats/totals?apiKey=${apiKey}`);
    assert.equal(res.status, 405);
  });
});

describe('range and units', () => {
  it('defaults to the 30 days ending today in the account time zone', async () => {
    const { account } = await world('Pacific/Auckland');
    t.clock.set('2024-03-10T23:30:00Z'); // already March 11 in Auckland
    try {
      const body = await stats('overview', { apiKey: account.apiKey });
      assert.deepEqual(body.interval, { from: '2024-02-11', to: '2024-03-11' });
      const ids = Object.keys(body.records);
      assert.equal(ids.length, 30);
      assert.equal(ids[0], '2024-02-11');
      assert.equal(ids.at(-1), '2024-03-11');
      // Only `to`: the 30 days ending there; only `from`: up to today.
      assert.deepEqual((await stats('totals', { apiKey: account.apiKey, to: '2024-01-31' })).interval, {
        from: '2024-01-02',
        to: '2024-01-31',
      });
      assert.deepEqual((await stats('totals', { apiKey: account.apiKey, from: '2024-03-01' })).interval, {
        from: '2024-03-01',
        to: '2024-03-11',
      });
    } finally {
      t.clock.reset();
    }
  });

  it('labels days, ISO weeks and months', async () => {
    const { account } = await world('UTC');
    const apiKey = account.apiKey;
    const day = await stats('overview', { apiKey, from: '2024-03-05', to: '2024-03-05' });
    assert.deepEqual(day.records, {
      '2024-03-05': { unitId: '2024-03-05', unitName: 'Mar 5', unitLongName: 'Tuesday, March 5, 2024', ...ZERO_OVERVIEW },
    });
    const weeks = await stats('overview', { apiKey, interval: 'week', from: '2024-01-31', to: '2024-02-05' });
    assert.deepEqual(
      Object.values(weeks.records).map((r: any) => [r.unitId, r.unitName, r.unitLongName]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2024-W05', 'W05', 'Jan 29 - Feb 4, 2024'],
        ['2024-W06', 'W06', 'Feb 5 - Feb 11, 2024'],
      ],
    );
    const yearEnd = await stats('overview', { apiKey, interval: 'week', from: '2024-12-31', to: '2024-12-31' });
    assert.deepEqual(Object.values(yearEnd.records)[0], {
      unitId: '2025-W01',
      unitName: 'W01',
      unitLongName: 'Dec 30, 2024 - Jan 5, 2025',
      ...ZERO_OVERVIEW,
    });
    const months = await stats('overview', { apiKey, interval: 'month', from: '2023-12-15', to: '2024-02-01' });
    assert.deepEqual(
      Object.values(months.records).map((r: any) => [r.unitId, r.unitName, r.unitLongName]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2023-12', 'Dec 2023', 'December 2023'],
        ['2024-01', 'Jan 2024', 'January 2024'],
        ['2024-02', 'Feb 2024', 'February 2024'],
      ],
    );
  });

  it('counts by local day across a DST change', async () => {
    const w = await world('Europe/Prague');
    // Prague moves to summer time at 2024-03-31 01:00 UTC.
    const contactAt = (at: string): ChatSpec => ({ contact: 0, said: [{ from: 'contact', at }] });
    await buildChats(
      t,
      w,
      [
        contactAt('2024-03-29T23:30:00Z'), // Mar 30, 00:30 CET
        contactAt('2024-03-30T23:30:00Z'), // Mar 31, 00:30 CET
        contactAt('2024-03-31T21:30:00Z'), // Mar 31, 23:30 CEST
        contactAt('2024-03-31T22:30:00Z'), // Apr 1, 00:30 CEST
      ],
      NOW,
    );
    const body = await stats('overview', { apiKey: w.account.apiKey, from: '2024-03-30', to: '2024-04-01' });
    assert.deepEqual(
      Object.values(body.records).map((r: any) => [r.unitId, r.channels, r.missed]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2024-03-30', 1, 1],
        ['2024-03-31', 2, 2],
        ['2024-04-01', 1, 1],
      ],
    );
  });

  it('lists every unit overlapping the range and counts only the days inside it', async () => {
    const w = await world('UTC');
    const on = (at: string): ChatSpec => ({ contact: 0, said: [{ from: 'contact', at }] });
    // Week 2024-W09 is Feb 26 - Mar 3; the range starts on Wednesday Feb 28.
    await buildChats(
      t,
      w,
      [on('2024-02-27T10:00:00Z'), on('2024-02-28T10:00:00Z'), on('2024-03-03T10:00:00Z'), on('2024-03-06T10:00:00Z')],
      NOW,
    );
    const apiKey = w.account.apiKey;
    const weeks = await stats('overview', { apiKey, interval: 'week', from: '2024-02-28', to: '2024-03-05' });
    assert.deepEqual(
      Object.values(weeks.records).map((r: any) => [r.unitId, r.channels]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2024-W09', 2],
        ['2024-W10', 0],
      ],
    );
    const months = await stats('overview', { apiKey, interval: 'month', from: '2024-02-28', to: '2024-03-05' });
    assert.deepEqual(
      Object.values(months.records).map((r: any) => [r.unitId, r.channels]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2024-02', 1],
        ['2024-03', 1],
      ],
    );
  });
});

describe('counters', () => {
  const DAY = '2024-03-05';
  const at = (time: string) => `${DAY}T${time}Z`;
  let w: World & { account: TestAccount };
  let groupId: string;
  let specs: ChatSpec[];
  let otherApiKey: string;
  const [ann, bob] = [0, 1];

  before(async () => {
    w = await world('Europe/Prague', ['Ann', 'Bob', 'Cyd'], 11);
    groupId = (await w.factory.group()).id;
    specs = [
      // c1: completed under 3 minutes (179.9 s), Ann replies twice.
      {
        contact: 0,
        said: [
          { from: 'contact', at: at('09:00:00') },
          { from: 'agent', agent: ann, at: at('09:00:20') },
          { from: 'contact', at: at('09:01:00') },
          { from: 'agent', agent: ann, at: at('09:01:30') },
        ],
        close: { by: 'agent', at: at('09:02:59.900') },
      },
      // c2: completed in 240.7 s (3 to 5 minutes); a bot message; Bob answers first, then Ann.
      {
        contact: 1,
        said: [
          { from: 'contact', at: at('10:00:00') },
          { from: 'bot', at: at('10:00:05') },
          { from: 'agent', agent: bob, at: at('10:00:40') },
          { from: 'contact', at: at('10:01:00') },
          { from: 'agent', agent: ann, at: at('10:02:00') },
        ],
        close: { by: 'agent', at: at('10:04:00.700') },
      },
      // c3: completed in 7 minutes, in a group.
      {
        contact: 2,
        group: 'GROUP',
        said: [
          { from: 'contact', at: at('11:00:00') },
          { from: 'agent', agent: ann, at: at('11:01:00') },
        ],
        close: { by: 'agent', at: at('11:07:00') },
      },
      // c4: completed in exactly 10 minutes.
      {
        contact: 3,
        said: [
          { from: 'contact', at: at('12:00:00') },
          { from: 'agent', agent: bob, at: at('12:00:10') },
        ],
        close: { by: 'agent', at: at('12:10:00') },
      },
      // c5: closed by an agent with the last contact message unanswered: neither completed nor dropped.
      {
        contact: 4,
        said: [
          { from: 'contact', at: at('13:00:00') },
          { from: 'agent', agent: ann, at: at('13:00:30') },
          { from: 'contact', at: at('13:01:00') },
        ],
        close: { by: 'agent', at: at('13:05:00') },
      },
      // c6: dropped, the contact went quiet.
      {
        contact: 5,
        said: [
          { from: 'contact', at: at('14:00:00') },
          { from: 'agent', agent: bob, at: at('14:00:50') },
        ],
        close: { by: 'inactivity' },
      },
      // c7: dropped, the agent went quiet.
      {
        contact: 6,
        said: [
          { from: 'contact', at: at('15:00:00') },
          { from: 'agent', agent: ann, at: at('15:01:00') },
          { from: 'contact', at: at('15:02:00') },
        ],
        close: { by: 'inactivity' },
      },
      // c8: missed (closed by inactivity, but no agent ever wrote: not dropped).
      { contact: 7, said: [{ from: 'contact', at: at('16:00:00') }], close: { by: 'inactivity' } },
      // c9: offline (written live while no agent was available), then a bot answered.
      {
        contact: 8,
        said: [
          { from: 'contact', at: at('17:00:00'), live: true },
          { from: 'bot', at: at('17:00:10'), live: true },
        ],
      },
      // c10: pending, no message.
      { contact: 9, said: [], at: at('18:00:00') },
      // c11: the contact of c1 again; only a bot answered: missed and triggered.
      {
        contact: 0,
        said: [
          { from: 'contact', at: at('19:00:00') },
          { from: 'bot', at: at('19:00:10') },
        ],
      },
      // The next day: completed in 20 minutes, in the group.
      {
        contact: 10,
        group: 'GROUP',
        said: [
          { from: 'contact', at: '2024-03-06T09:00:00Z' },
          { from: 'agent', agent: ann, at: '2024-03-06T09:00:15Z' },
        ],
        close: { by: 'agent', at: '2024-03-06T09:20:00Z' },
      },
    ];
    for (const spec of specs) if (spec.group) spec.group = groupId;
    await buildChats(t, w, specs, NOW);
    // Another tenant's conversation on the same day must not count.
    const other = await world('Europe/Prague', ['Eve']);
    otherApiKey = other.account.apiKey;
    await buildChats(
      t,
      other,
      [
        {
          contact: 0,
          said: [
            { from: 'contact', at: at('09:30:00') },
            { from: 'agent', at: at('09:31:00') },
          ],
          close: { by: 'agent', at: at('09:35:00') },
        },
      ],
      NOW,
    );
  });

  it('counts the overview of a day as docs/behaviour.md §7 defines it', async () => {
    const body = await stats('totals', { apiKey: w.account.apiKey, from: DAY, to: DAY });
    assert.deepEqual(body.interval, { from: DAY, to: DAY });
    assert.deepEqual(body.overview, {
      visitors: 10,
      channels: 11,
      chats: 7,
      completed: 4,
      completed1to3: 1,
      completed3to5: 1,
      completed5to10: 1,
      completed10toInf: 1,
      dropped: 2,
      droppedByVisitorInactivity: 1,
      droppedByAgentInactivity: 1,
      triggered: 3,
      // 179 + 240 + 420 + 600 + 1850 + 1920 seconds over 6 chats
      avgDuration: 868,
      avgFirstResponse: 40, // (20 + 40 + 60 + 10 + 50 + 60) / 6
      avgResponse: 41, // (20 + 30 + 40 + 60 + 60 + 10 + 50 + 60) / 8 = 41.25
      totalDuration: 5209,
      missed: 2,
      offline: 1,
    });
  });

  it('counts each agent over the chats it wrote in, with its own replies', async () => {
    const body = await stats('totals', { apiKey: w.account.apiKey, from: DAY, to: DAY });
    const [annId, bobId, cydId] = w.agentIds.map(Number);
    assert.deepEqual(body.agents, [
      {
        userId: annId,
        nickname: 'Ann',
        ...ZERO_AGENT,
        completed: 3,
        completed1to3: 1,
        completed3to5: 1,
        completed5to10: 1,
        dropped: 1,
        droppedByAgentInactivity: 1,
        triggered: 1,
        avgDuration: 690, // (179 + 240 + 420 + 1920) / 4 = 689.75
        avgFirstResponse: 47, // (20 + 60 + 60) / 3
        avgResponse: 46, // (20 + 30 + 60 + 60 + 60) / 5
        totalDuration: 2759,
      },
      {
        userId: bobId,
        nickname: 'Bob',
        ...ZERO_AGENT,
        completed: 2,
        completed3to5: 1,
        completed10toInf: 1,
        dropped: 1,
        droppedByVisitorInactivity: 1,
        triggered: 1,
        avgDuration: 897, // (240 + 600 + 1850) / 3
        avgFirstResponse: 33, // (40 + 10 + 50) / 3
        avgResponse: 33,
        totalDuration: 2690,
      },
      { userId: cydId, nickname: 'Cyd', ...ZERO_AGENT },
    ]);
  });

  it('agrees with the reference on the same conversations, day by day', async () => {
    const chats = specs.map((spec) => classify(spec, 'Europe/Prague'));
    const overview = await stats('overview', { apiKey: w.account.apiKey, from: '2024-03-04', to: '2024-03-07' });
    for (const day of ['2024-03-04', '2024-03-05', '2024-03-06', '2024-03-07']) {
      const { unitId: _id, unitName: _name, unitLongName: _long, ...counters } = overview.records[day];
      assert.deepEqual(counters, referenceOverview(chats.filter((c) => c.localDay === day)), day);
    }
    const agents = await stats('agents', { apiKey: w.account.apiKey, from: '2024-03-05', to: '2024-03-06' });
    assert.equal(agents.records.length, 6);
    for (const record of agents.records) {
      const { unitId, unitName: _name, unitLongName: _long, userId, nickname: _nick, ...counters } = record;
      const agent = w.agentIds.indexOf(String(userId));
      assert.deepEqual(
        counters,
        referenceAgent(
          chats.filter((c) => c.localDay === unitId),
          agent,
        ),
        `${unitId} ${userId}`,
      );
    }
  });

  it('shows each account only its own conversations and agents', async () => {
    const body = await stats('totals', { apiKey: otherApiKey, from: DAY, to: DAY });
    assert.equal(body.overview.channels, 1);
    assert.equal(body.overview.completed, 1);
    assert.deepEqual(
      body.agents.map((a: { nickname: string; completed: number }) => [a.nickname, a.completed]),
      [['Eve', 1]],
    );
    // Another account's group filters out everything.
    const foreignGroup = await stats('totals', { apiKey: otherApiKey, from: DAY, to: '2024-03-06', group: groupId });
    assert.equal(foreignGroup.overview.channels, 0);
  });

  it('filters by group', async () => {
    const body = await stats('overview', { apiKey: w.account.apiKey, from: '2024-03-05', to: '2024-03-06', group: groupId });
    assert.deepEqual(
      Object.values(body.records).map((r: any) => [r.unitId, r.channels, r.completed5to10, r.completed10toInf, r.totalDuration]), // eslint-disable-line @typescript-eslint/no-explicit-any
      [
        ['2024-03-05', 1, 1, 0, 420],
        ['2024-03-06', 1, 0, 1, 1200],
      ],
    );
    const unknown = await stats('totals', { apiKey: w.account.apiKey, from: '2024-03-05', to: '2024-03-06', group: 'grNOPE' });
    assert.deepEqual(unknown.overview, ZERO_OVERVIEW);
  });

  it('keeps deleted agents who wrote in the range, drops the others, and names agents without a nickname', async () => {
    const api = t.client(w.account.token);
    const [, bobId, cydId] = w.agentIds;
    const nameless = await api.post('/v2/agents', { email: 'nameless@example.com', full_name: null, nickname: null });
    assert.equal(nameless.status, 200);
    for (const id of [bobId, cydId]) assert.equal((await api.delete(`/v2/agents/${id}`)).status, 200);
    const body = await stats('totals', { apiKey: w.account.apiKey, from: DAY, to: DAY });
    assert.deepEqual(
      body.agents.map((a: { userId: number; nickname: string; completed: number }) => [a.userId, a.nickname, a.completed]),
      [
        [Number(w.agentIds[0]), 'Ann', 3],
        [Number(bobId), 'Bob', 2],
        [Number(nameless.body.id), 'nameless@example.com', 0],
      ],
    );
    // Forty days run as two statements (src/legacy-stats/repository.ts, chunkScopes); Bob wrote in the
    // second only and is listed in every day of both, with zeros where he wrote nothing.
    const days = await stats('agents', { apiKey: w.account.apiKey, from: '2024-01-26', to: DAY, interval: 'day' });
    const byDay = new Map<string, { unitId: string; userId: number; completed: number }[]>();
    for (const record of days.records) byDay.set(record.unitId, [...(byDay.get(record.unitId) ?? []), record]);
    assert.equal(byDay.size, 40);
    for (const [unitId, records] of byDay) {
      assert.deepEqual(
        records.map((r) => r.userId),
        [Number(w.agentIds[0]), Number(bobId), Number(nameless.body.id)],
        unitId,
      );
    }
    assert.deepEqual(byDay.get('2024-01-26')?.[1], { ...byDay.get('2024-01-26')?.[1], ...ZERO_AGENT, nickname: 'Bob' });
    assert.equal(byDay.get(DAY)?.[1]!.completed, 2);
  });

  it('counts an agent only over chats: a conversation the contact never wrote in is not one', async () => {
    const quiet = await world('UTC', ['Dan']);
    t.clock.set('2024-03-05T10:00:00Z');
    const conversation = await quiet.factory.conversation({ contact_id: quiet.contactIds[0] });
    await quiet.factory.message(conversation.id, { sub_type: 'bot', text: 'Need help?' });
    await quiet.factory.message(conversation.id, { sub_type: 'agent', agent_id: quiet.agentIds[0], text: 'Hello?' });
    t.clock.reset();
    const body = await stats('totals', { apiKey: quiet.account.apiKey, from: '2024-03-05', to: '2024-03-05' });
    assert.deepEqual([body.overview.channels, body.overview.chats, body.overview.triggered], [1, 0, 1]);
    assert.deepEqual(body.agents, [{ userId: Number(quiet.agentIds[0]), nickname: 'Dan', ...ZERO_AGENT }]);
  });

  it('refuses an agents export of more than 50,000 records (units × agents) with 400, naming the sizes', async () => {
    const many = await world(
      'UTC',
      Array.from({ length: 14 }, (_, i) => `Agent ${i}`),
    );
    // Ten years by day: 3,652 days × 14 agents = 51,128 records.
    const refused = await t.client().get(`/stats/agents?apiKey=${many.account.apiKey}&from=2014-01-01&to=2023-12-31&interval=day`);
    assert.deepEqual(
      [refused.status, refused.body],
      [
        400,
        {
          success: false,
          error: {
            code: 'invalid_parameters',
            message:
              'from must leave at most 50,000 records (units × agents): 2014-01-01..2023-12-31 by day would give 3,652 × 14 = 51,128; ask for a shorter range or a longer interval',
          },
        },
      ],
    );
    const days = await stats('agents', { apiKey: many.account.apiKey, from: '2024-01-01', to: '2024-02-29', interval: 'day' });
    assert.equal(days.records.length, 60 * 14);
  });

  it('answers GET and POST alike', async () => {
    for (const path of ['totals', 'overview', 'agents']) {
      const parameters = { from: '2024-03-04', to: '2024-03-06', ...(path === 'totals' ? {} : { interval: 'week' }) };
      const viaGet = await stats(path, { apiKey: w.account.apiKey, ...parameters });
      const viaPost = await t.client().post(`/stats/${path}`, { apiKey: w.account.apiKey, ...parameters });
      assert.equal(viaPost.status, 200);
      assert.deepEqual(viaPost.body, viaGet);
    }
  });
});

it('documents the six operations with their parameters and legacy errors in the OpenAPI document', async () => {
  const res = await t.client().get('/v2/openapi.json');
  assert.equal(res.status, 200);
  for (const path of ['/stats/totals', '/stats/overview', '/stats/agents']) {
    const { get, post } = dereference(res.body).paths[path];
    // apiKey or, as an extension, a statistics:read bearer token: the alternatives are the security requirements
    // (the query's apiKey is the legacyApiKey scheme; in a POST body it stays an optional parameter).
    assert.deepEqual(get.security, [{ legacyApiKey: [] }, { bearer: ['statistics:read'] }], path);
    assert.deepEqual(res.body.components.securitySchemes.legacyApiKey, {
      type: 'apiKey',
      in: 'query',
      name: 'apiKey',
      description: "The account's legacy key for /stats; also accepted as a form or JSON body parameter",
    });
    const bodySchema = post.requestBody.content['application/json'].schema;
    assert.ok(bodySchema.properties.apiKey && !(bodySchema.required ?? []).includes('apiKey'), path);
    // A POST's apiKey may be in its body: the empty requirement admits a request without the query's.
    assert.deepEqual(post.security, [...get.security, {}], path);
    assert.equal(get.responses['403'].content['application/json'].schema.properties.success.enum[0], false, path);
    assert.equal(
      get.parameters.some((p: { name: string }) => p.name === 'interval'),
      path !== '/stats/totals',
      path,
    );
    assert.ok(post.requestBody, path);
    for (const operation of [get, post]) {
      assert.equal(operation.responses['422'], undefined, path);
      assert.deepEqual(operation.responses['401'].content['application/json'].schema.properties.success, {
        type: 'boolean',
        enum: [false],
      });
    }
  }
});

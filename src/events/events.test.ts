import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { buildApp } from '../app.ts';
import type { Db } from '../db/db.ts';
import { recordEvent } from './outbox.ts';
import { sendEventStream } from './http.ts';
import { streamStart } from './service.ts';
import { openEventStream, produceAgentEvents, recordConversationEvent, type Message, type Stream } from '../test/events.ts';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t.close());

/** A real SSE client over HTTP on this file's app (src/test/events.ts). */
const openStream = (token: string, query = '', headers: Record<string, string> = {}, at = base, path = '/v2/events'): Promise<Stream> =>
  openEventStream(at, token, query, headers, path);

const idsOf = (messages: Message[]) => messages.map((m) => m.id);

/** The ids of the account's events in the outbox, in order. */
async function eventIdsOf(account: TestAccount): Promise<number[]> {
  const { rows } = await t.db.query<{ id: number }>('select id from events where account_id = $1 order by id', [account.accountId]);
  return rows.map((row) => row.id);
}

async function newAccountWithStreamToken(): Promise<{ account: TestAccount; token: string }> {
  const account = await t.account();
  return { account, token: await t.token(account, ['events:read']) };
}

describe('GET /v2/events', { timeout: 300_000 }, () => {
  it('streams events as they commit, with id, event and data lines', async () => {
    const { account, token } = await newAccountWithStreamToken();
    await produceAgentEvents(t, account, 1);
    const stream = await openStream(token);
    assert.equal(stream.response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(stream.response.headers.get('cache-control'), 'no-cache, no-transform');
    try {
      const statuses = await produceAgentEvents(t, account, 2);
      const messages = await stream.next(2);
      assert.deepEqual(idsOf(messages), (await eventIdsOf(account)).slice(1), 'events before connecting are not replayed');
      for (const [i, message] of messages.entries()) {
        assert.equal(message.event, 'agent.updated');
        assert.deepEqual(Object.keys(message.data), ['id', 'event', 'timestamp', 'account_id', 'data']);
        assert.equal(message.data.id, message.id);
        assert.equal(message.data.event, 'agent.updated');
        assert.equal(message.data.account_id, account.accountId);
        assert.match(message.data.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(message.data.data.agent.status, statuses[i]);
      }
    } finally {
      stream.close();
    }
  });

  it('resumes after Last-Event-ID with nothing lost or repeated', async () => {
    const { account, token } = await newAccountWithStreamToken();
    const first = await openStream(token, '?last_event_id=0');
    await produceAgentEvents(t, account, 3);
    const seen = await first.next(2);
    first.close();
    // Events committed while disconnected.
    await produceAgentEvents(t, account, 2);

    // The query still says 0, as an EventSource's URL would: the header wins.
    const resumed = await openStream(token, '?last_event_id=0', { 'Last-Event-ID': String(seen[1]!.id) });
    try {
      const rest = await resumed.next(3);
      const all = await eventIdsOf(account);
      assert.equal(all.length, 5);
      assert.deepEqual([...idsOf(seen), ...idsOf(rest)], all);
      await produceAgentEvents(t, account, 1);
      assert.deepEqual(idsOf(await resumed.next(1)), (await eventIdsOf(account)).slice(5));
    } finally {
      resumed.close();
    }
  });

  it('replays the whole outbox from last_event_id=0, then follows it', async () => {
    const { account, token } = await newAccountWithStreamToken();
    await produceAgentEvents(t, account, 2);
    const stream = await openStream(token, '?last_event_id=0');
    try {
      const replayed = await stream.next(2);
      assert.deepEqual(idsOf(replayed), await eventIdsOf(account));
      await produceAgentEvents(t, account, 1);
      assert.deepEqual(idsOf(await stream.next(1)), (await eventIdsOf(account)).slice(2));
    } finally {
      stream.close();
    }
  });

  it('sends only the requested types, without losing its place', async () => {
    const { account, token } = await newAccountWithStreamToken();
    const stream = await openStream(token, '?types=contact.created,conversation.updated');
    try {
      await produceAgentEvents(t, account, 2);
      const contact = await t.client(account.token).post('/v2/contacts', { name: 'Ann' });
      assert.equal(contact.status, 200);
      const conversationEvent = await recordConversationEvent(t, account, 'coT', 'x');
      const messages = await stream.next(2);
      assert.deepEqual(
        messages.map((m) => m.event),
        ['contact.created', 'conversation.updated'],
      );
      assert.equal(messages[0]!.data.data.contact.id, contact.body.id);
      assert.equal(messages[1]!.id, conversationEvent);
    } finally {
      stream.close();
    }
  });

  it('starts a stream resuming after an id never handed out at the newest event, instead of leaving it silent', async () => {
    const { account, token } = await newAccountWithStreamToken();
    await produceAgentEvents(t, account, 1);
    const byHeader = await openStream(token, '', { 'Last-Event-ID': '900000000000' });
    const byQuery = await openStream(token, '?last_event_id=900000000000');
    try {
      await produceAgentEvents(t, account, 2);
      const newest = (await eventIdsOf(account)).slice(1);
      assert.deepEqual(idsOf(await byHeader.next(2)), newest);
      assert.deepEqual(idsOf(await byQuery.next(2)), newest);
    } finally {
      byHeader.close();
      byQuery.close();
    }
  });

  it('gives each of many streams of one account its own events, filtered or not, from reads they share', async () => {
    const { account, token } = await newAccountWithStreamToken();
    const everything = await Promise.all([1, 2, 3, 4, 5].map(() => openStream(token)));
    const contactsOnly = await Promise.all([1, 2, 3].map(() => openStream(token, '?types=contact.created')));
    try {
      await produceAgentEvents(t, account, 2);
      const contact = await t.client(account.token).post('/v2/contacts', { name: 'Ann' });
      assert.equal(contact.status, 200);
      await produceAgentEvents(t, account, 1);
      const ids = await eventIdsOf(account);
      for (const stream of everything) {
        const messages = await stream.next(4);
        assert.deepEqual(idsOf(messages), ids);
        assert.deepEqual(
          messages.map((m) => m.event),
          ['agent.updated', 'agent.updated', 'contact.created', 'agent.updated'],
        );
      }
      for (const stream of contactsOnly) {
        const [message] = await stream.next(1);
        assert.ok(message);
        assert.equal(message.event, 'contact.created');
        assert.equal(message.data.data.contact.id, contact.body.id);
      }
    } finally {
      for (const stream of [...everything, ...contactsOnly]) stream.close();
    }
  });

  it('shows a client of one instance the events committed through another on the same database', async () => {
    const second = await buildApp(t.deps, { logger: false });
    const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { account, token } = await newAccountWithStreamToken();
      const stream = await openStream(token, '', {}, secondBase);
      try {
        const statuses = await produceAgentEvents(t, account, 2);
        const messages = await stream.next(2);
        assert.deepEqual(
          messages.map((m) => m.data.data.agent.status),
          statuses,
        );
      } finally {
        stream.close();
      }
    } finally {
      await second.close();
    }
  });

  it("never shows another account's events", async () => {
    const mine = await newAccountWithStreamToken();
    const other = await t.account();
    const stream = await openStream(mine.token, '?last_event_id=0');
    try {
      await produceAgentEvents(t, other, 2);
      await produceAgentEvents(t, mine.account, 1);
      const [message] = await stream.next(1);
      assert.ok(message);
      assert.equal(message.data.account_id, mine.account.accountId);
      assert.deepEqual([message.id], await eventIdsOf(mine.account));
    } finally {
      stream.close();
    }
  });

  it('leaves no event for a rolled-back change', async () => {
    const { account, token } = await newAccountWithStreamToken();
    await assert.rejects(
      t.db.transaction(async (tx) => {
        await recordEvent(tx, account.accountId, new Date(), 'contact.created', { contact: { id: 'ctRolledBack' } });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    const stream = await openStream(token, '?last_event_id=0');
    try {
      const contact = await t.client(account.token).post('/v2/contacts', { name: 'Kept' });
      const [message] = await stream.next(1);
      assert.ok(message);
      assert.deepEqual([message.id], await eventIdsOf(account));
      assert.equal(message.data.data.contact.id, contact.body.id);
    } finally {
      stream.close();
    }
  });
});

describe('HEAD /v2/events', () => {
  it('answers with the stream headers only', async () => {
    const { token } = await newAccountWithStreamToken();
    const res = await t.client(token).request({ method: 'HEAD', url: '/v2/events' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(res.raw.body, '');
  });
});

describe('GET /v2/events errors', () => {
  it('rejects an unknown type with 422', async () => {
    const { token } = await newAccountWithStreamToken();
    const res = await t.client(token).get('/v2/events?types=agent.updated,agent.deleted');
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'invalid_arguments');
    assert.deepEqual(
      res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
      [['types', 'enum', 'query']],
    );
    assert.match(res.body.errors[0].message, /agent\.deleted/);
  });

  for (const query of ['last_event_id=-1', 'last_event_id=abc', 'types=', 'since=3']) {
    it(`rejects ?${query} with 422`, async () => {
      const { token } = await newAccountWithStreamToken();
      const res = await t.client(token).get(`/v2/events?${query}`);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'invalid_arguments');
      assert.equal(res.body.errors[0].location, 'query');
    });
  }

  it('rejects a malformed Last-Event-ID header with 400', async () => {
    const { token } = await newAccountWithStreamToken();
    const res = await t.client(token).request({ method: 'GET', url: '/v2/events', headers: { 'last-event-id': 'abc' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { code: 'bad_request', message: 'The Last-Event-ID header must be one event id (a non-negative integer)' });
  });

  it('needs events:read', async () => {
    const account = await t.account();
    const res = await t.client(await t.token(account, ['agents:read'])).get('/v2/events');
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { code: 'forbidden', message: 'Missing scope events:read' });
    const anonymous = await t.client().get('/v2/events');
    assert.equal(anonymous.status, 401);
  });
});

describe('server shutdown', { timeout: 300_000 }, () => {
  it('ends open streams so that close() returns', async () => {
    const other = await startTestApp();
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const account = await other.account();
    const response = await fetch(`${url}/v2/events`, { headers: { authorization: `Bearer ${account.token}` } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await other.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    assert.equal(done, true);
  });
});

describe('waking streams', { timeout: 300_000 }, () => {
  it('delivers an event through the notification alone, on this instance and another one (safety poll off)', async () => {
    const quiet = await startTestApp({ eventSafetyPollMs: 3_600_000 });
    const second = await buildApp(quiet.deps, { logger: false });
    try {
      const urls = [await quiet.app.listen({ port: 0, host: '127.0.0.1' }), await second.listen({ port: 0, host: '127.0.0.1' })];
      const account = await quiet.account();
      const token = await quiet.token(account, ['events:read']);
      const streams = [await openStream(token, '', {}, urls[0]), await openStream(token, '', {}, urls[1])];
      try {
        // Nothing polls: only the NOTIFY after this commit can wake the streams before the test's 60 s bound.
        const statuses = await produceAgentEvents(quiet, account, 1);
        for (const stream of streams)
          assert.deepEqual(
            (await stream.next(1)).map((m) => m.data.data.agent.status),
            statuses,
          );
      } finally {
        for (const stream of streams) stream.close();
      }
    } finally {
      await second.close();
      await quiet.close();
    }
  });

  it('finds an event whose notification was lost with the safety poll', async () => {
    const polling = await startTestApp({ eventSafetyPollMs: 100 });
    try {
      const url = await polling.app.listen({ port: 0, host: '127.0.0.1' });
      const account = await polling.account();
      const stream = await openStream(await polling.token(account, ['events:read']), '', {}, url);
      try {
        // Committed without any NOTIFY.
        await polling.db.query(
          `insert into events (account_id, type, conversation_id, data, created_at) values ($1, 'contact.created', null, '{"contact":{"id":"ctUnannounced"}}', $2)`,
          [account.accountId, new Date()],
        );
        const [message] = await stream.next(1);
        assert.ok(message);
        assert.equal(message.data.data.contact.id, 'ctUnannounced');
      } finally {
        stream.close();
      }
    } finally {
      await polling.close();
    }
  });
});

describe('reading only what somebody reads', { timeout: 300_000 }, () => {
  it('steps the horizon for an account once a stream of it opens here, and not for its writes before', async () => {
    const quiet = await startTestApp({ eventSafetyPollMs: 3_600_000 });
    // A second instance whose statements are recorded (its hub and its webhook worker use this Db).
    const statements: string[] = [];
    const recorded = {
      ...quiet.db,
      query: ((sql: string, params?: unknown[]) => (statements.push(sql), quiet.db.query(sql, params))) as Db['query'],
    };
    const reader = await buildApp({ ...quiet.deps, db: recorded }, { logger: false });
    const horizonSteps = () => statements.filter((sql) => sql.includes('pg_snapshot_xmin')).length;
    try {
      const url = await reader.listen({ port: 0, host: '127.0.0.1' });
      const account = await quiet.account();
      const token = await quiet.token(account, ['events:read']);
      const before = horizonSteps();
      // Written through the other instance: the reader gets the notification, but has no stream or webhook of the account.
      await produceAgentEvents(quiet, account, 2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(horizonSteps(), before);

      const stream = await openStream(token, '?last_event_id=0', {}, url);
      try {
        assert.deepEqual(
          (await stream.next(2)).map((m) => m.data.data.agent.status),
          ['online', 'offline'],
        );
        const statuses = await produceAgentEvents(quiet, account, 1);
        assert.deepEqual(
          (await stream.next(1)).map((m) => m.data.data.agent.status),
          statuses,
        );
        assert.ok(horizonSteps() > before);
      } finally {
        stream.close();
      }
    } finally {
      await reader.close();
      await quiet.close();
    }
  });
});

describe('revoking the token of an open stream', { timeout: 300_000 }, () => {
  it('ends the stream, on this instance and another, while a stream of another token goes on', async () => {
    const second = await buildApp(t.deps, { logger: false });
    const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const account = await t.account();
      const created = await t.client(account.token).post('/v2/tokens', { name: 'dashboard', scopes: ['events:read'] });
      assert.equal(created.status, 200);
      const kept = await t.token(account, ['events:read']);
      const revokedStreams = [
        await openStream(created.body.token, '?last_event_id=0'),
        await openStream(created.body.token, '?last_event_id=0', {}, secondBase),
      ];
      const keptStream = await openStream(kept, '?last_event_id=0');
      try {
        const revoke = await t.client(account.token).delete(`/v2/tokens/${created.body.id}`);
        assert.equal(revoke.status, 200);
        // Each instance rechecks its streams' tokens every 2 s; the 60 s bound only keeps a broken check from hanging.
        for (const stream of revokedStreams) await assert.rejects(stream.next(1), /the stream ended/);
        await produceAgentEvents(t, account, 1);
        assert.equal((await keptStream.next(1)).length, 1, 'the other token still streams');
        const again = await t.client(created.body.token).get('/v2/events');
        assert.equal(again.status, 401);
      } finally {
        for (const stream of [...revokedStreams, keptStream]) stream.close();
      }
    } finally {
      await second.close();
    }
  });
});

describe('limits on open streams', { timeout: 300_000 }, () => {
  it('answers 429 past the limits of a token, an account and the instance, and frees a place when a stream closes', async () => {
    const limited = await startTestApp({ eventStreamsPerToken: 2, eventStreamsPerAccount: 3, eventStreamsPerInstance: 4 });
    const streams: Stream[] = [];
    try {
      const url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const first = await limited.account();
      const [tokenA, tokenB] = [await limited.token(first, ['events:read']), await limited.token(first, ['events:read'])];
      const refused = async (token: string, message: RegExp) => {
        const res = await limited.client(token).get('/v2/events');
        assert.equal(res.status, 429);
        assert.equal(res.body.code, 'too_many_requests');
        assert.match(res.body.message, message);
      };

      streams.push(await openStream(tokenA, '', {}, url), await openStream(tokenA, '', {}, url));
      await refused(tokenA, /for this token on this instance: at most 2 at once/);
      streams.push(await openStream(tokenB, '', {}, url));
      await refused(tokenB, /for this account on this instance: at most 3 at once/);

      const second = await limited.account();
      const tokenC = await limited.token(second, ['events:read']);
      streams.push(await openStream(tokenC, '', {}, url));
      await refused(tokenC, /streams on this instance: at most 4 at once/);

      // Closing one of the first token's streams frees a place for it (and for the account and the instance),
      // once the server has seen the connection close.
      streams.shift()!.close();
      const hub = limited.app.eventHub;
      while (hub.openStreams > 3) await new Promise((resolve) => setTimeout(resolve, 20));
      streams.push(await openStream(tokenA, '', {}, url));
      await refused(tokenA, /for this token/);
    } finally {
      for (const stream of streams) stream.close();
      await limited.close();
    }
  });

  it('leaves nothing behind on the instance once its streams have closed', async () => {
    const { token } = await newAccountWithStreamToken();
    const hub = t.app.eventHub;
    const before = hub.openStreams;
    const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(token)));
    assert.equal(hub.openStreams, before + 20);
    for (const stream of streams) stream.close();
    while (hub.openStreams > before) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(hub.openStreams, before);
  });
});

describe('a stream narrowed to some conversations (what other streaming routes build on)', { timeout: 300_000 }, () => {
  it('sends only their events, in id order, and resumes exactly after Last-Event-ID', async () => {
    // A route like the widget's: no token, the filter from the request (here, its query).
    const narrowApp = await buildApp(t.deps, { logger: false });
    narrowApp.get<{ Querystring: { account: string; conversations: string } }>('/narrow', async (request, reply) => {
      const afterId = await streamStart(t.deps, narrowApp.eventHub, {
        lastEventIdHeader: request.headers['last-event-id'],
        lastEventIdQuery: undefined,
      });
      await sendEventStream(t.deps, narrowApp.eventHub, request, reply, {
        filter: { accountId: request.query.account, conversationIds: request.query.conversations.split(',') },
        afterId,
        holder: { key: `visitor:${request.query.conversations}`, limit: 5, name: 'visitor' },
      });
    });
    const url = await narrowApp.listen({ port: 0, host: '127.0.0.1' });
    try {
      const account = await t.account();
      const other = await t.account();
      const query = `?account=${account.accountId}&conversations=coNarrowA,coNarrowB`;
      const stream = await openStream('', query, {}, url, '/narrow');
      const wanted: number[] = [];
      try {
        wanted.push(await recordConversationEvent(t, account, 'coNarrowA', 'a1'));
        await recordConversationEvent(t, account, 'coNarrowC', 'c1');
        await produceAgentEvents(t, account, 1);
        // Another account's conversation with the same id never matches.
        await recordConversationEvent(t, other, 'coNarrowA', 'other');
        wanted.push(await recordConversationEvent(t, account, 'coNarrowB', 'b1'));
        wanted.push(await recordConversationEvent(t, account, 'coNarrowA', 'a2'));
        const messages = await stream.next(3);
        assert.deepEqual(idsOf(messages), wanted);
        assert.deepEqual(
          messages.map((m) => m.data.data.marker),
          ['a1', 'b1', 'a2'],
        );
      } finally {
        stream.close();
      }
      // Resuming after the first: the two others, and what came since.
      wanted.push(await recordConversationEvent(t, account, 'coNarrowB', 'b2'));
      const resumed = await openStream('', query, { 'Last-Event-ID': String(wanted[0]) }, url, '/narrow');
      try {
        assert.deepEqual(idsOf(await resumed.next(3)), wanted.slice(1));
      } finally {
        resumed.close();
      }
    } finally {
      await narrowApp.close();
    }
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import type { Db } from '../db/db.ts';
import pg from 'pg';
import { engine, startTestApp, waitUntil, type TestAccount, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { deleteExpiredIdempotencyKeys } from './service.ts';
import { createDecipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config.ts';
import { resolveIdempotencySecret } from './secret.ts';

let t: TestApp;
/** A second instance on the same database, whose transactions a test can hold or fail. */
let gated: FastifyInstance;
let gate: Gate;

before(async () => {
  // Requests here wait on locks held by a test for as long as it takes (DB_LOCK_TIMEOUT_MS has its own test below).
  t = await startTestApp({ dbLockTimeoutMs: 600_000 });
  gate = new Gate();
  gated = await buildApp({ ...t.deps, db: gate.wrap(t.db) }, { logger: false });
  await gated.ready();
});
after(async () => {
  await gated.close();
  await t.close();
});

/** Holds (or fails) the next transaction the gated instance starts, i.e. a request's write after its key is claimed. */
class Gate {
  #next: { entered: () => void; opened: Promise<void>; fail: boolean } | undefined;

  /** Resolves once the next transaction is waiting; it goes on when `open` is called, or throws if `fail`. */
  hold(fail = false): { entered: Promise<void>; open: () => void } {
    let open!: () => void;
    let entered!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const reached = new Promise<void>((resolve) => (entered = resolve));
    this.#next = { entered, opened, fail };
    return { entered: reached, open };
  }

  wrap(db: Db): Db {
    return new Proxy(db, {
      get: (target, property) => {
        if (property === 'transaction') {
          return async (fn: Parameters<Db['transaction']>[0]) => {
            const next = this.#next;
            this.#next = undefined;
            if (next) {
              next.entered();
              await next.opened;
              if (next.fail) throw new Error('the database went away');
            }
            return target.transaction(fn);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

interface Answer {
  status: number;
  body: string;
  headers: LightMyRequestResponse['headers'];
}

async function post(account: TestAccount, url: string, body: unknown, key?: string, app = t.app): Promise<Answer> {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: {
      authorization: `Bearer ${account.token}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
  });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

/** Like post(), with a raw bearer token and any payload and content type. */
async function send(token: string, url: string, payload: string, key: string, contentType = 'application/json'): Promise<Answer> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'idempotency-key': key },
  });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

async function contactCount(account: TestAccount): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>('select count(*)::int as n from contacts where account_id = $1', [account.accountId]);
  return rows[0]!.n;
}

const REUSED = {
  code: 'idempotency_key_reused',
  message: 'This Idempotency-Key was used with another request (token, method, path or body) in the last 24 hours; use a new key',
};
const IN_USE = {
  code: 'idempotency_key_in_use',
  message: 'A request with this Idempotency-Key is still running; retry when it has answered',
};

describe('Idempotency-Key', () => {
  it('answers a repeated request with the first answer, on any instance, without running it again', async () => {
    const account = await t.account();
    const first = await post(account, '/v2/contacts', { name: 'Ada', email: 'ada@example.com' }, 'key-1');
    assert.equal(first.status, 200);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await post(account, '/v2/contacts', { email: 'ada@example.com', name: 'Ada' }, 'key-1'); // keys in another order
    const elsewhere = await post(account, '/v2/contacts', { name: 'Ada', email: 'ada@example.com' }, 'key-1', gated);
    for (const replay of [again, elsewhere]) {
      assert.equal(replay.status, 200);
      assert.equal(replay.body, first.body);
      assert.equal(replay.headers['content-type'], first.headers['content-type']);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
    }
    assert.equal(await contactCount(account), 1);
    const fresh = await post(account, '/v2/contacts', { name: 'Ada', email: 'ada@example.com' }, 'key-2');
    assert.notEqual(JSON.parse(fresh.body).id, JSON.parse(first.body).id);
    assert.equal(await contactCount(account), 2);
  });

  it('refuses the key with another body or path: 422 idempotency_key_reused, running nothing', async () => {
    const account = await t.account();
    assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'used')).status, 200);
    const otherBody = await post(account, '/v2/contacts', { name: 'Bob' }, 'used');
    assert.equal(otherBody.status, 422);
    assert.deepEqual(JSON.parse(otherBody.body), REUSED);
    const otherPath = await post(account, '/v2/tags', { name: 'Ada' }, 'used');
    assert.equal(otherPath.status, 422);
    assert.deepEqual(JSON.parse(otherPath.body), REUSED);
    assert.equal(await contactCount(account), 1);
    assert.deepEqual(JSON.parse((await t.client(account.token).get('/v2/tags')).raw.body), { tags: [] });
  });

  it('runs one of two concurrent requests with one key and answers the other 409 idempotency_key_in_use', async () => {
    const account = await t.account();
    const held = gate.hold();
    const running = post(account, '/v2/contacts', { name: 'Ada' }, 'together', gated);
    await held.entered; // the first request holds the key and waits in its transaction
    const concurrent = await post(account, '/v2/contacts', { name: 'Ada' }, 'together');
    assert.equal(concurrent.status, 409);
    assert.deepEqual(JSON.parse(concurrent.body), IN_USE);
    held.open();
    const first = await running;
    assert.equal(first.status, 200);
    const after = await post(account, '/v2/contacts', { name: 'Ada' }, 'together');
    assert.equal(after.body, first.body);
    assert.equal(await contactCount(account), 1);
  });

  it('lets a retry take over a key whose request stopped answering for 60 seconds (a crashed instance)', async () => {
    const account = await t.account();
    t.clock.set(new Date());
    try {
      const held = gate.hold();
      const stuck = post(account, '/v2/contacts', { name: 'Ada' }, 'stuck', gated);
      await held.entered;
      t.clock.advance(59);
      assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'stuck')).status, 409);
      t.clock.advance(2);
      const retry = await post(account, '/v2/contacts', { name: 'Ada' }, 'stuck');
      assert.equal(retry.status, 200);
      held.open();
      assert.equal((await stuck).status, 200); // it still ran, but its answer is not the stored one
      assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'stuck')).body, retry.body);
    } finally {
      t.clock.reset();
    }
  });

  it('keeps the key of a request still running past 60 seconds: its instance renews it, so a retry gets 409', async () => {
    const account = await t.account();
    t.clock.set(new Date());
    try {
      const held = gate.hold();
      const running = post(account, '/v2/contacts', { name: 'Ada' }, 'long', gated);
      await held.entered; // the request holds the key and waits, as on a lock or a slow statement
      t.clock.advance(40);
      assert.equal(await gated.renewIdempotencyKeys(), 1); // what its instance does every 15 s
      t.clock.advance(23); // 63 s after the claim
      const retry = await post(account, '/v2/contacts', { name: 'Ada' }, 'long');
      assert.equal(retry.status, 409);
      assert.deepEqual(JSON.parse(retry.body), IN_USE);
      held.open();
      const first = await running;
      assert.equal(first.status, 200);
      assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'long')).body, first.body);
      assert.equal(await contactCount(account), 1);
      assert.equal(await gated.renewIdempotencyKeys(), 0); // answered: no longer renewed
    } finally {
      t.clock.reset();
    }
  });

  it('keeps 4xx answers of a request that ran, but not a refused validation nor a 5xx', async () => {
    const account = await t.account();
    // Refused by validation: the key is not taken, so the corrected request runs.
    const invalid = await post(account, '/v2/contacts', { name: 5 }, 'fix-me');
    assert.equal(invalid.status, 422);
    assert.equal(JSON.parse(invalid.body).code, 'invalid_arguments');
    assert.equal((await post(account, '/v2/contacts', { name: 'Ada', identity_id: 'ada' }, 'fix-me')).status, 200);

    // A rule of the service refused it after it started: kept and answered again.
    const duplicate = await post(account, '/v2/contacts', { identity_id: 'ada' }, 'dup');
    assert.equal(duplicate.status, 422);
    assert.equal(JSON.parse(duplicate.body).errors[0].code, 'unique');
    const replayed = await post(account, '/v2/contacts', { identity_id: 'ada' }, 'dup');
    assert.equal(replayed.status, 422);
    assert.equal(replayed.body, duplicate.body);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');

    // A 5xx frees the key: the retry runs.
    const failing = gate.hold(true);
    failing.open();
    const failed = await post(account, '/v2/contacts', { name: 'Bob' }, 'flaky', gated);
    assert.equal(failed.status, 500);
    const retried = await post(account, '/v2/contacts', { name: 'Bob' }, 'flaky');
    assert.equal(retried.status, 200);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.equal(await contactCount(account), 2);
  });

  it('is claimed before validation: a refused request frees the key, stores nothing, and the corrected request runs with it', async () => {
    const account = await t.account();
    const keys = async () => (await t.db.query('select key from idempotency_keys where account_id = $1', [account.accountId])).rows.length;
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = [deep];
    // The schema, input the database cannot store, a body nested too deep, a body sent to an operation that takes none.
    const refusals: [string, unknown, string][] = [
      ['/v2/contacts', { name: 5 }, 'type'],
      ['/v2/contacts', { name: 'Ada\u0000' }, 'pattern'],
      ['/v2/contacts', { name: 'Ada', variables: { deep } }, 'maxDepth'],
      ['/v2/agents/1/ping', { status: 'online' }, 'additionalProperties'],
    ];
    for (const [url, body, code] of refusals) {
      const refused = await post(account, url, body, 'corrected');
      assert.equal(refused.status, 422, `${url} ${code}`);
      assert.equal(JSON.parse(refused.body).code, 'invalid_arguments');
      assert.equal(JSON.parse(refused.body).errors[0].code, code);
      assert.equal(await keys(), 0, `${code}: the key is free again, and no answer is kept`);
    }
    const corrected = await post(account, '/v2/contacts', { name: 'Ada' }, 'corrected');
    assert.equal(corrected.status, 200);
    assert.equal(corrected.headers['idempotent-replayed'], undefined);
    const again = await post(account, '/v2/contacts', { name: 'Ada' }, 'corrected');
    assert.deepEqual([again.body, again.headers['idempotent-replayed']], [corrected.body, 'true']);
    assert.equal(await contactCount(account), 1);
  });

  it('answers a refused request under a key another request used with 422 idempotency_key_reused, as the claim comes first', async () => {
    const account = await t.account();
    assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'taken')).status, 200);
    for (const body of [{ name: 5 }, { name: 'Ada', unknown: true }]) {
      const refused = await post(account, '/v2/contacts', body, 'taken');
      assert.equal(refused.status, 422);
      assert.deepEqual(JSON.parse(refused.body), REUSED);
    }
    // The key still holds the first answer.
    const replay = await post(account, '/v2/contacts', { name: 'Ada' }, 'taken');
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(await contactCount(account), 1);
  });

  it('compares bodies as validation reads them: a field left out and the same field sent with its default are one request', async () => {
    const account = await t.account();
    const hook = JSON.parse((await post(account, '/v2/webhooks', { url: 'https://93.184.215.14/hook' })).body);
    const first = await post(account, `/v2/webhooks/${hook.id}/secret/rotate`, {}, 'rotate');
    assert.equal(first.status, 200);
    const again = await post(account, `/v2/webhooks/${hook.id}/secret/rotate`, { overlap_seconds: 86_400 }, 'rotate');
    assert.deepEqual([again.status, again.body, again.headers['idempotent-replayed']], [200, first.body, 'true']);
    const other = await post(account, `/v2/webhooks/${hook.id}/secret/rotate`, { overlap_seconds: 0 }, 'rotate');
    assert.deepEqual([other.status, JSON.parse(other.body)], [422, REUSED]);
  });

  it('stores neither the key nor the answer readable: a new token replayed is in the database only as a hash', async () => {
    const account = await t.account();
    const first = await post(account, '/v2/tokens', { name: 'ci', scopes: ['agents:read'] }, 'token-key');
    assert.equal(first.status, 200);
    const again = await post(account, '/v2/tokens', { name: 'ci', scopes: ['agents:read'] }, 'token-key');
    assert.deepEqual([again.status, again.body, again.headers['idempotent-replayed']], [200, first.body, 'true']);
    const { rows } = await t.db.query<{ row: string }>('select k::text as row from idempotency_keys k where account_id = $1', [
      account.accountId,
    ]);
    assert.equal(rows.length, 1);
    assert.doesNotMatch(rows[0]!.row, /token-key/);
    assert.equal(rows[0]!.row.includes(JSON.parse(first.body).token), false);
  });

  it('replays an answer only to the token that caused it: any other token gets 422, however broad its scopes', async () => {
    const account = await t.account();
    const manager = await t.token(account, ['account:manage']);
    const uploader = await t.token(account, ['conversations:create']);
    const otherUploader = await t.token(account, ['conversations:create']);
    // A new token with scopes the manager cannot grant itself (403 when it asks), created by the owner.
    const body = JSON.stringify({ name: 'ci', scopes: ['agents:read', 'contacts:read'] });
    assert.equal((await send(manager, '/v2/tokens', body, 'mine')).status, 403);
    const created = await send(account.token, '/v2/tokens', body, 'shared-token');
    assert.equal(created.status, 200);
    // A webhook secret, an upload token.
    const webhook = await send(account.token, '/v2/webhooks', JSON.stringify({ url: 'https://93.184.215.14/hook' }), 'shared-hook');
    assert.equal(webhook.status, 200);
    const upload = await send(uploader, '/v2/uploads?file_name=a.txt', 'hello', 'shared-upload', 'text/plain');
    assert.equal(upload.status, 200);
    for (const [token, url, payload, key, type] of [
      [manager, '/v2/tokens', body, 'shared-token', 'application/json'],
      [manager, '/v2/webhooks', JSON.stringify({ url: 'https://93.184.215.14/hook' }), 'shared-hook', 'application/json'],
      [otherUploader, '/v2/uploads?file_name=a.txt', 'hello', 'shared-upload', 'text/plain'],
      [account.token, '/v2/uploads?file_name=a.txt', 'hello', 'shared-upload', 'text/plain'],
    ] as const) {
      const replay = await send(token, url, payload, key, type);
      assert.equal(replay.status, 422, `${url} ${key}`);
      assert.deepEqual(JSON.parse(replay.body), REUSED);
      assert.equal(replay.headers['idempotent-replayed'], undefined);
      for (const secret of [JSON.parse(created.body).token, JSON.parse(webhook.body).secret, JSON.parse(upload.body).token]) {
        assert.equal(replay.body.includes(secret), false);
      }
    }
    // The token that caused each answer still gets it; nothing ran twice.
    assert.equal((await send(account.token, '/v2/tokens', body, 'shared-token')).body, created.body);
    assert.equal((await send(uploader, '/v2/uploads?file_name=a.txt', 'hello', 'shared-upload', 'text/plain')).body, upload.body);
    const tokens = JSON.parse((await t.client(account.token).get('/v2/tokens')).raw.body).tokens;
    assert.equal(tokens.filter((token: { name: string }) => token.name === 'ci').length, 1);
    const { rows } = await t.db.query('select id from uploads where account_id = $1', [account.accountId]);
    assert.equal(rows.length, 1);
  });

  it("keeps each account's keys apart", async () => {
    const [a, b] = [await t.account(), await t.account()];
    const first = await post(a, '/v2/contacts', { name: 'Ada' }, 'shared');
    const second = await post(b, '/v2/contacts', { name: 'Ada' }, 'shared');
    assert.equal(second.status, 200);
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.notEqual(JSON.parse(second.body).id, JSON.parse(first.body).id);
    assert.equal((await post(b, '/v2/contacts', { name: 'Bob' }, 'shared')).status, 422);
    assert.equal((await post(a, '/v2/contacts', { name: 'Ada' }, 'shared')).body, first.body);
  });

  it('checks the key: 1 to 255 visible ASCII characters', async () => {
    const account = await t.account();
    assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'k'.repeat(255))).status, 200);
    for (const [key, code, problem] of [
      ['k'.repeat(256), 'maxLength', 'must be at most 255 characters'],
      ['', 'minLength', 'must not be empty'],
      ['two words', 'pattern', 'must be visible ASCII characters (no spaces)'],
    ]) {
      const res = await post(account, '/v2/contacts', { name: 'Bob' }, key);
      assert.equal(res.status, 422, key);
      const message = `Idempotency-Key ${problem}`;
      assert.deepEqual(JSON.parse(res.body), {
        code: 'invalid_arguments',
        message: `Invalid arguments: ${message}`,
        errors: [{ path: 'Idempotency-Key', code, message, location: 'header' }],
      });
    }
    assert.equal(await contactCount(account), 1);
  });

  it('forgets a key after 24 hours; the retention pass deletes it', async () => {
    const account = await t.account();
    t.clock.set(new Date());
    try {
      assert.equal((await post(account, '/v2/contacts', { name: 'Ada' }, 'daily')).status, 200);
      t.clock.advance(24 * 3600 - 1);
      assert.equal((await post(account, '/v2/contacts', { name: 'Bob' }, 'daily')).status, 422);
      t.clock.advance(1);
      const next = await post(account, '/v2/contacts', { name: 'Bob' }, 'daily');
      assert.equal(next.status, 200);
      assert.equal(next.headers['idempotent-replayed'], undefined);
      assert.equal((await post(account, '/v2/contacts', { name: 'Carl' }, 'old')).status, 200);
      t.clock.advance(24 * 3600);
      assert.ok((await deleteExpiredIdempotencyKeys(t.deps)) >= 2);
      const { rows } = await t.db.query('select key from idempotency_keys where account_id = $1', [account.accountId]);
      assert.deepEqual(rows, []);
    } finally {
      t.clock.reset();
    }
  });

  it('covers uploads: the same file again gets the same token, another file under the key 422', async () => {
    const account = await t.account();
    const upload = (data: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/uploads?file_name=a.txt',
        payload: data,
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'text/plain', 'idempotency-key': key },
      });
    const first = await upload('hello', 'up');
    assert.equal(first.statusCode, 200);
    const again = await upload('hello', 'up');
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const other = await upload('other bytes', 'up');
    assert.equal(other.statusCode, 422);
    assert.deepEqual(JSON.parse(other.body), REUSED);
    // Multipart: the same file in a body with another boundary is the same upload.
    const multipart = (boundary: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/uploads?file_name=a.txt',
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
        headers: {
          authorization: `Bearer ${account.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'idempotency-key': 'multi',
        },
      });
    const parts = await multipart('one');
    assert.equal(parts.statusCode, 200);
    const partsAgain = await multipart('two');
    assert.equal(partsAgain.body, parts.body);
    assert.equal(partsAgain.headers['idempotent-replayed'], 'true');
    const { rows } = await t.db.query('select id from uploads where account_id = $1', [account.accountId]);
    assert.equal(rows.length, 2);
  });

  it('covers an upload refused after its file was read: the key is freed and the file discarded', async () => {
    const account = await t.account();
    const upload = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/uploads?file_name=a.txt${query}`,
        payload: 'hello',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'text/plain', 'idempotency-key': 'file' },
      });
    const refused = await upload('&unknown=1');
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(
      JSON.parse(refused.body).errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['unknown', 'additionalProperties']],
    );
    const stored = async () => (await t.db.query('select id from uploads where account_id = $1', [account.accountId])).rows.length;
    assert.equal(await stored(), 0);
    const corrected = await upload('');
    assert.equal(corrected.statusCode, 200);
    assert.equal(corrected.headers['idempotent-replayed'], undefined);
    const replay = await upload('');
    assert.deepEqual([replay.body, replay.headers['idempotent-replayed']], [corrected.body, 'true']);
    assert.equal(await stored(), 1);
  });

  it('settles the key of a request whose connection closed while it ran before a graceful stop closes the database', async () => {
    // A proxy that gets no answer (its connection to a stopping instance reset) sends the POST to another instance;
    // the first instance's request still runs. Its instance, stopping gracefully, must store its answer (or free the
    // key) before the database closes: a key left held answers every retry 409 for 60 s, as only a killed instance may.
    const account = await t.account();
    let closed = false;
    const db = new Proxy(gate.wrap(t.db), {
      get: (target, property) => {
        const value = Reflect.get(target, property, target);
        if (property !== 'query' && property !== 'transaction') return value;
        return (...args: unknown[]) =>
          closed ? Promise.reject(new Error('the database is closed')) : (value as (...a: unknown[]) => unknown)(...args);
      },
    });
    const stopping = await buildApp({ ...t.deps, db }, { logger: false });
    await stopping.listen({ host: '127.0.0.1', port: 0 });
    const { port } = stopping.server.address() as AddressInfo;
    const held = gate.hold();
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v2/contacts',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json', 'idempotency-key': 'cut-off' },
    });
    request.on('error', () => undefined);
    request.end(JSON.stringify({ name: 'Ada' }));
    await held.entered; // the key is claimed and the request waits in its transaction
    request.destroy(); // its connection closes without an answer
    await waitUntil(() => new Promise((resolve) => stopping.server.getConnections((_error, n) => resolve(n === 0))));
    // What stop() does (src/server.ts): close the app, then the database. The request goes on meanwhile.
    const ran = setTimeout(held.open, 200);
    try {
      await stopping.close();
    } finally {
      closed = true;
      held.open();
      clearTimeout(ran);
    }
    const retry = await post(account, '/v2/contacts', { name: 'Ada' }, 'cut-off');
    assert.equal(retry.status, 200, retry.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(await contactCount(account), 1);
  });

  it('is ignored on other methods', async () => {
    const account = await t.account();
    const created = JSON.parse((await post(account, '/v2/contacts', { name: 'Ada' })).body);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/contacts/${created.id}`,
      headers: { authorization: `Bearer ${account.token}`, 'idempotency-key': 'k'.repeat(300) },
    });
    assert.equal(res.statusCode, 200);
  });
});

describe('stored answers and IDEMPOTENCY_SECRET (docs/behaviour.md §11)', () => {
  it('a dump of the table decrypts no answer and confirms no key with the Idempotency-Key alone', async () => {
    const account = await t.account();
    const key = 'order-1'; // guessable on purpose
    const first = await post(account, '/v2/tokens', { name: 'ci', scopes: ['agents:read'] }, key);
    assert.equal(first.status, 200);
    const { rows } = await t.db.query<{ key: string; response_body: string }>(
      'select key, response_body from idempotency_keys where account_id = $1',
      [account.accountId],
    );
    assert.equal(rows.length, 1);
    const stored = Buffer.from(rows[0]!.response_body, 'base64');
    // Everything the key alone gives: the former SHA-256 derivation, and HKDF/HMAC without the server's secret.
    const guesses = [
      createHash('sha256').update(`idempotency-answer\n${key}`).digest(),
      createHash('sha256').update(key).digest(),
      Buffer.from(hkdfSync('sha256', '', 'chat-service idempotency answer', `${account.accountId}\n${key}`, 32)),
    ];
    for (const guess of guesses) {
      const decipher = createDecipheriv('aes-256-gcm', guess, stored.subarray(0, 12));
      decipher.setAuthTag(stored.subarray(12, 28));
      decipher.update(stored.subarray(28));
      assert.throws(() => decipher.final());
    }
    for (const label of ['idempotency-key', 'idempotency-key-v2']) {
      assert.notEqual(rows[0]!.key, createHash('sha256').update(`${label}\n${key}`).digest('hex'));
      assert.notEqual(rows[0]!.key, createHmac('sha256', '').update(`${label}\n${account.accountId}\n${key}`).digest('hex'));
    }
    // An instance with another secret cannot find the answer: to it the key is new (as after losing the secret).
    const other = await buildApp(
      { ...t.deps, config: { ...t.deps.config, idempotencySecret: 'another-secret-'.repeat(3) } },
      { logger: false },
    );
    try {
      const elsewhere = await post(account, '/v2/tokens', { name: 'ci', scopes: ['agents:read'] }, key, other);
      assert.equal(elsewhere.status, 200);
      assert.equal(elsewhere.headers['idempotent-replayed'], undefined);
      assert.notEqual(JSON.parse(elsewhere.body).token, JSON.parse(first.body).token);
    } finally {
      await other.close();
    }
    // The same secret replays it.
    assert.equal((await post(account, '/v2/tokens', { name: 'ci', scopes: ['agents:read'] }, key)).body, first.body);
  });

  it('never logs the Idempotency-Key, not even when storing the answer fails', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const failing = new Proxy(t.db, {
      get: (target, property) =>
        property === 'query'
          ? (sql: string, params?: unknown[]) =>
              /^\s*update idempotency_keys/.test(sql) ? Promise.reject(new Error('the database went away')) : target.query(sql, params)
          : Reflect.get(target, property, target),
    });
    const logged = await buildApp({ ...t.deps, db: failing }, { logger: { level: 'info', stream } });
    try {
      const account = await t.account();
      const res = await post(account, '/v2/contacts', { name: 'Ada' }, 'never-in-the-log-42', logged);
      assert.equal(res.status, 200);
    } finally {
      await logged.close();
    }
    const log = lines.join('');
    assert.match(log, /idempotency: storing the answer failed/);
    assert.equal(log.includes('never-in-the-log-42'), false);
  });

  it('serve keeps a generated secret in a PGlite data directory, warns without one on PostgreSQL, and takes IDEMPOTENCY_SECRET first', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-service-secret-'));
    try {
      const warnings: string[] = [];
      const config = { ...loadConfig({}), dataDir: dir };
      const generated = resolveIdempotencySecret(config, (w) => warnings.push(w));
      assert.ok(generated.length >= 32);
      assert.equal(statSync(path.join(dir, 'idempotency-secret')).mode & 0o777, 0o600);
      assert.equal(
        resolveIdempotencySecret(config, (w) => warnings.push(w)),
        generated,
      );
      assert.equal(warnings.length, 0);
      const configured = 'c'.repeat(32);
      assert.equal(
        resolveIdempotencySecret({ ...config, idempotencySecret: configured }, (w) => warnings.push(w)),
        configured,
      );
      resolveIdempotencySecret({ ...config, databaseUrl: 'postgres://x@127.0.0.1/db' }, (w) => warnings.push(w));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /IDEMPOTENCY_SECRET is not set/);
      assert.equal(loadConfig({ IDEMPOTENCY_SECRET: configured }).idempotencySecret, configured);
      assert.throws(() => loadConfig({ IDEMPOTENCY_SECRET: 'short' }), /IDEMPOTENCY_SECRET must be at least 32 characters/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A second PostgreSQL session on the test's database, to hold row locks. */
async function otherSession(app: TestApp): Promise<pg.Client> {
  const { rows } = await app.db.query<{ name: string }>('select current_database() as name');
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** The database's sessions as one line each: what a stuck lock test prints. */
async function sessionsOf(session: pg.Client): Promise<string> {
  const { rows } = await session.query<{ line: string }>(
    `select concat_ws(' | ', pid, state, wait_event_type, wait_event, left(query, 120)) as line
       from pg_stat_activity where datname = current_database()`,
  );
  return rows.map((row) => row.line).join('\n');
}

/** `promise`, or a failure naming `what` and listing the database's sessions once `ms` pass: never a silent hang. */
async function within<T>(promise: Promise<T>, ms: number, what: string, session: pg.Client): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      sessionsOf(session).then(
        (sessions) => reject(new Error(`${what}: still waiting after ${ms} ms; the database's sessions:\n${sessions}`)),
        (error: unknown) => reject(new Error(`${what}: still waiting after ${ms} ms (sessions unknown: ${String(error)})`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once some session of the database waits for a lock (a request blocked behind the other session). */
async function someoneWaitsForALock(session: pg.Client): Promise<void> {
  const waiting = async () => {
    for (;;) {
      const { rows } = await session.query(
        "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' limit 1",
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await within(waiting(), 30_000, 'a request blocked on the held row', session);
}

async function messageCount(app: TestApp, account: TestAccount): Promise<number> {
  const { rows } = await app.db.query<{ n: number }>('select count(*)::int as n from messages where account_id = $1', [account.accountId]);
  return rows[0]!.n;
}

describe('a request waiting on a row another session holds (PostgreSQL)', { skip: engine !== 'postgres', timeout: 120_000 }, () => {
  it('keeps its key past 60 seconds of waiting: the retry gets 409 and the message is stored once', async () => {
    const account = await t.account();
    const conversation = await conversationFactory(t, account).conversation();
    const session = await otherSession(t);
    t.clock.set(new Date());
    try {
      await session.query('begin');
      await session.query('select 1 from conversations where account_id = $1 and id = $2 for update', [account.accountId, conversation.id]);
      const url = `/v2/conversations/${conversation.id}/messages`;
      const body = { sub_type: 'contact', text: 'hello' };
      const first = post(account, url, body, 'wait');
      await someoneWaitsForALock(session);
      t.clock.advance(40);
      assert.equal(await t.app.renewIdempotencyKeys(), 1);
      t.clock.advance(23); // the retry of the confirmed defect, 63 s after the first
      const retry = await within(post(account, url, body, 'wait'), 30_000, 'the retry while the first waits', session);
      assert.equal(retry.status, 409);
      assert.deepEqual(JSON.parse(retry.body), IN_USE);
      await session.query('rollback');
      const answered = await within(first, 30_000, 'the first request once the row is free', session);
      assert.equal(answered.status, 200);
      const replay = await post(account, url, body, 'wait');
      assert.deepEqual([replay.status, replay.body, replay.headers['idempotent-replayed']], [200, answered.body, 'true']);
      assert.equal(await messageCount(t, account), 1 + (conversation.messages?.length ?? 0));
    } finally {
      t.clock.reset();
      await session.end();
    }
  });

  it('answers 503 service_unavailable with Retry-After past DB_LOCK_TIMEOUT_MS, writing nothing and freeing the key', async () => {
    const busy = await startTestApp({ dbLockTimeoutMs: 100 });
    const session = await otherSession(busy);
    try {
      const account = await busy.account();
      const factory = conversationFactory(busy, account);
      const conversation = await factory.conversation();
      const tag = await factory.tag('held');
      const before = await messageCount(busy, account);
      await session.query('begin');
      await session.query('select 1 from conversations where account_id = $1 and id = $2 for update', [account.accountId, conversation.id]);
      await session.query('select 1 from tags where account_id = $1 and id = $2 for update', [account.accountId, tag.id]);
      const url = `/v2/conversations/${conversation.id}/messages`;
      const body = { sub_type: 'contact', text: 'hello' };
      const refused = await post(account, url, body, 'busy', busy.app);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['retry-after'], '1');
      assert.deepEqual(JSON.parse(refused.body), {
        code: 'service_unavailable',
        message:
          'The database is busy: a row this request changes stayed locked longer than DB_LOCK_TIMEOUT_MS; nothing of this request was written, retry',
      });
      // A single-statement write is bounded too.
      const deleted = await busy.client(account.token).delete(`/v2/tags/${tag.id}`);
      assert.deepEqual([deleted.status, deleted.body.code], [503, 'service_unavailable']);
      await session.query('rollback');
      assert.equal(await messageCount(busy, account), before);
      const retried = await post(account, url, body, 'busy', busy.app);
      assert.equal(retried.status, 200);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      assert.equal(await messageCount(busy, account), before + 1);
    } finally {
      await session.end();
      await busy.close();
    }
  });
});

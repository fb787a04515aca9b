import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestAccount, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { deleteExpiredUploads } from './retention.ts';
import { UPLOAD_TOKEN_TTL_SECONDS } from './service.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

interface Uploaded {
  token: string;
  id: string;
  data: string;
}

/** POST /v2/uploads at the current clock; returns the token and the stored id. */
async function upload(account: TestAccount, fileName: string): Promise<Uploaded> {
  const data = `bytes of ${fileName}`;
  const res = await t.client(account.token).request({
    method: 'POST',
    url: `/v2/uploads?file_name=${encodeURIComponent(fileName)}`,
    payload: data,
    headers: { 'content-type': 'application/pdf' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { rows } = await t.db.query<{ id: string }>('select id from uploads where account_id = $1 and file_name = $2', [
    account.accountId,
    res.body.file_name,
  ]);
  assert.equal(rows.length, 1);
  return { token: res.body.token, id: rows[0]!.id, data };
}

/** A message of a new conversation of `account` attaching `tokens`; returns the reply status. */
async function attach(account: TestAccount, tokens: string[]): Promise<number> {
  const contact = await conversationFactory(t, account).contact();
  const res = await t.client(account.token).post('/v2/conversations', {
    contact_id: contact.id,
    messages: [
      {
        sub_type: 'contact',
        content: { type: 'text', text: 'see attached' },
        attachments: tokens.map((token) => ({ type: 'upload', token })),
      },
    ],
  });
  return res.status;
}

async function download(account: TestAccount, upload: Uploaded): Promise<{ status: number; body: string }> {
  const res = await t.client(account.token).get(`/v2/uploads/${upload.id}/content`);
  return { status: res.status, body: res.raw.body };
}

async function uploadIds(account: TestAccount): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string }>('select id from uploads where account_id = $1 order by id', [account.accountId]);
  return rows.map((row) => row.id);
}

const sorted = (ids: string[]) => [...ids].sort();

describe('upload retention', () => {
  it('deletes expired uploads never attached and keeps attached and fresh ones, in every account', async () => {
    const start = new Date('2026-03-01T10:00:00.000Z');
    t.clock.set(start);
    const a = await t.account();
    const b = await t.account();

    const attached = await upload(a, 'attached.pdf');
    assert.equal(await attach(a, [attached.token]), 200);
    const orphan = await upload(a, 'orphan.pdf');
    // Attached in a rejected message (the second token is unknown): the rollback leaves it unattached.
    const rejected = await upload(a, 'rejected.pdf');
    assert.equal(await attach(a, [rejected.token, 'ut_unknown']), 422);
    // Another account cannot attach (and so keep) it either.
    const othersTry = await upload(a, 'others-try.pdf');
    assert.equal(await attach(b, [othersTry.token]), 422);
    // Attached late, an hour before its token expires.
    const late = await upload(a, 'late.pdf');
    const bAttached = await upload(b, 'b-attached.pdf');
    assert.equal(await attach(b, [bAttached.token]), 200);
    const bOrphan = await upload(b, 'b-orphan.pdf');

    t.clock.advance(UPLOAD_TOKEN_TTL_SECONDS - 3600);
    assert.equal(await attach(a, [late.token]), 200);
    const fresh = await upload(a, 'fresh.pdf');
    assert.equal(await deleteExpiredUploads(t.deps), 0, 'no token has expired yet');

    // The first tokens expire exactly 24 hours after their upload.
    t.clock.set(new Date(start.getTime() + UPLOAD_TOKEN_TTL_SECONDS * 1000));
    assert.equal(await deleteExpiredUploads(t.deps), 4);
    assert.deepEqual(await uploadIds(a), sorted([attached.id, late.id, fresh.id]));
    assert.deepEqual(await uploadIds(b), [bAttached.id]);
    assert.equal(await deleteExpiredUploads(t.deps), 0, 'a second pass finds nothing more');

    // Attached files stay downloadable after their token expired; deleted ones are gone.
    for (const [account, kept] of [
      [a, attached],
      [a, late],
      [a, fresh],
      [b, bAttached],
    ] as const) {
      assert.deepEqual(await download(account, kept), { status: 200, body: kept.data });
    }
    for (const [account, gone] of [
      [a, orphan],
      [a, rejected],
      [a, othersTry],
      [b, bOrphan],
    ] as const) {
      assert.equal((await download(account, gone)).status, 404);
    }
    // The deleted ones' tokens were already unusable; the attached files' messages still point at them.
    const { rows } = await t.db.query<{ attachments: { url: string }[] }>(
      `select attachments from messages where account_id = $1 and attachments <> '[]'::jsonb`,
      [a.accountId],
    );
    assert.deepEqual(
      sorted(rows.map((row) => row.attachments[0]!.url)),
      sorted([attached.id, late.id].map((id) => `/v2/uploads/${id}/content`)),
    );

    // The fresh upload goes once its own token has expired, unless attached by then.
    t.clock.set(new Date(start.getTime() + (2 * UPLOAD_TOKEN_TTL_SECONDS - 3600) * 1000));
    assert.equal(await deleteExpiredUploads(t.deps), 1);
    assert.deepEqual(await uploadIds(a), sorted([attached.id, late.id]));
    assert.equal((await download(a, attached)).status, 200);
  });

  it('an upload the pass deleted can no longer be attached; attaching during a pass never leaves a dangling file', async () => {
    const start = new Date('2026-03-05T10:00:00.000Z');
    t.clock.set(start);
    const a = await t.account();
    const gone = await upload(a, 'gone.pdf');
    t.clock.advance(UPLOAD_TOKEN_TTL_SECONDS);
    assert.equal(await deleteExpiredUploads(t.deps), 1);
    assert.equal(await attach(a, [gone.token]), 422);

    // A message attaching an upload in its last millisecond while a pass (whose clock is a millisecond
    // later) runs: whichever goes first, the message is stored exactly when the file is kept.
    t.clock.set(start);
    const racing = await upload(a, 'racing.pdf');
    const expiry = new Date(start.getTime() + UPLOAD_TOKEN_TTL_SECONDS * 1000);
    t.clock.set(new Date(expiry.getTime() - 1));
    const [status] = await Promise.all([attach(a, [racing.token]), deleteExpiredUploads({ db: t.db, now: () => expiry })]);
    assert.ok(status === 200 || status === 422, `attach answered ${status}`);
    assert.equal((await uploadIds(a)).includes(racing.id), status === 200);
  });

  it('passes of several instances at once delete each upload once', async () => {
    t.clock.set(new Date('2026-03-10T10:00:00.000Z'));
    const a = await t.account();
    for (let i = 0; i < 6; i++) await upload(a, `file-${i}.pdf`);
    t.clock.advance(UPLOAD_TOKEN_TTL_SECONDS);
    const counts = await Promise.all([deleteExpiredUploads(t.deps), deleteExpiredUploads(t.deps), deleteExpiredUploads(t.deps)]);
    assert.equal(
      counts.reduce((sum, n) => sum + n, 0),
      6,
    );
    assert.deepEqual(await uploadIds(a), []);
  });
});

describe('migration 100_upload_attached', () => {
  it('marks as attached the uploads that messages stored before it reference', async () => {
    t.clock.set(new Date('2026-03-20T10:00:00.000Z'));
    const a = await t.account();
    const b = await t.account();
    const attached = await upload(a, 'old-attached.pdf');
    assert.equal(await attach(a, [attached.token]), 200);
    const unattached = await upload(a, 'old-unattached.pdf');
    const bAttached = await upload(b, 'b-old-attached.pdf');
    assert.equal(await attach(b, [bAttached.token]), 200);
    // As before the migration: nothing marked.
    await t.db.query('update uploads set attached = false where account_id = any($1::text[])', [[a.accountId, b.accountId]]);

    const migration = readFileSync(new URL('../db/migrations/100_upload_attached.sql', import.meta.url), 'utf8');
    const backfill = /^update uploads[^;]*;/m.exec(migration);
    assert.ok(backfill, 'the migration has its backfill update');
    await t.db.query(backfill[0]);

    const { rows } = await t.db.query<{ id: string; attached: boolean }>(
      'select id, attached from uploads where account_id = any($1::text[]) order by id',
      [[a.accountId, b.accountId]],
    );
    assert.deepEqual(
      rows,
      [
        { id: attached.id, attached: true },
        { id: unattached.id, attached: false },
        { id: bAttached.id, attached: true },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
  });
});

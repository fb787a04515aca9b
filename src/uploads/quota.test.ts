import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startTestApp, type TestAccount, type TestApp, type Reply } from '../test/harness.ts';

// Quotas small enough to reach with a few bytes (docs/behaviour.md §11).
const PER_DAY = 600;
const TOTAL = 1000;

let t: TestApp;
before(async () => {
  t = await startTestApp({ uploadQuotaBytesPerDay: PER_DAY, uploadQuotaBytes: TOTAL });
});
after(() => t.close());

const DAY_S = 24 * 60 * 60;

function upload(account: TestAccount, bytes: number, fileName = 'a.pdf'): Promise<Reply> {
  return t.client(account.token).request({
    method: 'POST',
    url: `/v2/uploads?file_name=${fileName}`,
    payload: Buffer.alloc(bytes, 7),
    headers: { 'content-type': 'application/pdf' },
  });
}

function uploadMultipart(account: TestAccount, bytes: number): Promise<Reply> {
  const boundary = 'quota-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    Buffer.alloc(bytes, 7),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.client(account.token).request({
    method: 'POST',
    url: '/v2/uploads',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

/** A raw upload whose body is a stream without Content-Length: the server learns the size only as it reads. */
function startStreamedUpload(account: TestAccount): { body: PassThrough; reply: Promise<Reply> } {
  const body = new PassThrough();
  const reply = t.app
    .inject({
      method: 'POST',
      url: '/v2/uploads?file_name=s.pdf',
      payload: body,
      // A stream without Content-Length is sent chunked, as a client would say.
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' },
    })
    .then((raw) => ({ status: raw.statusCode, body: raw.json(), headers: raw.headers, raw }) as Reply);
  return { body, reply };
}

async function stored(account: TestAccount): Promise<{ uploads: number; bytes: number; chunks: number }> {
  const { rows } = await t.db.query<{ uploads: number; bytes: number; chunks: number }>(
    `select (select count(*) from uploads where account_id = $1) as uploads,
            (select coalesce(sum(size), 0) from uploads where account_id = $1) as bytes,
            (select count(*) from upload_chunks where account_id = $1) as chunks`,
    [account.accountId],
  );
  return { uploads: Number(rows[0]!.uploads), bytes: Number(rows[0]!.bytes), chunks: Number(rows[0]!.chunks) };
}

async function waitFor(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never happened: ${what}`);
}

describe('upload quotas', () => {
  it('refuses an upload past the daily quota with 429 and Retry-After, storing nothing; other accounts are unaffected', async () => {
    const start = new Date('2030-01-01T00:00:00.000Z');
    t.clock.set(start);
    try {
      const account = await t.account();
      const other = await t.account();
      assert.equal((await upload(account, 400)).status, 200);
      t.clock.advance(100);
      assert.equal((await upload(account, 150)).status, 200);
      t.clock.advance(100);
      const before = await stored(account);

      const refused = await upload(account, 100);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'upload_quota_exceeded');
      assert.match(refused.body.message, /quota of 600 bytes/);
      // 550 of 600 bytes used: 100 more fit once the first upload (400 bytes, 200 s ago) has left the 24 hours.
      assert.equal(refused.headers['retry-after'], String(DAY_S - 200));
      const multipart = await uploadMultipart(account, 100);
      assert.equal(multipart.status, 429);
      assert.equal(multipart.body.code, 'upload_quota_exceeded');
      // Without Content-Length, refused while reading.
      const streamed = startStreamedUpload(account);
      streamed.body.end(Buffer.alloc(100, 1));
      assert.equal((await streamed.reply).status, 429);
      assert.deepEqual(await stored(account), before, 'nothing stored');

      assert.equal((await upload(account, 50)).status, 200, 'what still fits is taken');
      assert.equal((await upload(other, 600)).status, 200, 'another account has its own quota');

      t.clock.set(new Date(start.getTime() + DAY_S * 1000 + 1000));
      assert.equal((await upload(account, 100)).status, 200, 'the first upload has left the window');
    } finally {
      t.clock.reset();
    }
  });

  it('refuses a file larger than the whole daily quota with 413', async () => {
    const account = await t.account();
    const res = await upload(account, PER_DAY + 1);
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'upload_quota_exceeded');
    assert.equal(res.headers['retry-after'], undefined);
    assert.deepEqual(await stored(account), { uploads: 0, bytes: 0, chunks: 0 });
  });

  it('refuses an upload past the total quota with 413, storing nothing; other accounts are unaffected', async () => {
    const start = new Date('2031-01-01T00:00:00.000Z');
    t.clock.set(start);
    try {
      const account = await t.account();
      const other = await t.account();
      assert.equal((await upload(account, 500)).status, 200);
      t.clock.advance(DAY_S + 1);
      assert.equal((await upload(account, 400)).status, 200);
      t.clock.advance(DAY_S + 1);
      const before = await stored(account);
      assert.equal(before.bytes, 900);

      const refused = await upload(account, 101);
      assert.equal(refused.status, 413);
      assert.equal(refused.body.code, 'upload_quota_exceeded');
      assert.match(refused.body.message, /storage quota of 1000 bytes \(900 bytes stored\)/);
      const streamed = startStreamedUpload(account);
      streamed.body.end(Buffer.alloc(101, 1));
      assert.equal((await streamed.reply).status, 413);
      assert.deepEqual(await stored(account), before, 'nothing stored');

      assert.equal((await upload(account, 100)).status, 200, 'what still fits is taken');
      assert.equal((await upload(other, 500)).status, 200, 'another account has its own quota');
    } finally {
      t.clock.reset();
    }
  });

  it('lets only one of two uploads that fit alone but not together finish', async () => {
    const account = await t.account();
    const first = startStreamedUpload(account);
    const second = startStreamedUpload(account);
    first.body.write(Buffer.alloc(400, 1));
    second.body.write(Buffer.alloc(400, 2));
    // Both have passed every check made before and while reading (nothing is stored yet)...
    await waitFor('both uploads started', async () => {
      const { rows } = await t.db.query<{ n: number }>('select count(*) as n from uploads where account_id = $1 and not complete', [
        account.accountId,
      ]);
      return Number(rows[0]!.n) === 2;
    });
    // ...so only the check made while completing, one account at a time, can refuse one.
    first.body.end();
    second.body.end();
    const statuses = [(await first.reply).status, (await second.reply).status].sort();
    assert.deepEqual(statuses, [200, 429]);
    assert.deepEqual(await stored(account), { uploads: 1, bytes: 400, chunks: 1 });
  });
});

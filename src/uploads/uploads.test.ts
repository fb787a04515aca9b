import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount, type Reply } from '../test/harness.ts';
import { PassThrough } from 'node:stream';
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } from './service.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const BOUNDARY = '----chat-service-test-boundary';

interface Part {
  name: string;
  fileName?: string;
  contentType?: string;
  data: string | Buffer;
}

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : '';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function uploadMultipart(token: string, parts: Part[], query = ''): Promise<Reply> {
  return t.client(token).request({
    method: 'POST',
    url: `/v2/uploads${query}`,
    payload: multipartBody(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

function uploadRaw(token: string, data: string | Buffer, contentType: string | undefined, query: string): Promise<Reply> {
  return t.client(token).request({
    method: 'POST',
    url: `/v2/uploads${query}`,
    payload: data,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
  });
}

async function storedUploads(account: TestAccount): Promise<{ id: string; file_name: string }[]> {
  const { rows } = await t.db.query<{ id: string; file_name: string }>('select id, file_name from uploads where account_id = $1', [
    account.accountId,
  ]);
  return rows;
}

async function uploadIdOf(account: TestAccount, fileName: string): Promise<string> {
  const row = (await storedUploads(account)).find((u) => u.file_name === fileName);
  assert.ok(row, `upload ${fileName} stored`);
  return row.id;
}

function assertInvalid(res: Reply, errors: [string, string, string][]): void {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.code, 'invalid_arguments');
  assert.deepEqual(
    res.body.errors.map((e: { path: string; code: string; location: string }) => [e.path, e.code, e.location]),
    errors,
  );
}

describe('POST /v2/uploads', () => {
  it('stores a multipart file and answers token, name, type and size', async () => {
    const account = await t.account();
    const res = await uploadMultipart(account.token, [
      { name: 'file', fileName: 'notes.txt', contentType: 'text/plain', data: 'hello world' },
    ]);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['file_name', 'file_type', 'size', 'token']);
    assert.match(res.body.token, /^ut_[\w-]{40}$/);
    assert.deepEqual({ ...res.body, token: undefined }, { token: undefined, file_name: 'notes.txt', file_type: 'text/plain', size: 11 });
    const { rows } = await t.db.query<{ token_hash: string; size: number }>('select token_hash, size from uploads where account_id = $1', [
      account.accountId,
    ]);
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, res.body.token, 'only a hash of the token is stored');
  });

  it('stores a raw body with its content type and ?file_name=, JSON included', async () => {
    const account = await t.account();
    const json = await uploadRaw(account.token, '{"not":"parsed"}', 'application/json', '?file_name=data.json');
    assert.equal(json.status, 200);
    assert.equal(json.body.file_type, 'application/json');
    assert.equal(json.body.size, 16);
    const pdf = await uploadRaw(account.token, Buffer.from('%PDF-1.7 fake'), 'application/pdf', '?file_name=report.pdf');
    assert.deepEqual(
      { ...pdf.body, token: undefined },
      { token: undefined, file_name: 'report.pdf', file_type: 'application/pdf', size: 13 },
    );
    const download = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'data.json')}/content`);
    assert.equal(download.raw.body, '{"not":"parsed"}');
  });

  it('lets ?file_name= override the multipart file name and keeps only the last path segment', async () => {
    const account = await t.account();
    const overridden = await uploadMultipart(account.token, [{ name: 'file', fileName: 'a.txt', data: 'x' }], '?file_name=b.txt');
    assert.equal(overridden.body.file_name, 'b.txt');
    const windows = await uploadMultipart(account.token, [{ name: 'file', fileName: 'C:\\Users\\me\\scan.pdf', data: 'x' }]);
    assert.equal(windows.body.file_name, 'scan.pdf');
    const unix = await uploadRaw(account.token, 'x', 'text/plain', `?file_name=${encodeURIComponent('../../etc/passwd.txt')}`);
    assert.equal(unix.body.file_name, 'passwd.txt');
  });

  it('falls back to application/octet-stream for a missing or malformed content type', async () => {
    const account = await t.account();
    const malformed = await uploadMultipart(account.token, [{ name: 'file', fileName: 'a.bin', contentType: 'not a type', data: 'x' }]);
    assert.equal(malformed.status, 200);
    assert.equal(malformed.body.file_type, 'application/octet-stream');
    const missing = await uploadRaw(account.token, 'x', undefined, '?file_name=b.bin');
    assert.equal(missing.status, 200);
    assert.equal(missing.body.file_type, 'application/octet-stream');
    // RFC 7578 would read a part without Content-Type as text/plain; an unknown file is not text.
    const untyped = await uploadMultipart(account.token, [{ name: 'file', fileName: 'c.txt', data: 'x' }]);
    assert.equal(untyped.status, 200);
    assert.equal(untyped.body.file_type, 'application/octet-stream');
    const download = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'c.txt')}/content`);
    assert.equal(download.headers['content-type'], 'application/octet-stream');
    const withCharset = await uploadRaw(account.token, 'x', 'text/plain; charset=utf-8', '?file_name=a.txt');
    assert.equal(withCharset.body.file_type, 'text/plain; charset=utf-8');
  });

  it('stores a raw body with a malformed or multi-valued Content-Type as application/octet-stream, never 415', async () => {
    const account = await t.account();
    for (const contentType of ['application/pdf, text/html', '', 'a/b/c', 'text/plain; charset', 'multipart/form-data, text/html']) {
      const res = await uploadRaw(account.token, 'x', contentType, '?file_name=a.pdf');
      assert.equal(res.status, 200, `${contentType}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.file_type, 'application/octet-stream', contentType);
    }
    const download = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'a.pdf')}/content`);
    assert.equal(download.headers['content-type'], 'application/octet-stream');
    assert.equal(download.raw.body, 'x');
  });

  it('keeps a multipart part Content-Type as sent, parameters included', async () => {
    const account = await t.account();
    const plain = await uploadMultipart(account.token, [{ name: 'file', fileName: 'a.txt', contentType: 'text/plain', data: 'x' }]);
    assert.equal(plain.body.file_type, 'text/plain');
    const withCharset = await uploadMultipart(account.token, [
      { name: 'file', fileName: 'b.txt', contentType: 'text/plain; charset=iso-8859-1', data: 'x' },
    ]);
    assert.equal(withCharset.body.file_type, 'text/plain; charset=iso-8859-1');
    const quotedBoundary = await t.client(account.token).request({
      method: 'POST',
      url: '/v2/uploads',
      payload: multipartBody([{ name: 'file', fileName: 'c.pdf', contentType: 'application/pdf', data: 'x' }]),
      headers: { 'content-type': `multipart/form-data; boundary="${BOUNDARY}"` },
    });
    assert.equal(quotedBoundary.body.file_type, 'application/pdf');
  });

  it('accepts exactly 20 MiB and refuses one byte more with 413, storing nothing', async () => {
    const account = await t.account();
    const limit = await uploadRaw(account.token, Buffer.alloc(MAX_UPLOAD_BYTES, 1), 'application/octet-stream', '?file_name=limit.bin');
    assert.equal(limit.status, 200);
    assert.equal(limit.body.size, MAX_UPLOAD_BYTES);
    const raw = await uploadRaw(account.token, Buffer.alloc(MAX_UPLOAD_BYTES + 1), 'application/octet-stream', '?file_name=big.bin');
    assert.equal(raw.status, 413);
    assert.deepEqual(raw.body, { code: 'payload_too_large', message: 'The file is larger than the 20 MiB upload limit' });
    const multipart = await uploadMultipart(account.token, [
      { name: 'file', fileName: 'big.bin', data: Buffer.alloc(MAX_UPLOAD_BYTES + 1) },
    ]);
    assert.equal(multipart.status, 413);
    assert.equal(multipart.body.code, 'payload_too_large');
    assert.deepEqual(
      (await storedUploads(account)).map((u) => u.file_name),
      ['limit.bin'],
    );
  });

  // Memory not proportional to the file (issue 18.13): the bytes reach storage while the body is still arriving.
  for (const kind of ['raw', 'multipart'] as const) {
    it(`streams a ${kind} body to storage as it arrives, in chunks, before the body has ended`, async () => {
      const account = await t.account();
      const body = new PassThrough();
      const file = Buffer.alloc(5 * UPLOAD_CHUNK_BYTES + 123);
      for (let i = 0; i < file.length; i++) file[i] = (i * 7) % 251;
      const reply = t.app.inject({
        method: 'POST',
        url: '/v2/uploads?file_name=big.bin',
        payload: body,
        headers: {
          authorization: `Bearer ${account.token}`,
          'transfer-encoding': 'chunked',
          'content-type': kind === 'raw' ? 'application/octet-stream' : `multipart/form-data; boundary=${BOUNDARY}`,
        },
      });
      const [head, tail] =
        kind === 'raw'
          ? [Buffer.alloc(0), Buffer.alloc(0)]
          : multipartBody([{ name: 'file', fileName: 'x', data: '|' }])
              .toString()
              .split('|')
              .map((p) => Buffer.from(p));
      assert.ok(tail);
      body.write(head);
      body.write(file.subarray(0, 3 * UPLOAD_CHUNK_BYTES));
      const chunks = async () =>
        Number(
          (await t.db.query<{ n: number }>('select count(*) as n from upload_chunks where account_id = $1', [account.accountId])).rows[0]!
            .n,
        );
      for (let i = 0; (await chunks()) < 2; i++) {
        assert.ok(i < 400, 'chunks are stored before the body ends');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      body.end(Buffer.concat([file.subarray(3 * UPLOAD_CHUNK_BYTES), tail]));
      const res = await reply;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().size, file.length);
      const { rows } = await t.db.query<{ seq: number; bytes: number }>(
        'select seq, length(data) as bytes from upload_chunks where account_id = $1 order by seq',
        [account.accountId],
      );
      assert.deepEqual(
        rows.map((r) => Number(r.bytes)),
        [...Array(5).fill(UPLOAD_CHUNK_BYTES), 123],
      );
      const download = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'big.bin')}/content`);
      assert.equal(download.headers['content-length'], String(file.length));
      assert.ok(download.raw.rawPayload.equals(file), 'the same bytes come back');
    });
  }

  it('refuses an empty file with 422', async () => {
    const account = await t.account();
    assertInvalid(await uploadRaw(account.token, '', 'text/plain', '?file_name=empty.txt'), [['file', 'minLength', 'body']]);
    assertInvalid(await uploadMultipart(account.token, [{ name: 'file', fileName: 'empty.txt', data: '' }]), [
      ['file', 'minLength', 'body'],
    ]);
    assert.deepEqual(await storedUploads(account), []);
  });

  it('needs a file part named file and refuses other parts', async () => {
    const account = await t.account();
    assertInvalid(await uploadMultipart(account.token, []), [['file', 'required', 'body']]);
    assertInvalid(await uploadMultipart(account.token, [{ name: 'attachment', fileName: 'a.txt', data: 'x' }]), [
      ['attachment', 'additionalProperties', 'body'],
    ]);
    assertInvalid(await uploadMultipart(account.token, [{ name: 'file', data: 'not a file' }]), [['file', 'type', 'body']]);
    assertInvalid(
      await uploadMultipart(account.token, [
        { name: 'file', fileName: 'a.txt', data: 'x' },
        { name: 'file', fileName: 'b.txt', data: 'y' },
      ]),
      [['file', 'maxItems', 'body']],
    );
    assertInvalid(
      await uploadMultipart(account.token, [
        { name: 'file', fileName: 'a.txt', data: 'x' },
        { name: 'comment', data: 'hi' },
      ]),
      [['comment', 'additionalProperties', 'body']],
    );
    assert.deepEqual(await storedUploads(account), []);
  });

  it('needs a file name', async () => {
    const account = await t.account();
    assertInvalid(await uploadRaw(account.token, 'x', 'text/plain', ''), [['file_name', 'required', 'query']]);
    assertInvalid(await uploadRaw(account.token, 'x', 'text/plain', '?file_name='), [['file_name', 'minLength', 'query']]);
    assertInvalid(await uploadRaw(account.token, 'x', 'text/plain', '?file_name=%2F'), [['file_name', 'minLength', 'query']]);
    assertInvalid(await uploadMultipart(account.token, [{ name: 'file', fileName: '', data: 'x' }]), [['file_name', 'required', 'query']]);
    assertInvalid(await uploadRaw(account.token, 'x', 'text/plain', '?file_name=a.txt&other=1'), [
      ['other', 'additionalProperties', 'query'],
    ]);
    assert.deepEqual(await storedUploads(account), []);
  });

  it('reads the file before checking the query string, as a JSON body is parsed before it is validated', async () => {
    const account = await t.account();
    // The file is refused first; a good file with a bad query string is read, then refused and discarded.
    assertInvalid(await uploadRaw(account.token, '', 'text/plain', '?file_name=a.txt&other=1'), [['file', 'minLength', 'body']]);
    assertInvalid(await uploadRaw(account.token, 'x', 'text/plain', '?file_name=a.txt&other=1'), [
      ['other', 'additionalProperties', 'query'],
    ]);
    assert.deepEqual(await storedUploads(account), []);
  });

  it('answers a malformed multipart body with 400', async () => {
    const account = await t.account();
    for (const contentType of [`multipart/form-data; boundary=${BOUNDARY}`, 'multipart/form-data']) {
      const res = await uploadRaw(account.token, 'garbage', contentType, '');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'bad_request');
    }
    const truncated = await uploadRaw(
      account.token,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc`,
      `multipart/form-data; boundary=${BOUNDARY}`,
      '',
    );
    assert.equal(truncated.status, 400);
    assert.deepEqual(await storedUploads(account), []);
  });

  it('needs conversations:create, checked before the body', async () => {
    const account = await t.account();
    const readOnly = await t.token(account, ['conversations:read', 'conversations:write']);
    const forbidden = await uploadRaw(readOnly, 'x', 'text/plain', '?file_name=a.txt');
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { code: 'forbidden', message: 'Missing scope conversations:create' });
    const creator = await t.token(account, ['conversations:create']);
    assert.equal((await uploadRaw(creator, 'x', 'text/plain', '?file_name=a.txt')).status, 200);
    const anonymous = await t
      .client()
      .request({ method: 'POST', url: '/v2/uploads', payload: 'x', headers: { 'content-type': 'multipart/form-data' } });
    assert.equal(anonymous.status, 401);
  });

  it('leaves the rest of the API on JSON only', async () => {
    const account = await t.account();
    const res = await t.client(account.token).request({
      method: 'POST',
      url: '/v2/contacts',
      payload: multipartBody([{ name: 'file', fileName: 'a.txt', data: 'x' }]),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.code, 'unsupported_media_type');
  });
});

describe('GET /v2/uploads/{id}/content', () => {
  it('returns the bytes with their type, an attachment disposition and nosniff', async () => {
    const account = await t.account();
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    await uploadMultipart(account.token, [{ name: 'file', fileName: 'report.pdf', contentType: 'application/pdf', data: bytes }]);
    const res = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'report.pdf')}/content`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.raw.rawPayload, bytes);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
    assert.equal(res.headers['content-length'], '7');
  });

  // [stored type, served type, disposition]
  const servedTypes: [string, string, 'inline' | 'attachment'][] = [
    ['image/png', 'image/png', 'inline'],
    ['image/jpeg', 'image/jpeg', 'inline'],
    ['IMAGE/GIF', 'IMAGE/GIF', 'inline'],
    ['image/webp', 'image/webp', 'inline'],
    ['image/bmp', 'image/bmp', 'attachment'],
    ['image/svg+xml', 'application/octet-stream', 'attachment'],
    ['text/html', 'application/octet-stream', 'attachment'],
    ['Text/HTML; charset=utf-8', 'application/octet-stream', 'attachment'],
    ['application/xhtml+xml', 'application/octet-stream', 'attachment'],
    ['text/xml', 'application/octet-stream', 'attachment'],
    ['application/xml', 'application/octet-stream', 'attachment'],
    ['text/javascript', 'application/octet-stream', 'attachment'],
    ['application/javascript', 'application/octet-stream', 'attachment'],
    ['text/css', 'application/octet-stream', 'attachment'],
    ['multipart/x-mixed-replace; boundary=x', 'application/octet-stream', 'attachment'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8', 'attachment'],
    ['text/csv', 'text/csv', 'attachment'],
    ['application/json', 'application/json', 'attachment'],
    ['video/mp4', 'video/mp4', 'attachment'],
  ];
  for (const [stored, served, disposition] of servedTypes) {
    it(`serves a ${stored} upload as ${served}, ${disposition}, nosniff`, async () => {
      const account = await t.account();
      const active = '"<script>alert(1)</script>"'; // also JSON, which the test client parses
      await uploadRaw(account.token, active, stored, '?file_name=f.bin');
      const res = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'f.bin')}/content`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], served);
      assert.equal(res.headers['content-disposition'], `${disposition}; filename="f.bin"; filename*=UTF-8''f.bin`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.raw.body, active);
    });
  }

  it('names non-ASCII files with an ASCII fallback and the exact UTF-8 name', async () => {
    const account = await t.account();
    const name = 'Überweisung "März".pdf';
    await uploadRaw(account.token, 'x', 'application/pdf', `?file_name=${encodeURIComponent(name)}`);
    const res = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, name)}/content`);
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="_berweisung _M_rz_.pdf"; filename*=UTF-8''%C3%9Cberweisung%20%22M%C3%A4rz%22.pdf`,
    );
  });

  it('never lets a file name break the header, disguise its extension or name a path', async () => {
    const account = await t.account();
    const name = 'a";b%41\u202Efdp.exe';
    await uploadRaw(account.token, 'x', 'application/pdf', `?file_name=${encodeURIComponent(name)}`);
    const res = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, name)}/content`);
    assert.equal(res.headers['content-disposition'], `attachment; filename="a_;b_41_fdp.exe"; filename*=UTF-8''a%22%3Bb%2541_fdp.exe`);
    // A name stored before names were cleaned on upload.
    const legacy = await uploadRaw(account.token, 'x', 'application/pdf', '?file_name=legacy.pdf');
    assert.equal(legacy.status, 200);
    const id = await uploadIdOf(account, 'legacy.pdf');
    await t.db.query(`update uploads set file_name = $3 where account_id = $1 and id = $2`, [
      account.accountId,
      id,
      '../x\\y\r\nSet-Cookie: a=b.pdf',
    ]);
    const stored = await t.client(account.token).get(`/v2/uploads/${id}/content`);
    assert.equal(stored.status, 200);
    assert.equal(
      stored.headers['content-disposition'],
      `attachment; filename=".._x_y__Set-Cookie: a=b.pdf"; filename*=UTF-8''.._x_y__Set-Cookie%3A%20a%3Db.pdf`,
    );
    assert.equal(stored.headers['set-cookie'], undefined);
  });

  it('serves a file stored before uploads were chunked (its bytes in uploads.data)', async () => {
    const account = await t.account();
    await t.db.query(
      `insert into uploads (account_id, id, token_hash, file_name, file_type, size, data, created_at, expires_at)
       values ($1, 'upLEGACY000000', 'legacy-hash', 'old.pdf', 'application/pdf', 3, $2, now(), now())`,
      [account.accountId, Buffer.from('old')],
    );
    const res = await t.client(account.token).get('/v2/uploads/upLEGACY000000/content');
    assert.equal(res.status, 200);
    assert.equal(res.raw.body, 'old');
    assert.equal(res.headers['content-length'], '3');
  });

  it("answers 404 for unknown ids and for another account's upload", async () => {
    const owner = await t.account();
    await uploadRaw(owner.token, 'secret', 'text/plain', '?file_name=secret.txt');
    const id = await uploadIdOf(owner, 'secret.txt');
    const other = await t.account();
    const res = await t.client(other.token).get(`/v2/uploads/${id}/content`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { code: 'not_found', message: `Upload ${id} not found` });
    assert.equal((await t.client(owner.token).get('/v2/uploads/upUNKNOWN00000/content')).status, 404);
  });

  it('stays downloadable after the token expires', async () => {
    const account = await t.account();
    await uploadRaw(account.token, 'kept', 'text/plain', '?file_name=kept.txt');
    t.clock.set(new Date(Date.now() + 30 * 24 * 3600 * 1000));
    try {
      const res = await t.client(account.token).get(`/v2/uploads/${await uploadIdOf(account, 'kept.txt')}/content`);
      assert.equal(res.status, 200);
      assert.equal(res.raw.body, 'kept');
    } finally {
      t.clock.reset();
    }
  });

  it('needs conversations:read', async () => {
    const account = await t.account();
    await uploadRaw(account.token, 'x', 'text/plain', '?file_name=a.txt');
    const id = await uploadIdOf(account, 'a.txt');
    const creator = await t.token(account, ['conversations:create']);
    assert.equal((await t.client(creator).get(`/v2/uploads/${id}/content`)).status, 403);
    assert.equal((await t.client().get(`/v2/uploads/${id}/content`)).status, 401);
    const reader = await t.token(account, ['conversations:read']);
    assert.equal((await t.client(reader).get(`/v2/uploads/${id}/content`)).status, 200);
  });
});

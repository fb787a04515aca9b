import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAccount } from '../test/harness.ts';
import { ApiError } from '../http/errors.ts';
import { resolveAttachments, type AttachmentInput } from './attachments.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const PATH = 'messages[0].attachments';

function resolve(account: TestAccount, attachments: AttachmentInput[]) {
  return resolveAttachments(t.db, account.accountId, attachments, t.clock.now(), PATH);
}

/** Resolves and expects a 422 with `code`; returns its errors as [path, code]. */
async function rejection(account: TestAccount, attachments: AttachmentInput[], code: string): Promise<[string, string][]> {
  try {
    await resolve(account, attachments);
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 422);
    assert.equal(error.code, code, error.message);
    for (const item of error.errors ?? []) assert.ok(item.message.startsWith(item.path), item.message);
    return (error.errors ?? []).map((e) => [e.path, e.code]);
  }
  assert.fail('expected a rejection');
}

async function upload(account: TestAccount, fileName: string, data = 'content', contentType = 'application/octet-stream'): Promise<string> {
  const res = await t.client(account.token).request({
    method: 'POST',
    url: `/v2/uploads?file_name=${encodeURIComponent(fileName)}`,
    payload: data,
    headers: { 'content-type': contentType },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token;
}

describe('resolveAttachments: image and file', () => {
  it('stores url, file name (from the URL when missing) and file type', async () => {
    const account = await t.account();
    assert.deepEqual(
      await resolve(account, [
        { type: 'image', url: 'https://cdn.example/a/Photo%20One.JPG?size=2' },
        { type: 'file', url: 'http://files.example/download?id=3', file_name: 'report.pdf', file_type: 'application/pdf' },
      ]),
      [
        { type: 'image', url: 'https://cdn.example/a/Photo%20One.JPG?size=2', file_name: 'Photo One.JPG', file_type: null },
        { type: 'file', url: 'http://files.example/download?id=3', file_name: 'report.pdf', file_type: 'application/pdf' },
      ],
    );
  });

  it('needs an http(s) url', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'image' },
          { type: 'file', url: 'ftp://files.example/a.pdf' },
          { type: 'image', url: 'javascript:alert(1)//a.png' },
          { type: 'file', url: 'https://' },
          { type: 'image', url: 'https://cdn.example/a b.png' },
          { type: 'file', url: '/relative/a.pdf' },
        ],
        'invalid_arguments',
      ),
      [
        [`${PATH}[0].url`, 'required'],
        [`${PATH}[1].url`, 'format'],
        [`${PATH}[2].url`, 'format'],
        [`${PATH}[3].url`, 'format'],
        [`${PATH}[4].url`, 'format'],
        [`${PATH}[5].url`, 'format'],
      ],
    );
  });

  it('allows only jpg, jpeg, png, gif and webp images', async () => {
    const account = await t.account();
    for (const ext of ['jpg', 'jpeg', 'png', 'gif', 'webp', 'PNG']) {
      assert.equal((await resolve(account, [{ type: 'image', url: `https://cdn.example/x.${ext}` }])).length, 1);
    }
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'image', url: 'https://cdn.example/x.svg' },
          { type: 'image', url: 'https://cdn.example/x.png', file_name: 'x.bmp' },
          { type: 'image', url: 'https://cdn.example/photo' },
          { type: 'image', url: 'https://cdn.example/' },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${PATH}[0].url`, 'extension'],
        [`${PATH}[1].file_name`, 'extension'],
        [`${PATH}[2].url`, 'extension'],
        [`${PATH}[3].url`, 'extension'],
      ],
    );
    // A given file name is what counts, not the URL (which may be a download script).
    assert.equal((await resolve(account, [{ type: 'image', url: 'https://cdn.example/get.php?id=1', file_name: 'x.gif' }])).length, 1);
  });

  it('allows documents, archives, images, audio and video files but never executables, HTML or SVG', async () => {
    const account = await t.account();
    for (const name of ['a.pdf', 'a.docx', 'a.xlsx', 'a.csv', 'a.txt', 'a.zip', 'a.tar.gz', 'a.7z', 'a.png', 'a.mp3', 'a.wav', 'a.mp4', 'a.mov']) {
      assert.equal((await resolve(account, [{ type: 'file', url: `https://files.example/${name}` }]))[0].file_name, name);
    }
    const refused = ['a.exe', 'a.msi', 'a.bat', 'a.sh', 'a.js', 'a.html', 'a.htm', 'a.svg', 'a.xhtml', 'a.jar', 'a.apk', 'a.pdf.exe', 'README'];
    assert.deepEqual(
      await rejection(
        account,
        refused.map((name) => ({ type: 'file', url: 'https://files.example/get', file_name: name })),
        'invalid_attachment_data',
      ),
      refused.map((_, i) => [`${PATH}[${i}].file_name`, 'extension']),
    );
  });
});

describe('resolveAttachments: upload', () => {
  it('stores the upload with the download url, name, type and size', async () => {
    const account = await t.account();
    const token = await upload(account, 'scan.pdf', '%PDF fake', 'application/pdf');
    const [stored] = await resolve(account, [{ type: 'upload', token }]);
    assert.deepEqual({ ...stored, url: undefined }, { type: 'upload', url: undefined, file_name: 'scan.pdf', file_type: 'application/pdf', size: 9 });
    assert.match(stored.url as string, /^\/v2\/uploads\/up[\w-]{12}\/content$/);
    const download = await t.client(account.token).get(stored.url as string);
    assert.equal(download.status, 200);
    assert.equal(download.raw.body, '%PDF fake');
  });

  it('needs a token', async () => {
    const account = await t.account();
    assert.deepEqual(await rejection(account, [{ type: 'upload' }], 'invalid_arguments'), [[`${PATH}[0].token`, 'required']]);
  });

  it("refuses unknown tokens and another account's", async () => {
    const account = await t.account();
    const other = await t.account();
    const othersToken = await upload(other, 'theirs.pdf');
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'upload', token: 'ut_unknown' },
          { type: 'upload', token: othersToken },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${PATH}[0].token`, 'token'],
        [`${PATH}[1].token`, 'token'],
      ],
    );
  });

  it('accepts a token for 24 hours', async () => {
    const account = await t.account();
    t.clock.set('2026-03-01T12:00:00.000Z');
    try {
      const token = await upload(account, 'a.pdf');
      t.clock.set('2026-03-02T11:59:59.999Z');
      assert.equal((await resolve(account, [{ type: 'upload', token }])).length, 1);
      t.clock.set('2026-03-02T12:00:00.000Z');
      assert.deepEqual(await rejection(account, [{ type: 'upload', token }], 'invalid_attachment_data'), [[`${PATH}[0].token`, 'token']]);
    } finally {
      t.clock.reset();
    }
  });

  it('checks the uploaded file name against the file allowlist', async () => {
    const account = await t.account();
    const exe = await upload(account, 'setup.exe');
    const svg = await upload(account, 'logo.svg', '<svg/>', 'image/svg+xml');
    const png = await upload(account, 'logo.png', 'png', 'image/png');
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'upload', token: png },
          { type: 'upload', token: exe },
          { type: 'upload', token: svg },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${PATH}[1].token`, 'extension'],
        [`${PATH}[2].token`, 'extension'],
      ],
    );
  });
});

describe('resolveAttachments: template and shape', () => {
  const items = [{ title: 'Shoe', price: '$10', actions: [{ type: 'open_url', title: 'Buy', value: 'https://shop.example/shoe' }] }];

  it('stores a carousel as given', async () => {
    const account = await t.account();
    assert.deepEqual(await resolve(account, [{ type: 'template', layout: 'carousel', items }]), [{ type: 'template', layout: 'carousel', items }]);
  });

  it('needs layout and items', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejection(account, [{ type: 'template' }, { type: 'template', layout: 'carousel' }, { type: 'template', items }], 'invalid_arguments'),
      [
        [`${PATH}[0].layout`, 'required'],
        [`${PATH}[0].items`, 'required'],
        [`${PATH}[1].items`, 'required'],
        [`${PATH}[2].layout`, 'required'],
      ],
    );
  });

  it('refuses properties that do not belong to the type', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'image', url: 'https://cdn.example/a.png', token: 'x' },
          { type: 'upload', token: 'x', url: 'https://cdn.example/a.png', file_name: 'a.png' },
          { type: 'template', layout: 'carousel', items, file_type: 'text/plain' },
          { type: 'file', url: 'https://files.example/a.pdf', items },
        ],
        'invalid_arguments',
      ),
      [
        [`${PATH}[0].token`, 'additionalProperties'],
        [`${PATH}[1].url`, 'additionalProperties'],
        [`${PATH}[1].file_name`, 'additionalProperties'],
        [`${PATH}[2].file_type`, 'additionalProperties'],
        [`${PATH}[3].items`, 'additionalProperties'],
      ],
    );
  });

  it('reports shape problems before looking at tokens and extensions', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejection(
        account,
        [
          { type: 'upload', token: 'ut_unknown' },
          { type: 'image', url: 'https://cdn.example/a.exe' },
          { type: 'file' },
        ],
        'invalid_arguments',
      ),
      [[`${PATH}[2].url`, 'required']],
    );
  });

  it('returns nothing for no attachments', async () => {
    assert.deepEqual(await resolve(await t.account(), []), []);
  });
});

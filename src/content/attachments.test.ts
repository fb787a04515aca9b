import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type Reply, type TestApp, type TestAccount } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const AT = 'messages[0].attachments';

/** POST /v2/conversations importing one contact message with these attachments. */
async function importWith(account: TestAccount, attachments: Json[]): Promise<Reply> {
  const contact = await conversationFactory(t, account).contact();
  return t.client(account.token).post('/v2/conversations', {
    contact_id: contact.id,
    messages: [{ sub_type: 'contact', content: { type: 'text', text: 'see attached' }, attachments }],
  });
}

/** The attachments as stored and read back through GET /v2/conversations/{id}. */
async function accepted(account: TestAccount, attachments: Json[]): Promise<Json[]> {
  const res = await importWith(account, attachments);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const conversation = await conversationFactory(t, account).get(res.body.id);
  return conversation.messages[0].attachments;
}

async function conversationIds(account: TestAccount): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string }>('select id from conversations where account_id = $1 order by id', [account.accountId]);
  return rows.map((row) => row.id);
}

/** Expects a 422 with `code` that stored nothing; returns its errors as [path, code]. */
async function rejected(account: TestAccount, attachments: Json[], code: string): Promise<[string, string][]> {
  const conversationsBefore = await conversationIds(account);
  const res = await importWith(account, attachments);
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.code, code, res.body.message);
  assert.deepEqual(await conversationIds(account), conversationsBefore, 'a rejected create stores nothing');
  return res.body.errors.map((e: { path: string; code: string; message: string; location: string }) => {
    assert.ok(e.message.startsWith(e.path), e.message);
    assert.equal(e.location, 'body');
    return [e.path, e.code];
  });
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

describe('image and file attachments', () => {
  it('store url, file name (from the URL when missing) and file type', async () => {
    const account = await t.account();
    assert.deepEqual(
      await accepted(account, [
        { type: 'image', url: 'https://cdn.example/a/Photo%20One.JPG?size=2' },
        { type: 'file', url: 'http://files.example/download?id=3', file_name: 'report.pdf', file_type: 'application/pdf' },
      ]),
      [
        { type: 'image', url: 'https://cdn.example/a/Photo%20One.JPG?size=2', file_name: 'Photo One.JPG', file_type: null },
        { type: 'file', url: 'http://files.example/download?id=3', file_name: 'report.pdf', file_type: 'application/pdf' },
      ],
    );
  });

  it('need an http(s) url', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'image' },
          { type: 'file', url: 'ftp://files.example/a.pdf' },
          { type: 'image', url: 'javascript:alert(1)//a.png' },
          { type: 'file', url: 'https://' },
          { type: 'image', url: 'https://cdn.example/a b.png' },
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].url`, 'required'],
        [`${AT}[1].url`, 'format'],
        [`${AT}[2].url`, 'format'],
        [`${AT}[3].url`, 'format'],
        [`${AT}[4].url`, 'format'],
      ],
    );
    assert.deepEqual(await rejected(account, [{ type: 'file', url: '/relative/a.pdf' }], 'invalid_arguments'), [
      [`${AT}[0].url`, 'format'],
    ]);
  });

  it('allow only jpg, jpeg, png, gif and webp images', async () => {
    const account = await t.account();
    const allowed = ['jpg', 'jpeg', 'png', 'gif', 'webp'].map((ext) => ({
      type: 'image',
      url: `https://cdn.example/x.${ext.toUpperCase()}`,
    }));
    assert.equal((await accepted(account, allowed)).length, 5);
    assert.deepEqual(
      await rejected(
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
        [`${AT}[0].url`, 'extension'],
        [`${AT}[1].file_name`, 'extension'],
        [`${AT}[2].url`, 'extension'],
        [`${AT}[3].url`, 'extension'],
      ],
    );
    // A given file name is what counts, not the URL (which may be a download script).
    assert.equal((await accepted(account, [{ type: 'image', url: 'https://cdn.example/get.php?id=1', file_name: 'x.gif' }])).length, 1);
  });

  it('allow documents, archives, images, audio and video files but never executables, HTML or SVG', async () => {
    const account = await t.account();
    const names = ['a.pdf', 'a.docx', 'a.xlsx', 'a.csv', 'a.zip', 'a.tar.gz', 'a.png', 'a.mp3', 'a.wav', 'a.mp4', 'a.mov'];
    for (let i = 0; i < names.length; i += 5) {
      const batch = names.slice(i, i + 5);
      const stored = await accepted(
        account,
        batch.map((name) => ({ type: 'file', url: `https://files.example/${name}` })),
      );
      assert.deepEqual(
        stored.map((a) => a.file_name),
        batch,
      );
    }
    const refused = ['a.exe', 'a.msi', 'a.bat', 'a.sh', 'a.js', 'a.html', 'a.htm', 'a.svg', 'a.xhtml', 'a.jar', 'a.pdf.exe', 'README'];
    for (let i = 0; i < refused.length; i += 5) {
      const batch = refused.slice(i, i + 5);
      assert.deepEqual(
        await rejected(
          account,
          batch.map((name) => ({ type: 'file', url: 'https://files.example/get', file_name: name })),
          'invalid_attachment_data',
        ),
        batch.map((_, j) => [`${AT}[${j}].file_name`, 'extension']),
      );
    }
  });
});

describe("an external link's own path and file type", () => {
  it('refuse a link whose path has an extension not allowed for the type, whatever file_name says', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'file', url: 'https://x.com/a.exe', file_name: 'a.pdf' },
          { type: 'file', url: 'https://x.com/a.pdf.exe?x=.pdf', file_name: 'a.pdf' },
          { type: 'image', url: 'https://x.com/logo.svg', file_name: 'logo.png' },
          { type: 'file', url: 'https://x.com/page.html#a.pdf', file_name: 'a.pdf' },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${AT}[0].url`, 'extension'],
        [`${AT}[1].url`, 'extension'],
        [`${AT}[2].url`, 'extension'],
        [`${AT}[3].url`, 'extension'],
      ],
    );
    // Paths without an extension, with an allowed one, or a server page answering the download.
    const stored = await accepted(account, [
      { type: 'file', url: 'https://x.com/download?id=3', file_name: 'a.pdf' },
      { type: 'file', url: 'https://x.com/files/b.zip', file_name: 'a.pdf' },
      { type: 'file', url: 'https://x.com/get.php?id=3', file_name: 'a.pdf' },
      { type: 'image', url: 'https://x.com/img.aspx?id=1', file_name: 'a.png' },
    ]);
    assert.equal(stored.length, 4);
  });

  it('refuse a file_type a browser would render or run, or that is no MIME type; an image needs an image type', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'file', url: 'https://x.com/a.pdf', file_type: 'text/html' },
          { type: 'file', url: 'https://x.com/a.pdf', file_type: 'image/svg+xml' },
          { type: 'file', url: 'https://x.com/a.pdf', file_type: 'application/pdf, text/html' },
          { type: 'image', url: 'https://x.com/a.png', file_type: 'application/pdf' },
          { type: 'file', url: 'https://x.com/a.pdf', file_type: 'text/javascript' },
        ],
        'invalid_attachment_data',
      ),
      [0, 1, 2, 3, 4].map((i) => [`${AT}[${i}].file_type`, 'file_type']),
    );
    const stored = await accepted(account, [
      { type: 'file', url: 'https://x.com/a.pdf', file_type: 'application/pdf' },
      { type: 'file', url: 'https://x.com/a.txt', file_type: 'text/plain; charset=utf-8' },
      { type: 'image', url: 'https://x.com/a.png', file_type: 'image/png' },
      { type: 'file', url: 'https://x.com/a.zip', file_type: 'application/octet-stream' },
    ]);
    assert.deepEqual(
      stored.map((a) => a.file_type),
      ['application/pdf', 'text/plain; charset=utf-8', 'image/png', 'application/octet-stream'],
    );
  });
});

describe('upload attachments', () => {
  it('store the download url, name, type and size of the upload', async () => {
    const account = await t.account();
    const token = await upload(account, 'scan.pdf', '%PDF fake', 'application/pdf');
    const [stored] = await accepted(account, [{ type: 'upload', token }]);
    assert.ok(stored);
    assert.deepEqual(
      { ...stored, url: undefined },
      { type: 'upload', url: undefined, file_name: 'scan.pdf', file_type: 'application/pdf', size: 9 },
    );
    assert.match(stored.url, /^\/v2\/uploads\/up[\w-]{12}\/content$/);
    const download = await t.client(account.token).get(stored.url);
    assert.equal(download.status, 200);
    assert.equal(download.raw.body, '%PDF fake');
  });

  it('are accepted on a message added later too, and a token can be used again', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const token = await upload(account, 'photo.jpg', 'jpeg', 'image/jpeg');
    const conversation = await f.conversation({ text: 'hi' });
    const first = await f.contactSays(conversation.id, 'photo', { attachments: [{ type: 'upload', token }] });
    const second = await f.contactSays(conversation.id, 'again', { attachments: [{ type: 'upload', token }] });
    assert.equal(first.attachments[0].file_name, 'photo.jpg');
    assert.deepEqual(second.attachments, first.attachments);
    const bad = await t.client(account.token).post(`/v2/conversations/${conversation.id}/messages`, {
      sub_type: 'contact',
      text: 'x',
      attachments: [{ type: 'upload', token: 'ut_unknown' }],
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.code, 'invalid_attachment_data');
    assert.deepEqual(
      bad.body.errors.map((e: { path: string }) => e.path),
      ['attachments[0].token'],
    );
    assert.equal((await f.get(conversation.id)).messages.length, 3);
  });

  it('need a token', async () => {
    const account = await t.account();
    assert.deepEqual(await rejected(account, [{ type: 'upload' }], 'invalid_arguments'), [[`${AT}[0].token`, 'required']]);
  });

  it("refuse unknown tokens and another account's", async () => {
    const account = await t.account();
    const othersToken = await upload(await t.account(), 'theirs.pdf');
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'upload', token: 'ut_unknown' },
          { type: 'upload', token: othersToken },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${AT}[0].token`, 'token'],
        [`${AT}[1].token`, 'token'],
      ],
    );
  });

  it('accept a token for 24 hours', async () => {
    const account = await t.account();
    t.clock.set('2026-03-01T12:00:00.000Z');
    try {
      const token = await upload(account, 'a.pdf');
      t.clock.set('2026-03-02T11:59:59.999Z');
      assert.equal((await accepted(account, [{ type: 'upload', token }])).length, 1);
      t.clock.set('2026-03-02T12:00:00.000Z');
      assert.deepEqual(await rejected(account, [{ type: 'upload', token }], 'invalid_attachment_data'), [[`${AT}[0].token`, 'token']]);
    } finally {
      t.clock.reset();
    }
  });

  it('check the uploaded file name against the file allowlist', async () => {
    const account = await t.account();
    const png = await upload(account, 'logo.png', 'png', 'image/png');
    const exe = await upload(account, 'setup.exe');
    const svg = await upload(account, 'logo.svg', '<svg/>', 'image/svg+xml');
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'upload', token: png },
          { type: 'upload', token: exe },
          { type: 'upload', token: svg },
        ],
        'invalid_attachment_data',
      ),
      [
        [`${AT}[1].token`, 'extension'],
        [`${AT}[2].token`, 'extension'],
      ],
    );
  });
});

describe('template attachments', () => {
  const item = (fields: Json = {}) => ({
    title: 'Shoe',
    price: '$10',
    actions: [{ type: 'open_url', title: 'Buy', value: 'https://shop.example/shoe' }],
    ...fields,
  });

  it('store a carousel as given', async () => {
    const account = await t.account();
    const items = [item({ description: 'Red', image: 'https://shop.example/shoe.png' }), item({ title: 'Hat' })];
    assert.deepEqual(await accepted(account, [{ type: 'template', layout: 'carousel', items }]), [
      { type: 'template', layout: 'carousel', items },
    ]);
  });

  it('need layout carousel and 1 to 10 items', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [{ type: 'template' }, { type: 'template', layout: 'carousel' }, { type: 'template', items: [item()] }],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].layout`, 'required'],
        [`${AT}[0].items`, 'required'],
        [`${AT}[1].items`, 'required'],
        [`${AT}[2].layout`, 'required'],
      ],
    );
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'template', layout: 'grid', items: [item()] },
          { type: 'template', layout: 'carousel', items: [] },
          { type: 'template', layout: 'carousel', items: Array.from({ length: 11 }, () => item()) },
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].layout`, 'enum'],
        [`${AT}[1].items`, 'minItems'],
        [`${AT}[2].items`, 'maxItems'],
      ],
    );
    assert.equal(
      (await accepted(account, [{ type: 'template', layout: 'carousel', items: Array.from({ length: 10 }, () => item()) }]))[0]!.items
        .length,
      10,
    );
  });

  it('bound the carousel items and need exactly one open_url action with an http(s) value', async () => {
    const account = await t.account();
    const action = { type: 'open_url', title: 'Go', value: 'https://shop.example/' };
    assert.deepEqual(
      await rejected(
        account,
        [
          {
            type: 'template',
            layout: 'carousel',
            items: [
              item({ title: 'x'.repeat(101), description: 'x'.repeat(1025), price: 'x'.repeat(33) }),
              item({ actions: [] }),
              item({ actions: [action, action] }),
              item({ actions: [{ ...action, type: 'call' }] }),
              item({ actions: [{ ...action, value: 'javascript:alert(1)' }] }),
              item({ actions: [{ type: 'open_url', value: 'https://shop.example/' }], colour: 'red' }),
              { actions: [action] },
            ],
          },
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].items[0].title`, 'maxLength'],
        [`${AT}[0].items[0].description`, 'maxLength'],
        [`${AT}[0].items[0].price`, 'maxLength'],
        [`${AT}[0].items[1].actions`, 'minItems'],
        [`${AT}[0].items[2].actions`, 'maxItems'],
        [`${AT}[0].items[3].actions[0].type`, 'enum'],
        [`${AT}[0].items[4].actions[0].value`, 'pattern'],
        [`${AT}[0].items[5].colour`, 'additionalProperties'],
        [`${AT}[0].items[5].actions[0].title`, 'required'],
        [`${AT}[0].items[6].title`, 'required'],
      ],
    );
    const limits = item({ title: 'x'.repeat(100), description: 'x'.repeat(1024), price: 'x'.repeat(32) });
    assert.equal((await accepted(account, [{ type: 'template', layout: 'carousel', items: [limits] }]))[0]!.items[0].price.length, 32);
  });
});

describe('URLs in a carousel', () => {
  const card = (image: string | undefined, value: string) => ({
    title: 'Shoe',
    ...(image === undefined ? {} : { image }),
    actions: [{ type: 'open_url', title: 'Buy', value }],
  });
  const carousel = (...items: Json[]) => ({ type: 'template', layout: 'carousel', items });
  const ok = 'https://shop.example/shoe';

  it('refuse a card image or an action value that is not http(s) (javascript:, data:, relative)', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [
          carousel(
            card('javascript:alert(1)', ok),
            card('data:image/png;base64,AAAA', ok),
            card('/shoe.png', ok),
            card(undefined, 'JavaScript:alert(1)'),
          ),
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].items[0].image`, 'pattern'],
        [`${AT}[0].items[1].image`, 'pattern'],
        [`${AT}[0].items[2].image`, 'pattern'],
        [`${AT}[0].items[3].actions[0].value`, 'pattern'],
      ],
    );
  });

  it('refuse a card image or an action value without a host, each where it is', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [carousel(card(ok, ok)), carousel(card('https://', ok), card(ok, 'http://a b'), card('HTTPS://', 'https://:443/'))],
        'invalid_arguments',
      ),
      [
        [`${AT}[1].items[0].image`, 'format'],
        [`${AT}[1].items[1].actions[0].value`, 'format'],
        [`${AT}[1].items[2].image`, 'format'],
        [`${AT}[1].items[2].actions[0].value`, 'format'],
      ],
    );
  });

  it('accept http and https in any case', async () => {
    const account = await t.account();
    const items = [card('HTTP://cdn.example/a.png', 'Https://shop.example/a'), card(undefined, 'http://shop.example/b')];
    assert.deepEqual((await accepted(account, [carousel(...items)]))[0]!.items, items);
  });
});

describe('attachment shape', () => {
  it('refuses unknown types, unknown properties and properties that do not belong to the type', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'video', url: 'https://cdn.example/a.mp4' },
          { type: 'image', url: 'https://cdn.example/a.png', alt: 'x' },
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].type`, 'enum'],
        [`${AT}[1].alt`, 'additionalProperties'],
      ],
    );
    assert.deepEqual(
      await rejected(
        account,
        [
          { type: 'image', url: 'https://cdn.example/a.png', token: 'x' },
          { type: 'upload', token: 'x', url: 'https://cdn.example/a.png', file_name: 'a.png' },
          {
            type: 'template',
            layout: 'carousel',
            items: [{ title: 't', actions: [{ type: 'open_url', title: 'b', value: 'https://x.example' }] }],
            file_type: 'text/plain',
          },
          { type: 'file', url: 'https://files.example/a.pdf', layout: 'carousel' },
        ],
        'invalid_arguments',
      ),
      [
        [`${AT}[0].token`, 'additionalProperties'],
        [`${AT}[1].url`, 'additionalProperties'],
        [`${AT}[1].file_name`, 'additionalProperties'],
        [`${AT}[2].file_type`, 'additionalProperties'],
        [`${AT}[3].layout`, 'additionalProperties'],
      ],
    );
  });

  it('allows at most 5 attachments per message', async () => {
    const account = await t.account();
    const image = { type: 'image', url: 'https://cdn.example/a.png' };
    assert.deepEqual(
      await rejected(
        account,
        Array.from({ length: 6 }, () => image),
        'invalid_arguments',
      ),
      [[AT, 'maxItems']],
    );
    assert.equal(
      (
        await accepted(
          account,
          Array.from({ length: 5 }, () => image),
        )
      ).length,
      5,
    );
  });

  it('reports shape problems before looking at tokens and extensions', async () => {
    const account = await t.account();
    assert.deepEqual(
      await rejected(
        account,
        [{ type: 'upload', token: 'ut_unknown' }, { type: 'image', url: 'https://cdn.example/a.exe' }, { type: 'file' }],
        'invalid_arguments',
      ),
      [[`${AT}[2].url`, 'required']],
    );
  });
});

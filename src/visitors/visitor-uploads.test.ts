/**
 * A visitor's files (docs/widget.md "Files"): POST /widget/v1/uploads under the rules of POST /v2/uploads, files
 * attached to a visitor's messages by their tokens, and GET /widget/v1/uploads/{id}/content for the files of the
 * visitor's own conversations only.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { widgetSite, type WidgetSite } from '../test/widget-sites.ts';
import { startTestApp, type Reply, type TestAccount, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import { MAX_UPLOAD_BYTES } from '../uploads/service.ts';

// Quotas small enough to reach with a few bytes (docs/behaviour.md §11).
const PER_DAY = 3000;
const TOTAL = 4000;

let t: TestApp;
before(async () => {
  t = await startTestApp({ uploadQuotaBytesPerDay: PER_DAY, uploadQuotaBytes: TOTAL });
});
after(() => t.close());

const site = () => widgetSite(t, 'files');

interface Visitor {
  site: WidgetSite;
  token: string;
  /** A JSON request of this visitor from its site's origin. */
  call(method: string, url: string, body?: unknown): Promise<Reply>;
  /** A raw upload, as the widget sends it. */
  upload(fileName: string, data: string | Buffer, contentType?: string): Promise<Reply>;
}

async function visitor(s: WidgetSite): Promise<Visitor> {
  const res = await t.client().request({
    method: 'POST',
    url: '/widget/v1/session',
    payload: JSON.stringify({ widget_key: s.widgetKey }),
    headers: { origin: s.origin, 'content-type': 'application/json' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const token = res.body.token as string;
  return {
    site: s,
    token,
    call: (method, url, body) =>
      t.client(token).request({
        method,
        url,
        payload: body === undefined ? undefined : JSON.stringify(body),
        headers: { origin: s.origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      }),
    upload: (fileName, data, contentType = 'application/pdf') =>
      t.client(token).request({
        method: 'POST',
        url: `/widget/v1/uploads?file_name=${encodeURIComponent(fileName)}`,
        payload: data,
        headers: { origin: s.origin, 'content-type': contentType },
      }),
  };
}

async function uploadsOf(account: TestAccount): Promise<{ id: string; file_name: string; attached: boolean }[]> {
  const { rows } = await t.db.query<{ id: string; file_name: string; attached: boolean }>(
    'select id, file_name, attached from uploads where account_id = $1 order by file_name',
    [account.accountId],
  );
  return rows;
}

/** A visitor with a conversation, and a file it sent in it: the message as the visitor got it. */
async function sentFile(v: Visitor, fileName = 'invoice.pdf', data = '%PDF-1.4 an invoice') {
  const conversation = (await v.call('POST', '/widget/v1/conversations', { text: 'Hello' })).body;
  const uploaded = await v.upload(fileName, data);
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  const sent = await v.call('POST', `/widget/v1/conversations/${conversation.id}/messages`, {
    text: 'Here it is',
    attachments: [{ type: 'upload', token: uploaded.body.token }],
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return { conversation, message: sent.body, url: sent.body.attachments[0].url as string };
}

describe('POST /widget/v1/uploads', () => {
  it('stores a file as POST /v2/uploads does, and the visitor attaches it to its message by its token', async () => {
    const s = await site();
    const v = await visitor(s);
    const conversation = (await v.call('POST', '/widget/v1/conversations', { text: 'Hello' })).body;
    const uploaded = await v.upload('C:\\Users\\me\\invoice.pdf', '%PDF-1.4 an invoice');
    assert.equal(uploaded.status, 200);
    assert.equal(uploaded.headers['access-control-allow-origin'], s.origin);
    assert.match(uploaded.body.token, /^ut_/);
    assert.deepEqual(
      { ...uploaded.body, token: 'ut_' },
      { token: 'ut_', file_name: 'invoice.pdf', file_type: 'application/pdf', size: 19 },
    );
    const sent = await v.call('POST', `/widget/v1/conversations/${conversation.id}/messages`, {
      attachments: [{ type: 'upload', token: uploaded.body.token }],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [upload] = await uploadsOf(s.account);
    assert.ok(upload);
    assert.equal(sent.body.text, null);
    assert.deepEqual(sent.body.attachments, [
      { type: 'upload', url: `/widget/v1/uploads/${upload.id}/content`, file_name: 'invoice.pdf', file_type: 'application/pdf', size: 19 },
    ]);
    // The agents get it as any attachment, at its /v2 address.
    const seen = await t.client(s.account.token).get(`/v2/conversations/${conversation.id}/messages`);
    assert.deepEqual(
      seen.body.items.map((m: Json) => [m.sub_type, m.attachments.map((a: Json) => a.url)]),
      [
        ['contact', [`/v2/uploads/${upload.id}/content`]],
        ['contact', []],
      ],
    );
    const download = await t.client(s.account.token).get(`/v2/uploads/${upload.id}/content`);
    assert.equal(download.raw.rawPayload.toString(), '%PDF-1.4 an invoice');
    assert.equal(upload.attached, true);
  });

  it('takes a multipart body too', async () => {
    const v = await visitor(await site());
    const boundary = 'visitor-boundary';
    const res = await t.client(v.token).request({
      method: 'POST',
      url: '/widget/v1/uploads',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\nPNG bytes\r\n--${boundary}--\r\n`,
      headers: { origin: v.site.origin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.file_name, res.body.file_type, res.body.size], ['photo.png', 'image/png', 9]);
  });

  it('refuses a file over 20 MiB with 413, readable by the page, storing nothing', async () => {
    const s = await site();
    const v = await visitor(s);
    const res = await v.upload('big.pdf', Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1));
    assert.deepEqual([res.status, res.body.code], [413, 'payload_too_large']);
    assert.equal(res.headers['access-control-allow-origin'], s.origin);
    assert.deepEqual(await uploadsOf(s.account), []);
  });

  it('refuses, before storing a byte, a file no attachment may carry: executables, HTML, SVG, no extension', async () => {
    const s = await site();
    const v = await visitor(s);
    for (const name of ['setup.exe', 'page.html', 'logo.svg', 'script.js', 'README']) {
      const res = await v.upload(name, 'MZ...', 'application/octet-stream');
      assert.deepEqual([res.status, res.body.code], [422, 'invalid_attachment_data'], name);
      assert.deepEqual(
        res.body.errors.map((e: Json) => [e.path, e.code, e.location]),
        [['file_name', 'extension', 'query']],
        name,
      );
    }
    assert.deepEqual(await uploadsOf(s.account), []);
  });

  it("counts against the account's quotas, as POST /v2/uploads does", async () => {
    const s = await site();
    const v = await visitor(s);
    assert.equal((await v.upload('a.pdf', Buffer.alloc(2500, 1))).status, 200);
    const overDay = await v.upload('b.pdf', Buffer.alloc(1000, 1));
    assert.deepEqual([overDay.status, overDay.body.code], [429, 'upload_quota_exceeded']);
    assert.match(String(overDay.headers['retry-after']), /^\d+$/);
    const overAll = await v.upload('c.pdf', Buffer.alloc(PER_DAY + 1, 1));
    assert.deepEqual([overAll.status, overAll.body.code], [413, 'upload_quota_exceeded']);
    // The agents' uploads share the same quota.
    const agents = await t.client(s.account.token).request({
      method: 'POST',
      url: '/v2/uploads?file_name=d.pdf',
      payload: Buffer.alloc(1000, 1),
      headers: { 'content-type': 'application/pdf' },
    });
    assert.deepEqual([agents.status, agents.body.code], [429, 'upload_quota_exceeded']);
    assert.deepEqual(
      (await uploadsOf(s.account)).map((u) => u.file_name),
      ['a.pdf'],
    );
  });

  it('is 401 without a visitor token, an API token included', async () => {
    const s = await site();
    for (const token of [undefined, s.account.token]) {
      const res = await t.client(token).request({
        method: 'POST',
        url: '/widget/v1/uploads?file_name=a.pdf',
        payload: 'data',
        headers: { origin: s.origin, 'content-type': 'application/pdf' },
      });
      assert.deepEqual([res.status, res.body.code], [401, 'unauthorized']);
    }
    assert.deepEqual(await uploadsOf(s.account), []);
  });

  it("refuses another account's upload token in a message, storing nothing", async () => {
    const s = await site();
    const v = await visitor(s);
    const elsewhere = await visitor(await site());
    const conversation = (await v.call('POST', '/widget/v1/conversations', { text: 'Hello' })).body;
    const foreign = await elsewhere.upload('theirs.pdf', 'not yours');
    const sent = await v.call('POST', `/widget/v1/conversations/${conversation.id}/messages`, {
      text: 'Look',
      attachments: [{ type: 'upload', token: foreign.body.token }],
    });
    assert.deepEqual([sent.status, sent.body.code], [422, 'invalid_attachment_data']);
    assert.deepEqual(
      sent.body.errors.map((e: Json) => [e.path, e.code]),
      [['attachments[0].token', 'token']],
    );
    const other = await v.call('POST', `/widget/v1/conversations/${conversation.id}/messages`, {
      attachments: [{ type: 'file', url: 'https://example.com/a.pdf' }],
    });
    assert.equal(other.status, 422);
    const messages = await v.call('GET', `/widget/v1/conversations/${conversation.id}/messages`);
    assert.equal(messages.body.total, 1);
  });
});

describe('GET /widget/v1/uploads/{id}/content', () => {
  it("serves a file of the visitor's conversation, the visitor's own or an agent's, as the /v2 download does", async () => {
    const s = await site();
    const v = await visitor(s);
    const { conversation, url } = await sentFile(v);
    const own = await v.call('GET', url);
    assert.equal(own.status, 200);
    assert.equal(own.raw.rawPayload.toString(), '%PDF-1.4 an invoice');
    const v2 = await t.client(s.account.token).get(url.replace('/widget/v1/', '/v2/'));
    for (const header of ['content-type', 'content-disposition', 'x-content-type-options', 'content-security-policy', 'cache-control']) {
      assert.equal(own.headers[header], v2.headers[header], header);
    }
    assert.equal(own.headers['content-disposition'], `attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`);
    assert.equal(own.headers['access-control-allow-origin'], s.origin);

    // An agent's file, of a type a browser would render: served so it cannot run.
    const f = conversationFactory(t, s.account);
    const agent = await f.agent();
    const uploaded = await t.client(s.account.token).request({
      method: 'POST',
      url: '/v2/uploads?file_name=notes.txt',
      payload: '<script>alert(1)</script>',
      headers: { 'content-type': 'text/html' },
    });
    assert.equal(uploaded.status, 200);
    await f.message(conversation.id, {
      sub_type: 'agent',
      agent_id: agent.id,
      text: 'Our notes',
      attachments: [{ type: 'upload', token: uploaded.body.token }],
    });
    const page = await v.call('GET', `/widget/v1/conversations/${conversation.id}/messages?size=1`);
    const [attachment] = page.body.items[0].attachments;
    assert.match(attachment.url, /^\/widget\/v1\/uploads\/up[\w-]+\/content$/);
    const theirs = await v.call('GET', attachment.url);
    assert.equal(theirs.status, 200);
    assert.equal(theirs.headers['content-type'], 'application/octet-stream');
    assert.match(String(theirs.headers['content-disposition']), /^attachment; filename="notes.txt"/);
    assert.equal(theirs.headers['x-content-type-options'], 'nosniff');
    assert.equal(theirs.headers['content-security-policy'], "default-src 'none'; sandbox");
  });

  it("is 404 for another visitor's file, another account's, one attached to no message and one only in an internal note", async () => {
    const s = await site();
    const v = await visitor(s);
    const { conversation, url } = await sentFile(v);
    const neighbour = await visitor(s);
    const elsewhere = await visitor(await site());
    for (const intruder of [neighbour, elsewhere]) {
      const res = await intruder.call('GET', url);
      assert.deepEqual([res.status, res.body.code], [404, 'not_found']);
    }
    // Uploaded, never attached: nobody's message carries it.
    assert.equal((await v.upload('draft.pdf', 'draft')).status, 200);
    // Attached in an internal note of the visitor's own conversation.
    const f = conversationFactory(t, s.account);
    const agent = await f.agent();
    const internal = await t.client(s.account.token).request({
      method: 'POST',
      url: '/v2/uploads?file_name=internal.pdf',
      payload: 'internal',
      headers: { 'content-type': 'application/pdf' },
    });
    await f.message(conversation.id, {
      sub_type: 'agent',
      agent_id: agent.id,
      type: 'note',
      attachments: [{ type: 'upload', token: internal.body.token }],
    });
    const ids = Object.fromEntries((await uploadsOf(s.account)).map((u) => [u.file_name, u.id]));
    for (const name of ['draft.pdf', 'internal.pdf']) {
      const res = await v.call('GET', `/widget/v1/uploads/${ids[name]}/content`);
      assert.deepEqual([res.status, res.body.code], [404, 'not_found'], name);
    }
    const unknown = await v.call('GET', '/widget/v1/uploads/upNothingHere1/content');
    assert.equal(unknown.status, 404);
  });

  it('is 401 without a visitor token, an API token included', async () => {
    const s = await site();
    const v = await visitor(s);
    const { url } = await sentFile(v);
    for (const token of [undefined, s.account.token]) {
      const res = await t.client(token).request({ method: 'GET', url, headers: { origin: s.origin } });
      assert.deepEqual([res.status, res.body.code], [401, 'unauthorized']);
    }
  });
});

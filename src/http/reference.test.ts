/**
 * The interactive API reference (/docs, Scalar): its files over HTTP (compression,
 * cache headers), then the page in a real Chromium against the server listening on
 * a port: the product title, the operations, and no request to any other host.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { launchBrowser, listen, screenshot, skipWithoutBrowser } from '../test/browser.ts';

let t: TestApp;
let browser: Browser | undefined;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await browser?.close();
  await t.close();
});

describe('the reference page over HTTP', () => {
  it('sends its 4.3 MB script compressed (brotli or gzip), cached a day', async () => {
    const plain = await t.app.inject({ url: '/docs/js/scalar.js' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.length > 4_000_000, `${plain.rawPayload.length} bytes`);
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [encoding, decode] of Object.entries(decoders)) {
      const res = await t.app.inject({ url: '/docs/js/scalar.js', headers: { 'accept-encoding': encoding } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], encoding);
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      assert.match(String(res.headers['content-type']), /^application\/javascript/);
      assert.ok(res.rawPayload.length < plain.rawPayload.length / 3, `${encoding}: ${res.rawPayload.length} bytes`);
      assert.ok(decode(res.rawPayload).equals(plain.rawPayload), encoding);
    }
  });

  it('serves the page with the product title, revalidated on each visit', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const html = res.body;
    assert.match(html, /<title>Chat Service API<\/title>/);
    assert.doesNotMatch(html, /fonts\.scalar\.com|cdn\.jsdelivr\.net/);
  });

  it('leaves the API itself uncompressed and without those cache headers', async () => {
    const res = await t.app.inject({ url: '/v2/openapi.json', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers['cache-control'], undefined);
    assert.equal(res.json().info.title, 'Chat Service API');
  });
});

describe('the reference page in Chromium', { skip: skipWithoutBrowser }, () => {
  it('shows the product title and every operation, loading nothing from another host', async () => {
    const base = await listen(t);
    browser = await launchBrowser();
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${base}/docs/`);
    await page.getByRole('heading', { name: 'Chat Service API', level: 1 }).waitFor();
    assert.equal(await page.title(), 'Chat Service API');

    // Every operation of the document is on the page (by its summary).
    const doc = (await t.client().get('/v2/openapi.json')).body as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    await page.getByText('Compute statistics').first().waitFor({ state: 'attached' });
    const text = await page.evaluate(() => document.body.textContent ?? '');
    assert.deepEqual(
      summaries.filter((summary) => !text.includes(summary)),
      [],
    );

    // Nothing that sends the document or the visitor to a hosted service.
    const controls = await page.$$eval('button, a', (elements) => elements.map((element) => (element.textContent ?? '').trim()));
    assert.deepEqual(
      controls.filter((label) => /ask ai|agent scalar|mcp|deploy|share|open api client|generate sdk/i.test(label)),
      [],
    );

    assert.ok(
      requests.some((url) => url.endsWith('/v2/openapi.json')),
      'the page loads the document',
    );
    assert.deepEqual(
      requests.filter((url) => new URL(url).origin !== base),
      [],
    );
    // The first screen: the reference is tens of thousands of pixels long.
    await screenshot(page, 'reference', false);
  });
});

/**
 * The real browser of the browser tests: Debian's Chromium, driven by playwright-core,
 * headless and quiet (no background requests of its own, so tests can assert on every
 * request a page makes).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { engine, type TestApp } from './harness.ts';
import { browserTestsDecision, CHROMIUM } from '../../scripts/browser-tests.mjs';

/** Where the browser tests leave their screenshots (git-ignored), for a person to look at. */
const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-output');

const decision = browserTestsDecision();
/**
 * The `skip` option of every describe() that needs Chromium: false where the browser tests run, else why not
 * (Chromium missing and not required; scripts/browser-tests.mjs). `npm test` prints that once for the run.
 */
export const skipWithoutBrowser: false | string = decision.run ? false : decision.reason;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh Chromium (playwright gives it a temporary user-data-dir of its own); close it when done. */
export async function launchBrowser(): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM),
    `Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run does; required because CI or BROWSER_TESTS=required is set)`,
  );
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Starts the test app listening on a free local port, as a browser (or any HTTP client) needs it: its base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

/** Saves the page as test-output/<name>-<engine>.png: all of it, or (fullPage false) what the window shows. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${engine}.png`), fullPage });
}

/** Opens the agent inbox at `base`, signs in with `token` as the agent `agentId`, and waits until its stream is live. */
export async function signInToInbox(page: Page, base: string, token: string, agentId: string): Promise<void> {
  await page.goto(`${base}/inbox`);
  await page.fill('#token', token);
  await page.press('#token', 'Enter');
  await page.selectOption('#agent', agentId);
  await page.click('#agent-form button');
  await page.locator('#connection', { hasText: 'Live' }).waitFor();
}

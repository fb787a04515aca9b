/**
 * Whether the browser tests run: skipped on a machine without Chromium, so that a newcomer's `npm test`
 * passes, but required in CI, where a missing Chromium must fail them (scripts/browser-tests.mjs).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserTestsDecision, skippedLine, usesBrowser } from '../../scripts/browser-tests.mjs';

describe('the browser tests decision', () => {
  it('runs them where Chromium is installed, in CI or not', () => {
    assert.deepEqual(browserTestsDecision({ chromiumInstalled: true, env: {} }), { run: true });
    assert.deepEqual(browserTestsDecision({ chromiumInstalled: true, env: { CI: 'true' } }), { run: true });
  });

  it('skips them without Chromium outside CI, saying how to install it', () => {
    for (const env of [{}, { CI: '' }, { CI: 'false' }, { CI: '0' }, { BROWSER_TESTS: 'auto' }]) {
      const decision = browserTestsDecision({ chromiumInstalled: false, env });
      assert.equal(decision.run, false, JSON.stringify(env));
      assert.match(decision.run ? '' : decision.reason, /Chromium is not installed at .*; to run them: sudo apt-get install -y chromium$/);
    }
  });

  it('requires them without Chromium in CI or with BROWSER_TESTS=required, so that they fail there', () => {
    for (const env of [{ CI: 'true' }, { CI: '1' }, { BROWSER_TESTS: 'required' }]) {
      assert.deepEqual(browserTestsDecision({ chromiumInstalled: false, env }), { run: true }, JSON.stringify(env));
    }
  });

  it('prints one line naming the skipped files', () => {
    assert.equal(
      skippedLine(['src/a.test.ts', 'src/b.test.ts'], { reason: 'Chromium is not installed' }),
      'Skipping the browser tests (src/a.test.ts, src/b.test.ts): Chromium is not installed',
    );
    assert.equal(usesBrowser("import { launchBrowser } from '../test/browser.ts';"), true);
    assert.equal(usesBrowser("import { listen } from '../test/browser.ts';"), false);
  });
});

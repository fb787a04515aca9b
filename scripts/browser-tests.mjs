// Whether the browser tests run (docs/DEVELOPING.md "Tests"): they drive Debian's Chromium, which a
// newcomer's machine may not have. Where it is missing they are skipped, unless they are required:
// in CI (`CI` set) or with BROWSER_TESTS=required, a missing Chromium fails them as any broken
// dependency would. scripts/test.mjs and src/test/browser.ts both ask this one function.
import { existsSync } from 'node:fs';

/** Debian's Chromium, or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const INSTALL_CHROMIUM = 'sudo apt-get install -y chromium';

/** True for a set variable, as CI systems set it ("true", "1", anything but "", "0" and "false"). */
const isSet = (value) => value !== undefined && !['', '0', 'false'].includes(value.toLowerCase());

/**
 * @param {{ chromiumInstalled?: boolean, env?: Record<string, string | undefined> }} [options]
 * @returns {{ run: true } | { run: false, reason: string }}
 */
export function browserTestsDecision({ chromiumInstalled = existsSync(CHROMIUM), env = process.env } = {}) {
  if (chromiumInstalled) return { run: true };
  if (isSet(env.CI) || env.BROWSER_TESTS === 'required') return { run: true };
  return { run: false, reason: `Chromium is not installed at ${CHROMIUM}; to run them: ${INSTALL_CHROMIUM}` };
}

/** The test files that drive the browser: they import launchBrowser (src/test/browser.ts). */
export const usesBrowser = (source) => /\blaunchBrowser\b/.test(source);

/** The one line `npm test` prints when it skips the browser tests, naming them and how to run them. */
export function skippedLine(files, decision) {
  return `Skipping the browser tests (${files.join(', ')}): ${decision.reason}`;
}

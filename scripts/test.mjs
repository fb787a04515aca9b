#!/usr/bin/env node
// `npm test`: build dist/ (the tests spawn the real CLI, which runs it), typecheck,
// lint (eslint, and prettier's check of the formatting), then the whole suite on PGlite and, when TEST_DATABASE_URL is set, once
// more on real PostgreSQL.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { browserTestsDecision, skippedLine, usesBrowser } from './browser-tests.mjs';

function run(command, args, env = {}) {
  console.log(
    `\n$ ${[command, ...args].join(' ')}${
      Object.keys(env).length
        ? ` (${Object.entries(env)
            .map(([k, v]) => `${k}=${k.includes('URL') ? '…' : v}`)
            .join(' ')})`
        : ''
    }`,
  );
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const only = process.argv.slice(2);
// The server's tests, and the clients' (clients/typescript runs its generated client against the server).
const files = only.length > 0 ? only : [...testFiles('src'), ...testFiles('clients')].sort();
// Without Chromium (and not in CI) the browser tests skip themselves (src/test/browser.ts); say so once.
const browserTests = browserTestsDecision();
const browserFiles = files.filter((file) => usesBrowser(readFileSync(file, 'utf8')));
if (!browserTests.run && browserFiles.length > 0) console.log(skippedLine(browserFiles, browserTests));
run(process.execPath, ['scripts/build.mjs']);
if (only.length === 0) {
  run('npx', ['tsc', '--noEmit']);
  run('npx', ['eslint', '.']);
  run('npx', ['prettier', '--check', '.']);
}
// The spec reporter for each test, then the time per file (src/test/file-times.mjs).
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=./src/test/file-times.mjs',
  '--test-reporter-destination=stdout',
];
const nodeArgs = ['--import', 'tsx', '--test', '--test-concurrency=2', ...reporters, ...files];
run(process.execPath, nodeArgs, { TEST_ENGINE: 'pglite' });
if (process.env.TEST_DATABASE_URL) run(process.execPath, nodeArgs, { TEST_ENGINE: 'postgres' });

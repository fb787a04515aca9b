#!/usr/bin/env node
// `npm test`: build dist/ (the tests spawn the real CLI, which runs it), typecheck,
// lint (eslint, and prettier's check of the formatting), then the whole suite on PGlite and, when TEST_DATABASE_URL is set, once
// more on real PostgreSQL.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { browserTestsDecision, skippedLine, usesBrowser } from './browser-tests.mjs';
import { suiteTestFiles } from './test-files.mjs';

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

const only = process.argv.slice(2);
const files = only.length > 0 ? only : suiteTestFiles();
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

/**
 * The responses each test process validated against the OpenAPI document, per operation
 * (src/test/contract.ts writes one file per process): printed after a run; a run of the whole
 * suite fails when an operation got none.
 */
const CONTRACT_DIR = path.join('test-output', 'contract');
function clearContractCounts(engine) {
  if (!existsSync(CONTRACT_DIR)) return;
  for (const name of readdirSync(CONTRACT_DIR)) if (name.startsWith(`${engine}-`)) rmSync(path.join(CONTRACT_DIR, name));
}
function reportContractCounts(engine) {
  const records = existsSync(CONTRACT_DIR)
    ? readdirSync(CONTRACT_DIR)
        .filter((name) => name.startsWith(`${engine}-`))
        .map((name) => JSON.parse(readFileSync(path.join(CONTRACT_DIR, name), 'utf8')))
    : [];
  const operations = [...new Set(records.flatMap((record) => record.operations))].sort();
  const counts = Object.fromEntries(operations.map((operation) => [operation, 0]));
  for (const record of records)
    for (const [operation, n] of Object.entries(record.counts)) counts[operation] = (counts[operation] ?? 0) + n;
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  console.log(`\nResponses validated against /v2/openapi.json on ${engine}, per operation (${total} in all):`);
  for (const operation of operations) console.log(`  ${String(counts[operation]).padStart(6)}  ${operation}`);
  const never = operations.filter((operation) => counts[operation] === 0);
  if (only.length === 0 && (operations.length === 0 || never.length > 0)) {
    console.error(
      `The suite never exercised ${never.length > 0 ? never.join(', ') : 'any operation'} on ${engine}: add a test that calls it.`,
    );
    process.exit(1);
  }
}

for (const engine of process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']) {
  clearContractCounts(engine);
  run(process.execPath, nodeArgs, { TEST_ENGINE: engine });
  reportContractCounts(engine);
}

/**
 * The suite (or any command) with every exchange shown to Stoplight Prism, a validating proxy nobody
 * here wrote (issue 20; `npm run test:prism`, docs/api.md "OpenAPI document"): writes the document the
 * service serves, starts Prism in proxy mode on it, upstream of a router that sends each request to the
 * test process's mirror named by its `x-test-upstream` header, and runs the command with TEST_PRISM_URL
 * set (src/test/prism.ts). Prism comes from the npm registry through npx, pinned, so that `npm ci` stays
 * small for everyone else. Prints how many exchanges Prism saw, per operation, and every violation it
 * reported; exits non-zero when the command fails or Prism reported any.
 *
 *   npm run test:prism                                   # every test file, on PGlite (and PostgreSQL with TEST_DATABASE_URL)
 *   node --import tsx scripts/with-prism.ts node scripts/test.mjs src/conversations/conversations.test.ts
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startTestApp } from '../src/test/harness.ts';
import { freePort } from '../src/test/pgbouncer.ts';
import { itemAt } from '../src/arrays.ts';
import { suiteTestFiles } from './test-files.mjs';

const PRISM = '@stoplight/prism-cli@5.16.0';
const outputDir = path.resolve('test-output', 'prism');
rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });

const given = process.argv.slice(2);
const command = given.length > 0 ? given : [process.execPath, 'scripts/test.mjs', ...suiteTestFiles()];

// The document as the service serves it.
const documentApp = await startTestApp();
const documentPath = path.join(outputDir, 'openapi.json');
writeFileSync(documentPath, JSON.stringify((await documentApp.client().get('/v2/openapi.json')).body));
await documentApp.close();

// Prism has one upstream; the router behind it picks the test app.
const router = http.createServer((request, response) => {
  const port = Number(request.headers['x-test-upstream']);
  const headers = { ...request.headers };
  delete headers['x-test-upstream'];
  const upstream = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(response);
  });
  upstream.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(upstream);
});
await new Promise<void>((resolve) => router.listen(0, '127.0.0.1', resolve));
const routerPort = (router.address() as AddressInfo).port;

const prismPort = await freePort();
const prism = spawn(
  'npx',
  [
    '--yes',
    PRISM,
    'proxy',
    documentPath,
    `http://127.0.0.1:${routerPort}`,
    '-h',
    '127.0.0.1',
    '-p',
    String(prismPort),
    '--cors=false',
    '--errors=false',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let prismLog = '';
prism.stdout.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
prism.stderr.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
const stopPrism = () => {
  try {
    if (prism.pid) process.kill(-prism.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stopPrism);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(1));

const deadline = Date.now() + 180_000;
while (!/Prism is listening/.test(prismLog)) {
  if (prism.exitCode !== null || Date.now() > deadline) {
    console.error(`with-prism: Prism did not start:\n${prismLog.slice(-2000)}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
prismLog = '';
console.log(`with-prism: ${PRISM} proxy on 127.0.0.1:${prismPort} in front of every test app`);

const child = spawn(itemAt(command, 0), command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, TEST_PRISM_URL: `http://127.0.0.1:${prismPort}` },
});
const code = await new Promise<number>((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
stopPrism();
router.close();

const exchanges = readdirSync(outputDir)
  .filter((name) => name.endsWith('.ndjson'))
  .flatMap((name) =>
    readFileSync(path.join(outputDir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { operation: string; status: number; forwarded: boolean; error?: string; violations: string[] }),
  );
const violations = exchanges.flatMap((exchange) => exchange.violations);
// Prism gone (refused connections) judges nothing more: the run says so and fails rather than counting them as passed.
const unreachable = exchanges.filter((exchange) => exchange.error?.startsWith('connect ECONNREFUSED')).length;
const statuses = new Map<number, number>();
for (const exchange of exchanges) statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
const operations = new Set(exchanges.map((exchange) => exchange.operation.replace(/\/[A-Za-z0-9_-]{14,}(?=\/|$)/g, '/{id}')));
const unforwarded = exchanges.filter((exchange) => !exchange.forwarded).length;
console.log(
  `\nprism: ${exchanges.length} exchanges shown to Prism, ${unforwarded} answered by Prism itself (not judged), ${operations.size} method-path shapes (${[
    ...statuses,
  ]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}x${status}`)
    .join(', ')}), ${violations.length} violations`,
);
for (const violation of [...new Set(violations)]) console.log(`  ${violation}`);
if (unreachable > 0)
  console.error(
    `with-prism: Prism stopped answering; ${unreachable} exchanges were not judged. Its last output:\n${prismLog.slice(-3000)}`,
  );
if (existsSync(documentPath) && exchanges.length === 0) console.error('with-prism: no exchange went through Prism');
process.exit(code !== 0 || violations.length > 0 || unreachable > 0 || exchanges.length === 0 ? 1 : 0);

#!/usr/bin/env node
// `npm run container:check`: the Dockerfile's runtime stage, run without Docker (CI has no
// images to pull). It reads the Dockerfile and reproduces what the image holds and does:
//
// 1. lints the runtime stage: a Node 22 base, a non-root USER, the data VOLUME, the exact CMD,
//    a HEALTHCHECK on /healthz; and that compose's instances are the ones nginx balances, trusting
//    X-Forwarded-For from nginx's address (TRUST_PROXY), which nginx sends; that compose describes the deployed
//    topology (PgBouncer in transaction mode, a pg_basebackup -R replica, DATABASE_URL/DIRECT_URL/READ_URL, one
//    IDEMPOTENCY_SECRET), and that `npm run test:topology` takes its nginx file and settings from compose;
// 2. copies what the stage COPYs (package files, dist/, bin/) into a temporary directory and
//    installs the production dependencies there as the stage does (`npm ci --omit=dev ...`);
// 3. starts the CMD there with the stage's ENV (on 127.0.0.1, a free port, a fresh DATA_DIR),
//    runs the HEALTHCHECK command, checks /readyz, calls the API with the first account's
//    token from the start-up banner, sends SIGTERM and expects exit code 0.
//
// Needs dist/ (`npm run build`; `npm test` builds it). Exits non-zero with the reason on failure.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import { composeTopology } from './compose-topology.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXPECTED_CMD = ['node', 'bin/chat-service.js', 'serve'];
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
};
const fail = (message) => {
  console.error(`container:check: ${message}`);
  process.exit(1);
};

/** Dockerfile instructions (continuation lines joined, comments dropped), grouped by stage. */
function parseDockerfile(text) {
  const instructions = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line);
      return { keyword: keyword.toUpperCase(), args: rest };
    });
  const stages = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push({ from: instruction.args, instructions: [] });
    else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

/** The exec (JSON array) form of CMD/HEALTHCHECK CMD; the shell form would not get SIGTERM. */
function execForm(args, what) {
  try {
    const parsed = JSON.parse(args);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed;
  } catch {
    // reported below
  }
  fail(`${what} must use the exec form ["...", ...], got: ${args}`);
}

/** ENV key=value pairs (values without spaces or quotes, as this Dockerfile writes them). */
function parseEnv(args) {
  return Object.fromEntries(args.split(/\s+/).map((pair) => pair.split('=', 2)));
}

// 1. Lint.
const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1);
if (!runtime || stages.length < 2) fail('the Dockerfile needs a build stage and a runtime stage');
const all = (keyword) => runtime.instructions.filter((i) => i.keyword === keyword);
const last = (keyword) => all(keyword).at(-1);

check(/^node:22[-.\w]*(-slim|alpine)/.test(runtime.from), `runtime base must be a small Node 22 image, got ${runtime.from}`);
check(
  /npm (ci|install) .*--omit=dev/.test(
    all('RUN')
      .map((i) => i.args)
      .join('\n'),
  ),
  'runtime stage must install production dependencies only',
);
const cmd = execForm(last('CMD')?.args ?? 'null', 'CMD');
check(JSON.stringify(cmd) === JSON.stringify(EXPECTED_CMD), `CMD must be ${JSON.stringify(EXPECTED_CMD)}, got ${JSON.stringify(cmd)}`);
const user = last('USER')?.args;
check(user !== undefined && !/^(root|0)(:|$)/.test(user), 'runtime stage must switch to a non-root USER');
const env = Object.assign({}, ...all('ENV').map((i) => parseEnv(i.args)));
check(env.DATA_DIR && (last('VOLUME')?.args ?? '').includes(env.DATA_DIR), 'DATA_DIR must be a VOLUME');
check(env.HOST === '0.0.0.0', 'HOST must be 0.0.0.0 in a container, or nothing outside reaches it');
const healthArgs = last('HEALTHCHECK')?.args ?? '';
const healthCmd = execForm(healthArgs.replace(/^(--\S+\s+)*CMD\s+/, ''), 'HEALTHCHECK CMD');
check(healthCmd.join(' ').includes('/healthz'), 'HEALTHCHECK must probe /healthz');

// compose.yaml's instances are the ones nginx balances (a rename must reach both).
const compose = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
const topology = composeTopology(compose);
check(
  topology.nginxConfig === 'deploy/nginx.conf',
  `compose must mount deploy/nginx.conf as nginx's conf.d/default.conf, got ${topology.nginxConfig}`,
);
const nginx = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
const instances = topology.instances;
const upstreams = [...nginx.matchAll(/^\s*server ([\w-]+):8080\b[^;]*;/gm)].map((m) => m[1]);
check(instances.length >= 2, 'compose.yaml must run at least two instances (<<: *chat-service)');
check(JSON.stringify(instances) === JSON.stringify(upstreams), `nginx upstreams ${upstreams} differ from compose instances ${instances}`);
check(/location \/v2\/events \{[^}]*proxy_buffering off;/.test(nginx), 'nginx must not buffer /v2/events (Server-Sent Events)');
// The instances believe X-Forwarded-For from nginx's fixed address only (TRUST_PROXY), which nginx must send.
const trustProxy = /^ {4}TRUST_PROXY: (\S+)$/m.exec(compose)?.[1];
const nginxAddress = /^ {2}nginx:\n(?: {4}.*\n)*? {6}default:\n {8}ipv4_address: (\S+)$/m.exec(compose)?.[1];
const subnet = /^networks:\n {2}default:\n[\s\S]*?- subnet: (\d+\.\d+\.\d+)\.0\/24$/m.exec(compose)?.[1];
check(
  trustProxy !== undefined && trustProxy === nginxAddress,
  `compose's TRUST_PROXY (${trustProxy}) must be nginx's ipv4_address (${nginxAddress})`,
);
check(
  subnet !== undefined && nginxAddress?.startsWith(`${subnet}.`),
  `nginx's ipv4_address (${nginxAddress}) must be in the default network's /24 (${subnet}.0)`,
);
// The deployed topology (docs/operations.md "The topology test"): statements through PgBouncer in transaction mode,
// LISTEN and migrations on the primary, heavy reads on the streaming replica, one idempotency secret for all.
const host = (url) => {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};
const chatEnv = topology.chatEnvironment;
check(host(chatEnv.DATABASE_URL) === 'pgbouncer', `the instances' DATABASE_URL must be the pgbouncer service, got ${chatEnv.DATABASE_URL}`);
check(
  host(chatEnv.DATABASE_DIRECT_URL) === 'postgres',
  `DATABASE_DIRECT_URL must be the postgres service, got ${chatEnv.DATABASE_DIRECT_URL}`,
);
check(host(chatEnv.DATABASE_READ_URL) === 'replica', `DATABASE_READ_URL must be the replica service, got ${chatEnv.DATABASE_READ_URL}`);
check(
  Boolean(chatEnv.IDEMPOTENCY_SECRET),
  'the instances must share one IDEMPOTENCY_SECRET (a retried Idempotency-Key replays on any instance)',
);
check(topology.pgbouncer.POOL_MODE === 'transaction', `pgbouncer must pool in transaction mode, got ${topology.pgbouncer.POOL_MODE}`);
check(host(topology.pgbouncer.DATABASE_URL) === 'postgres', 'pgbouncer must pool the postgres service');
check(
  topology.replica.some((line) => /pg_basebackup -h postgres .*-R\b/.test(line)),
  'the replica service must start from pg_basebackup -R of the postgres service',
);
// The topology test runs what compose describes: it takes the nginx file, the instances and their settings from it.
const topologyTest = readFileSync(path.join(ROOT, 'scripts/test-topology.ts'), 'utf8');
for (const used of [
  'composeTopology()',
  'compose.nginxConfig',
  'compose.chatEnvironment',
  'compose.instances',
  'compose.pgbouncer.POOL_MODE',
]) {
  check(topologyTest.includes(used), `scripts/test-topology.ts must take ${used} from compose.yaml (scripts/compose-topology.mjs)`);
}
check(/^\s*proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/m.test(nginx), 'nginx must send X-Forwarded-For');
check(/^\s*proxy_set_header X-Forwarded-Proto \$scheme;/m.test(nginx), 'nginx must send X-Forwarded-Proto');

// The build context keeps everything a COPY takes (.dockerignore lists whole names, no globs in them).
const ignored = new Set(
  readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#')),
);
for (const copy of stages.flatMap((stage) => stage.instructions).filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from='))) {
  for (const source of copy.args.split(/\s+/).slice(0, -1)) {
    check(!ignored.has(source.split('/')[0]), `.dockerignore excludes ${source}, which the Dockerfile copies`);
  }
}

if (failures.length > 0) fail(`the container definition is wrong:\n  ${failures.join('\n  ')}`);

// 2. The runtime stage's files, as COPY puts them: `COPY a b dest` from the context,
// `COPY --from=build /app/x dest` from the build stage's WORKDIR (here: the repository).
if (!existsSync(path.join(ROOT, 'dist/cli.js'))) fail('dist/ is missing: run `npm run build` first');
const buildWorkdir =
  stages
    .at(-2)
    .instructions.filter((i) => i.keyword === 'WORKDIR')
    .at(-1)?.args ?? '/';
const image = mkdtempSync(path.join(os.tmpdir(), 'chat-service-image-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chat-service-data-'));
const cleanup = () => {
  rmSync(image, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanup);

for (const copy of all('COPY')) {
  const words = copy.args.split(/\s+/);
  const fromBuild = words[0].startsWith('--from=');
  const [dest, ...sources] = (fromBuild ? words.slice(1) : words).reverse();
  for (const source of sources.reverse()) {
    const local = fromBuild ? path.posix.relative(buildWorkdir, source) : source;
    const target = dest.endsWith('/') ? path.join(image, dest, path.basename(local)) : path.join(image, dest);
    cpSync(path.join(ROOT, local), target, { recursive: true });
  }
}

const install = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
  cwd: image,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (install.status !== 0) fail('npm ci --omit=dev failed in the image layout');

// 3. Run the CMD as the container would, but reachable only here.
const runEnv = { PATH: process.env.PATH, ...env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
const server = spawn(cmd[0] === 'node' ? process.execPath : cmd[0], cmd.slice(1), {
  cwd: image,
  env: runEnv,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stdout = '';
let stderr = '';
server.stdout.on('data', (chunk) => (stdout += chunk));
server.stderr.on('data', (chunk) => (stderr += chunk));
const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
const abort = (message) => {
  server.kill('SIGKILL');
  fail(`${message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
};

const url = await new Promise((resolve) => {
  const timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS);
  const look = () => {
    const listening = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'chat-service listening');
    if (listening) {
      clearTimeout(timer);
      resolve(listening.url);
    }
  };
  server.stdout.on('data', look);
  exited.then(() => resolve(undefined));
});
if (!url) abort(`the CMD did not start listening within ${START_TIMEOUT_MS / 1000} s`);

// The HEALTHCHECK command itself, with the container's PORT.
const port = new URL(url).port;
const health = spawnSync(healthCmd[0] === 'node' ? process.execPath : healthCmd[0], healthCmd.slice(1), {
  cwd: image,
  env: { ...runEnv, PORT: port },
  timeout: 10_000,
});
if (health.status !== 0) abort(`the HEALTHCHECK command failed (exit ${health.status}): ${health.stderr}`);

const ready = await globalThis.fetch(`${url}/readyz`);
if (ready.status !== 200) abort(`/readyz answered ${ready.status}`);

const token = /owner token:\s+(\S+)/.exec(stdout)?.[1];
if (!token) abort("the first start did not print the first account's owner token");
const agents = await globalThis.fetch(`${url}/v2/agents`, { headers: { authorization: `Bearer ${token}` } });
if (agents.status !== 200) abort(`GET /v2/agents with the first token answered ${agents.status}`);

server.kill('SIGTERM');
const stopped = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(undefined), STOP_TIMEOUT_MS))]);
if (!stopped) abort(`SIGTERM did not stop the server within ${STOP_TIMEOUT_MS / 1000} s`);
if (stopped.code !== 0) abort(`SIGTERM: the server exited with ${stopped.code ?? stopped.signal}, not 0`);

console.log(`container:check: ok (${cmd.join(' ')}: healthcheck, /readyz, first token, SIGTERM exit 0)`);

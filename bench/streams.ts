/**
 * `npm run bench:streams` (issue 24): open event streams at visitor scale, over real
 * HTTP, per engine. The npm script raises `ulimit -n` to 20,000 first (what this machine
 * allows a process; each stream is a socket in the service and one in the client).
 *
 * Three processes: this one (setup, the writer and the GET probe), the service
 * (bench/streams-server.ts: startServer, what `chat-service serve` runs, with
 * --expose-gc so its heap can be read after a forced GC) and the stream client
 * (bench/streams-client.ts, its CPU reported apart). Two cases, which differ only in
 * what the streams read and where the writes go:
 *
 * - wide: account-wide streams (GET /v2/events) spread over the accounts; each write a
 *   message in one conversation of an account, one event all its account's streams read;
 * - narrow: on one account, one visitor per stream, each with a conversation of its own
 *   and a visitor stream (GET /widget/v1/events), which reads only that visitor's
 *   conversations; each write an agent's reply in one visitor's conversation, one event
 *   exactly one stream reads.
 *
 * Per case and size, on one service:
 *
 * - GET /v2/agents p99, idle (no stream, no write): the baseline;
 * - opens the streams: time to open them all;
 * - RSS and heap (after a forced GC) per open stream, idle;
 * - writes BENCH_RATE messages/s for BENCH_WRITE_SECONDS, one conversation after another:
 *   delivery p50/p95/p99 from the write's answer to its arrival on each stream that
 *   reads it, the delivered fraction (each once), arrivals on a stream that does not
 *   read it, GET /v2/agents p99 meanwhile, the client's and the service's CPU;
 * - waits for deliveries still arriving (until none came for 2 s, at most 60 s);
 * - closes the streams: heap after a forced GC beside the one before they opened.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_CASES=wide,narrow         cases to run (default both)
 *   BENCH_STREAMS=1000,10000,15000  stream counts, one run each per case
 *   BENCH_ACCOUNTS=10 (wide)  BENCH_RATE=50  BENCH_WRITE_SECONDS=30
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh databases
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { itemAt } from '../src/arrays.ts';
import { call, freshStorage, type Engine } from './http/harness.ts';
import type { ClientCommand, DeliveryFigures, StreamSpec } from './streams-client.ts';
import type { BenchVisitor, ServerCommand } from './streams-server.ts';

type CaseName = 'wide' | 'narrow';
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const CASES = (process.env.BENCH_CASES ?? 'wide,narrow').split(',') as CaseName[];
const SIZES = (process.env.BENCH_STREAMS ?? '1000,10000,15000').split(',').map(Number);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 30);
/** The service listens here (bench port range 8150-8199). */
const PORT = 8150;
/** The page origin the narrow case's account allows, which its visitors' streams send as the widget's do. */
const VISITOR_ORIGIN = 'https://shop.example.com';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const now = () => performance.timeOrigin + performance.now();
/** A figure for print; a quantile of no sample is NaN, which arrives over IPC as null: printed as "none". */
const fixed = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'none';
const kb = (bytes: number) => `${fixed(bytes / 1024, 1)} KB`;
const mb = (bytes: number) => `${fixed(bytes / 1048576)} MB`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => fixed(value, 2))
    .join(' ');

/** Sends a command to a forked process (the client or the service) and waits for its answer carrying `key`. */
async function ask<T>(child: ChildProcess, command: ClientCommand | ServerCommand, key: string): Promise<T> {
  const answer = new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${key}: the process exited with ${code}`));
    const onMessage = (message: Record<string, unknown>) => {
      if (!(key in message)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message[key] as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  child.send(command);
  return answer;
}

interface Memory {
  rss: number;
  heap: number;
  rssAfterGc: number;
  heapAfterGc: number;
}

/** GET /v2/agents one at a time, 20 a second, until `stop` fires: the durations, ms. */
async function probe(url: string, token: string, stop: AbortSignal): Promise<number[]> {
  const durations: number[] = [];
  while (!stop.aborted) {
    const started = performance.now();
    await call(url, token, 'GET', '/v2/agents');
    durations.push(performance.now() - started);
    await sleep(Math.max(0, 50 - (performance.now() - started)));
  }
  return durations;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(0.99 * (values.length - 1))] ?? NaN;

async function probeFor(url: string, token: string, ms: number): Promise<number[]> {
  return probe(url, token, AbortSignal.timeout(ms));
}

/** An account the service made: its id and owner token. */
interface Account {
  id: string;
  token: string;
}

/** The running service: its URL, its accounts, and its process (which writes the narrow case's visitors). */
interface Service {
  url: string;
  accounts: [Account, ...Account[]];
  server: ChildProcess;
}

/** Where the writes for one group of streams go: a conversation, and the API token writing in it. */
interface WriteTarget {
  token: string;
  conversationId: string;
}

/** One size of a case: the streams to open, each reading its group's events, and where each group's writes go. */
interface Workload {
  streams: StreamSpec[];
  /** By group: the conversation whose messages that group's streams read. */
  targets: WriteTarget[];
  /** Who writes the messages (the body of each besides its text). */
  author: { sub_type: 'contact' } | { sub_type: 'agent'; agent_id: string };
}

/** Messages written so far in the run: each write's text is a key of its own. */
let writes = 0;

/** Writes RATE messages/s for WRITE_SECONDS, to one group's conversation after another; returns each write's key, answer time and group. */
async function write(url: string, workload: Workload): Promise<{ answers: [string, number, number][]; failed: number }> {
  const answers: [string, number, number][] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < RATE * WRITE_SECONDS; i++) {
    await sleep(Math.max(0, started + (i * 1000) / RATE - performance.now()));
    const group = i % workload.targets.length;
    const key = `bench-${writes++}`;
    const { token, conversationId } = itemAt(workload.targets, group);
    pending.push(
      call(url, token, 'POST', `/v2/conversations/${conversationId}/messages`, { ...workload.author, text: key }).then(
        () => void answers.push([key, now(), group]),
        () => void failed++,
      ),
    );
  }
  await Promise.all(pending);
  return { answers, failed };
}

/** The wide case: account-wide streams spread over the accounts (group: the account), writes in one conversation per account. */
async function wideCase({ url, accounts }: Service): Promise<(size: number) => Workload> {
  const targets: WriteTarget[] = [];
  for (const account of accounts) {
    const contact = await call(url, account.token, 'POST', '/v2/contacts', { name: 'Bench visitor' });
    const conversation = await call(url, account.token, 'POST', '/v2/conversations', { contact_id: contact.id, text: 'Hello' });
    targets.push({ token: account.token, conversationId: conversation.id });
  }
  return (size) => ({
    streams: Array.from({ length: size }, (_, i) => ({
      path: '/v2/events',
      token: itemAt(accounts, i % accounts.length).token,
      group: i % accounts.length,
    })),
    targets,
    author: { sub_type: 'contact' },
  });
}

/**
 * The narrow case: on the first account, with the widget allowed on VISITOR_ORIGIN, as many visitors as the largest
 * size, each with a session and a conversation of its own (written by the service in bulk: streams-server.ts); a
 * size's streams are its first visitors' streams (group: the visitor), and an agent writes in their conversations.
 */
async function narrowCase({ url, accounts: [account], server }: Service): Promise<(size: number) => Workload> {
  await call(url, account.token, 'PATCH', '/v2/account', { widget_origins: [VISITOR_ORIGIN] });
  const agent = await call(url, account.token, 'POST', '/v2/agents', { email: 'bench@example.com', nickname: 'Bench' });
  const started = performance.now();
  const visitors = await ask<BenchVisitor[]>(server, { visitors: { accountId: account.id, count: Math.max(...SIZES) } }, 'visitors');
  console.log(
    `narrow: ${fixed(visitors.length)} visitors, each with a conversation, written in ${fixed((performance.now() - started) / 1000, 1)} s`,
  );
  return (size) => ({
    streams: visitors
      .slice(0, size)
      .map((visitor, group) => ({ path: '/widget/v1/events', token: visitor.token, origin: VISITOR_ORIGIN, group })),
    targets: visitors.slice(0, size).map((visitor) => ({ token: account.token, conversationId: visitor.conversationId })),
    author: { sub_type: 'agent', agent_id: agent.id },
  });
}

const CASE_SETUPS: Record<CaseName, (service: Service) => Promise<(size: number) => Workload>> = {
  wide: wideCase,
  narrow: narrowCase,
};

interface SizeFigures {
  streams: number;
  openMs: number;
  refused: number;
  getIdleP99: number;
  getDuringP99: number;
  delivery: DeliveryFigures;
  failedWrites: number;
  rssPerStream: number;
  heapPerStream: number;
  base: Memory;
  open: Memory;
  afterWrites: Memory;
  closed: Memory;
  clientCpu: { open: number; writes: number };
  serviceCpu: { open: number; writes: number };
}

/** One size of a case; the GET probes use `probeToken` (an API token of any account). */
async function benchSize(server: ChildProcess, client: ChildProcess, url: string, probeToken: string, workload: Workload) {
  const size = workload.streams.length;
  const cpu = async () => [await ask<number>(client, 'cpu', 'cpu'), await ask<number>(server, 'cpu', 'cpu')] as const;
  const getIdle = await probeFor(url, probeToken, 5000);
  const base = await ask<Memory>(server, 'memory', 'memory');
  const [clientBefore, serviceBefore] = await cpu();
  const opened = await ask<{ ms: number; opened: number; refused: number }>(
    client,
    { open: { url, streams: workload.streams, concurrency: 100 } },
    'opened',
  );
  const [clientOpened, serviceOpened] = await cpu();
  await sleep(2000);
  const open = await ask<Memory>(server, 'memory', 'memory');

  const stopProbe = new AbortController();
  const during = probe(url, probeToken, stopProbe.signal);
  const writesStarted = performance.now();
  const written = await write(url, workload);
  // Deliveries still arriving (a backlog) are waited for: until none arrived for 2 s, at most 60 s.
  for (let last = -1, deadline = performance.now() + 60_000; performance.now() < deadline;) {
    const arrived = await ask<number>(client, 'arrived', 'arrived');
    if (arrived === last) break;
    last = arrived;
    await sleep(2000);
  }
  stopProbe.abort();
  const [clientWritten, serviceWritten] = await cpu();
  const delivery = await ask<DeliveryFigures>(client, { finish: { answers: written.answers } }, 'finished');
  const afterWrites = await ask<Memory>(server, 'memory', 'memory');
  await ask(client, 'close', 'closed');
  await sleep(3000);
  const closed = await ask<Memory>(server, 'memory', 'memory');
  const busySeconds = (performance.now() - writesStarted) / 1000;
  return {
    streams: size,
    openMs: opened.ms,
    refused: opened.refused,
    getIdleP99: p99(getIdle),
    getDuringP99: p99(await during),
    delivery,
    failedWrites: written.failed,
    rssPerStream: (open.rss - base.rss) / size,
    heapPerStream: (open.heapAfterGc - base.heapAfterGc) / size,
    base,
    open,
    afterWrites,
    closed,
    clientCpu: { open: (clientOpened - clientBefore) / opened.ms, writes: (clientWritten - clientOpened) / (busySeconds * 1000) },
    serviceCpu: { open: (serviceOpened - serviceBefore) / opened.ms, writes: (serviceWritten - serviceOpened) / (busySeconds * 1000) },
  } satisfies SizeFigures;
}

async function benchEngine(engine: Engine): Promise<SizeFigures[]> {
  const storage = await freshStorage(engine);
  const env = {
    ...process.env,
    ...storage.env,
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    EVENT_STREAMS_PER_TOKEN: '20000',
    EVENT_STREAMS_PER_ACCOUNT: '20000',
    EVENT_STREAMS_PER_INSTANCE: '20000',
    // No conversation is closed for inactivity during a run: its close would be one more event on the streams.
    INACTIVITY_TIMEOUT_SECONDS: String(7 * 86_400),
    BENCH_ACCOUNTS: String(ACCOUNTS),
  };
  const server = fork(path.join(HERE, 'streams-server.ts'), [], { env, execArgv: ['--import', 'tsx', '--expose-gc'] });
  const client = fork(path.join(HERE, 'streams-client.ts'), [], { execArgv: ['--import', 'tsx'] });
  try {
    const [ready] = (await once(server, 'message')) as [{ ready: Pick<Service, 'url' | 'accounts'> }];
    const { url, accounts } = ready.ready;
    const results: SizeFigures[] = [];
    for (const name of CASES) {
      const workload = await CASE_SETUPS[name]({ url, accounts, server });
      for (const size of SIZES) {
        console.log(`${engine}, ${name}: ${fixed(size)} streams (load average ${loadAverage()})`);
        results.push(await benchSize(server, client, url, accounts[0].token, workload(size)));
        print(`${engine}, ${name}`, results.at(-1)!);
      }
    }
    return results;
  } finally {
    client.kill();
    if (server.exitCode === null) {
      server.send('stop');
      await once(server, 'exit');
    }
    await storage.drop();
  }
}

/** The figures of one size; `run` names the engine and the case. */
function print(run: string, r: SizeFigures): void {
  const d = r.delivery;
  console.log(
    [
      `  ${run}, ${fixed(r.streams)} streams: opened in ${fixed(r.openMs / 1000, 1)} s (${r.refused} refused; ` +
        `service CPU ${fixed(r.serviceCpu.open * 100)}%, client CPU ${fixed(r.clientCpu.open * 100)}% of a core)`,
      `  delivery from the write's answer: p50 ${fixed(d.p50)} ms, p95 ${fixed(d.p95)} ms, p99 ${fixed(d.p99)} ms, max ${fixed(d.max)} ms; ` +
        `delivered ${fixed(d.delivered)} of ${fixed(d.expected)} (${fixed((100 * d.delivered) / d.expected, 2)}%), ${d.duplicates} duplicates, ` +
        `${d.misdelivered} on a stream not reading it, ${r.failedWrites} failed writes`,
      `  GET /v2/agents p99: idle ${fixed(r.getIdleP99, 1)} ms, during writes ${fixed(r.getDuringP99, 1)} ms; ` +
        `CPU during writes: service ${fixed(r.serviceCpu.writes * 100)}%, client ${fixed(r.clientCpu.writes * 100)}% of a core`,
      `  memory: RSS ${mb(r.base.rss)} before, ${mb(r.open.rss)} open (${kb(r.rssPerStream)}/stream), ${mb(r.afterWrites.rss)} after writes, ` +
        `${mb(r.closed.rss)} closed; heap after GC ${mb(r.base.heapAfterGc)} before, ${mb(r.open.heapAfterGc)} open ` +
        `(${kb(r.heapPerStream)}/stream), ${mb(r.afterWrites.heapAfterGc)} after writes, ${mb(r.closed.heapAfterGc)} closed ` +
        `(${fixed((100 * (r.closed.heapAfterGc - r.base.heapAfterGc)) / r.base.heapAfterGc, 1)}% over before)`,
    ].join('\n'),
  );
}

console.log(
  `bench:streams: ${CASES.join(' and ')}, ${SIZES.join(', ')} streams (wide: over ${ACCOUNTS} accounts), ${RATE} writes/s for ${WRITE_SECONDS} s; ` +
    `${os.cpus().length} CPUs, load average ${loadAverage()}`,
);
for (const engine of ENGINES) await benchEngine(engine);
console.log(`load average at the end: ${loadAverage()}`);

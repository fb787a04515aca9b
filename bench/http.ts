/**
 * `npm run bench:http`: the service over real HTTP against a bare baseline in the
 * same run (bench/http/baseline-server.ts: bare Fastify + the same driver on the
 * same tables), on PostgreSQL and PGlite, at 1 and 32 connections, in steady state:
 * a warm-up grows the database first (creates at 8 connections, then a pause for the
 * service's table maintenance to analyze what grew). The service and the baseline run at once,
 * measured case by case one after the other: on PostgreSQL on the one database; PGlite takes
 * one process per directory, so its baseline gets a copy of the grown one. Then writes sustained on fresh
 * storage (bench/http/sustained.ts): the rate of the run's last window beside its first.
 * Prints one Markdown table (bench/http/harness.ts) with the targets of docs/benchmarks.md.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_CASES=throughput,sustained,contention,pooler,search-index   cases to run (default all; contention: bench/http/contention.ts;
 *                                 pooler, PostgreSQL only: through PgBouncer against direct, bench/http/pooler.ts;
 *                                 search-index: with the full-text columns against without, bench/http/search-index.ts)
 *   BENCH_DURATION=10               seconds per measurement
 *   BENCH_ROUNDS=2                  measurements per case and side, in alternating orders, merged (mean rate, worst p99)
 *   BENCH_WARMUP=60                 seconds of creates that grow the database before the measurements
 *   BENCH_SUSTAINED_SECONDS=100, BENCH_SUSTAINED_WINDOW=20   the sustained run and its windows
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh databases
 *   BENCH_SERVICE_DIR=../other-checkout   measure that checkout's service (built) instead of this one's: before and after a change
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { itemAt } from '../src/arrays.ts';
import { benchContention } from './http/contention.ts';
import { benchPooler } from './http/pooler.ts';
import { benchSearchIndex } from './http/search-index.ts';
import { benchSustained, sustainedRows } from './http/sustained.ts';
import {
  call,
  createWithThreeMessages,
  freshStorage,
  load,
  mergedFigures,
  printTable,
  startProcess,
  startService,
  startServiceOnPort,
  type Engine,
  type Figures,
  type Row,
  type RunningProcess,
  type Storage,
} from './http/harness.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const CONNECTIONS = [1, 32];
const SEEDED_CONVERSATIONS = 2000;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Longer than the service's maintenance interval (src/jobs.ts): what the warm-up grew is analyzed before the measurements. */
const MAINTENANCE_PAUSE_MS = 12_000;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Lines printed under the table. */
const notes: string[] = [];

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

interface Measured {
  get: Figures[];
  create: Figures[];
  message: Figures[];
}

/** What the cases run against: a base URL, its paths under `prefix`, and its bodies. */
interface Target {
  base: string;
  prefix: string;
  headers: Record<string, string>;
  createBody: () => string;
  messageBody: string;
}

/**
 * The three write/read cases at each connection count against each target, the targets one after another for each
 * case, ROUNDS times in alternating orders (A B, B A, ...), each side's runs merged (mergedFigures): figures compared
 * with each other are measured within seconds, not minutes, of each other, and a drift of the machine's speed (over
 * minutes, by as much as the differences measured) falls on both sides alike instead of whole on one.
 */
async function measureCases(targets: Target[], conversationIds: string[]): Promise<Measured[]> {
  const measured = targets.map((): Measured => ({ get: [], create: [], message: [] }));
  for (const connections of CONNECTIONS) {
    for (const kind of ['get', 'create', 'message'] as const) {
      const rounds: Figures[][] = targets.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        const order = [...targets.keys()];
        if (round % 2 === 1) order.reverse();
        for (const i of order) {
          const { base, prefix, headers, createBody, messageBody } = itemAt(targets, i);
          const json = { ...headers, 'content-type': 'application/json' };
          const options =
            kind === 'get'
              ? { headers, path: () => `${prefix}/conversations/${pick(conversationIds)}` }
              : kind === 'create'
                ? { method: 'POST' as const, headers: json, path: `${prefix}/conversations`, body: createBody }
                : {
                    method: 'POST' as const,
                    headers: json,
                    path: () => `${prefix}/conversations/${pick(conversationIds)}/messages`,
                    body: messageBody,
                  };
          itemAt(rounds, i).push(await load({ url: base, connections, ...options }));
        }
      }
      rounds.forEach((figures, i) => itemAt(measured, i)[kind].push(mergedFigures(figures)));
    }
  }
  return measured;
}

function startBaseline(storageEnv: Record<string, string>, seeded: { accountId: string; contactId: string }) {
  return startProcess(
    ['--import', 'tsx', path.join(HERE, 'http/baseline-server.ts')],
    { ...storageEnv, BASELINE_ACCOUNT: seeded.accountId, BASELINE_CONTACT: seeded.contactId },
    /listening on (http:\/\/\S+)/,
  );
}

const bareTarget = (base: string): Target => ({ base, prefix: '', headers: {}, createBody: () => '{}', messageBody: '{}' });

async function benchEngine(engine: Engine): Promise<Row[]> {
  const storage: Storage = await freshStorage(engine);
  const copy = engine === 'pglite' ? mkdtempSync(path.join(os.tmpdir(), 'chat-service-bench-baseline-')) : undefined;
  try {
    const first = await startService(storage);
    const token = first.token;
    let service: RunningProcess = first;
    let ours: Measured;
    let bare: Measured;
    try {
      const api = (method: string, url: string, body?: unknown) => call(service.url, token, method, url, body);
      const contact = await api('POST', '/v2/contacts', { name: 'Bench' });
      const conversationIds: string[] = [];
      for (let i = 0; i < SEEDED_CONVERSATIONS; i++) {
        const conversation = await api('POST', '/v2/conversations', { contact_id: contact.id, text: `Seed ${i}` });
        conversationIds.push(conversation.id);
      }
      const account = await api('GET', '/v2/account');
      const seeded = { accountId: account.id, contactId: contact.id, conversationIds };
      const grown = await load({
        url: service.url,
        connections: 8,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        path: '/v2/conversations',
        body: createWithThreeMessages(contact.id),
        durationSeconds: WARMUP_SECONDS,
      });
      notes.push(
        `${engine}: warm-up ${Math.round(grown.requestsPerSecond * WARMUP_SECONDS).toLocaleString('en')} creates with 3 messages in ${WARMUP_SECONDS} s`,
      );
      await sleep(MAINTENANCE_PAUSE_MS);
      if (copy) {
        // PGlite takes one process per directory: the baseline gets a copy of the grown one, taken while the service
        // is stopped, and the service starts again on its own.
        await service.stop();
        cpSync(storage.location, copy, { recursive: true });
        service = await startServiceOnPort(storage.env);
      }
      const serviceTarget: Target = {
        base: service.url,
        prefix: '/v2',
        headers: { authorization: `Bearer ${token}` },
        createBody: createWithThreeMessages(contact.id),
        messageBody: JSON.stringify({ sub_type: 'contact', text: 'Hello again' }),
      };
      // Both at once, measured case by case one after the other.
      const baseline = await startBaseline(copy ? { DATA_DIR: copy } : storage.env, seeded);
      try {
        [ours, bare] = (await measureCases([serviceTarget, bareTarget(baseline.url)], conversationIds)) as [Measured, Measured];
      } finally {
        await baseline.stop();
      }
    } finally {
      await service.stop();
    }

    const rows: Row[] = [];
    const ratio = (a: Figures, b: Figures) => a.requestsPerSecond / b.requestsPerSecond;
    CONNECTIONS.forEach((connections, i) => {
      const many = connections > 1;
      const get = { case: 'GET conversation', engine, connections, service: itemAt(ours.get, i), baseline: itemAt(bare.get, i) };
      if (engine === 'postgres') rows.push({ ...get, target: '>= 70% of baseline', met: ratio(get.service, get.baseline) >= 0.7 });
      else {
        const p99Target = many ? ' and p99 <= 50 ms' : '';
        rows.push({
          ...get,
          target: `>= 50% of baseline${p99Target}`,
          met: ratio(get.service, get.baseline) >= 0.5 && (!many || get.service.p99 <= 50),
        });
      }
      for (const [name, kind] of [
        ['create, 3 imported messages', 'create'],
        ['POST message', 'message'],
      ] as const) {
        const service = itemAt(ours[kind], i);
        const base = itemAt(bare[kind], i);
        // Issue 19's targets: PostgreSQL writes at many connections at 85 % of the bare transaction, scaling from one
        // connection at least 90 % as well as it does; PGlite writes at 60 % of its bare baseline.
        let target = 'reference';
        let met = true;
        if (engine === 'postgres' && many) {
          target = '>= 85% of baseline, scaling >= 90% of its';
          const scaling = ratio(service, itemAt(ours[kind], 0)) / ratio(base, itemAt(bare[kind], 0));
          met = ratio(service, base) >= 0.85 && scaling >= 0.9;
        } else if (engine === 'pglite') {
          target = '>= 60% of baseline';
          met = ratio(service, base) >= 0.6;
        }
        rows.push({ case: name, engine, connections, service, baseline: base, target, met });
      }
    });
    return rows;
  } finally {
    await storage.drop();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
}

const CASES = (process.env.BENCH_CASES ?? 'throughput,sustained,contention,pooler,search-index').split(',');
const rows: Row[] = [];
for (const engine of ENGINES) {
  if (CASES.includes('throughput')) rows.push(...(await benchEngine(engine)));
  if (CASES.includes('sustained')) {
    const sustained = await benchSustained(engine);
    rows.push(...sustainedRows(engine, sustained));
    for (const [side, run] of Object.entries(sustained)) {
      const rates = run.map((window) => Math.round(window.requestsPerSecond)).join(', ');
      notes.push(`${engine}: sustained creates, ${side}, req/s per window: ${rates}`);
    }
  }
  if (CASES.includes('contention')) {
    const { heavy, ...row } = await benchContention(engine);
    rows.push(row);
    notes.push(`${engine}: meanwhile ${heavy}`);
  }
  if (CASES.includes('search-index')) {
    rows.push(...(await benchSearchIndex(engine)));
    notes.push(
      `${engine}: search-index rows: "baseline" is the same service on storage without the full-text columns, two rounds averaged`,
    );
  }
  if (CASES.includes('pooler') && engine === 'postgres') {
    const { rows: pooled, note } = await benchPooler();
    rows.push(...pooled);
    notes.push(note);
  }
}
printTable(rows);
for (const note of notes) console.log(`\n${note}`);

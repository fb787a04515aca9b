/**
 * `npm run bench:http`: the service over real HTTP against a bare baseline in the
 * same run (bench/http/baseline-server.ts: bare Fastify + the same driver on the
 * same tables), on PostgreSQL and PGlite, at 1 and 32 connections. Prints one
 * Markdown table (bench/http/harness.ts) with the targets of docs/benchmarks.md.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_CASES=throughput,contention   cases to run (default both; contention: bench/http/contention.ts)
 *   BENCH_DURATION=10               seconds per measurement
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh databases
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchContention } from './http/contention.ts';
import {
  call,
  freshStorage,
  load,
  printTable,
  startProcess,
  startService,
  type Engine,
  type Figures,
  type Row,
  type Storage,
} from './http/harness.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const CONNECTIONS = [1, 32];
const SEEDED_CONVERSATIONS = 2000;
const HERE = path.dirname(fileURLToPath(import.meta.url));

let counter = 0;
const unique = () => `${process.pid}-${Date.now()}-${counter++}`;
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

const createWithThreeMessages = (contactId: string) => () =>
  JSON.stringify({
    contact_id: contactId,
    ext_id: `bench-${unique()}`,
    messages: [1, 2, 3].map((n) => ({ sub_type: 'contact', content: { type: 'text', text: `Hello ${n}` } })),
  });

interface Measured {
  get: Figures[];
  create: Figures[];
  message: Figures[];
}

/** The three write/read cases at each connection count against `base` (paths under `prefix`). */
async function measureCases(
  base: string,
  prefix: string,
  headers: Record<string, string>,
  conversationIds: string[],
  createBody: () => string,
  messageBody: string,
): Promise<Measured> {
  const measured: Measured = { get: [], create: [], message: [] };
  const json = { ...headers, 'content-type': 'application/json' };
  for (const connections of CONNECTIONS) {
    measured.get.push(await load({ url: base, connections, headers, path: () => `${prefix}/conversations/${pick(conversationIds)}` }));
    measured.create.push(
      await load({ url: base, connections, method: 'POST', headers: json, path: `${prefix}/conversations`, body: createBody }),
    );
    measured.message.push(
      await load({
        url: base,
        connections,
        method: 'POST',
        headers: json,
        path: () => `${prefix}/conversations/${pick(conversationIds)}/messages`,
        body: messageBody,
      }),
    );
  }
  return measured;
}

async function benchEngine(engine: Engine): Promise<Row[]> {
  const storage: Storage = await freshStorage(engine);
  try {
    const service = await startService(storage);
    let seeded: { accountId: string; contactId: string; conversationIds: string[] };
    let ours: Measured;
    try {
      const api = (method: string, url: string, body?: unknown) => call(service.url, service.token, method, url, body);
      const contact = await api('POST', '/v2/contacts', { name: 'Bench' });
      const conversationIds: string[] = [];
      for (let i = 0; i < SEEDED_CONVERSATIONS; i++) {
        const conversation = await api('POST', '/v2/conversations', { contact_id: contact.id, text: `Seed ${i}` });
        conversationIds.push(conversation.id);
      }
      const account = await api('GET', '/v2/account');
      seeded = { accountId: account.id, contactId: contact.id, conversationIds };
      ours = await measureCases(
        service.url,
        '/v2',
        { authorization: `Bearer ${service.token}` },
        conversationIds,
        createWithThreeMessages(contact.id),
        JSON.stringify({ sub_type: 'contact', text: 'Hello again' }),
      );
    } finally {
      await service.stop();
    }

    // PGlite takes one process per directory: the baseline runs after the service, on the same data.
    const baseline = await startProcess(
      ['--import', 'tsx', path.join(HERE, 'http/baseline-server.ts')],
      { ...storage.env, BASELINE_ACCOUNT: seeded.accountId, BASELINE_CONTACT: seeded.contactId },
      /listening on (http:\/\/\S+)/,
    );
    let bare: Measured;
    try {
      bare = await measureCases(baseline.url, '', {}, seeded.conversationIds, () => '{}', '{}');
    } finally {
      await baseline.stop();
    }

    const rows: Row[] = [];
    const ratio = (a: Figures, b: Figures) => a.requestsPerSecond / b.requestsPerSecond;
    CONNECTIONS.forEach((connections, i) => {
      const many = connections > 1;
      const get = { case: 'GET conversation', engine, connections, service: ours.get[i], baseline: bare.get[i] };
      if (engine === 'postgres') rows.push({ ...get, target: '>= 70% of baseline', met: ratio(ours.get[i], bare.get[i]) >= 0.7 });
      else {
        const p99Target = many ? ' and p99 <= 50 ms' : '';
        rows.push({
          ...get,
          target: `>= 50% of baseline${p99Target}`,
          met: ratio(ours.get[i], bare.get[i]) >= 0.5 && (!many || ours.get[i].p99 <= 50),
        });
      }
      for (const [name, kind] of [
        ['create, 3 imported messages', 'create'],
        ['POST message', 'message'],
      ] as const) {
        const service = ours[kind][i];
        const base = bare[kind][i];
        let target = 'reference';
        let met = true;
        if (engine === 'postgres' && many) {
          target = '>= 60% of baseline, >= 3x 1 conn';
          met = ratio(service, base) >= 0.6 && ratio(service, ours[kind][0]) >= 3;
        } else if (engine === 'pglite' && kind === 'create' && many) {
          target = '>= 400 req/s';
          met = service.requestsPerSecond >= 400;
        }
        rows.push({ case: name, engine, connections, service, baseline: base, target, met });
      }
    });
    return rows;
  } finally {
    await storage.drop();
  }
}

const CASES = (process.env.BENCH_CASES ?? 'throughput,contention').split(',');
const rows: Row[] = [];
const notes: string[] = [];
for (const engine of ENGINES) {
  if (CASES.includes('throughput')) rows.push(...(await benchEngine(engine)));
  if (CASES.includes('contention')) {
    const { heavy, ...row } = await benchContention(engine);
    rows.push(row);
    notes.push(`${engine}: meanwhile ${heavy}`);
  }
}
printTable(rows);
for (const note of notes) console.log(`\n${note}`);

/**
 * "Sustained writes": does the write rate hold while the tables grow? Creates with 3 imported
 * messages at 8 connections for consecutive windows on fresh storage, the service and then the
 * bare baseline (bench/http/baseline-server.ts, on storage of its own that the service migrated
 * and gave an account and a contact); the last window's rate is compared with the first's.
 *
 *   BENCH_SUSTAINED_SECONDS=100   length of each run
 *   BENCH_SUSTAINED_WINDOW=20     seconds per window
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  call,
  createWithThreeMessages,
  freshStorage,
  load,
  startProcess,
  startService,
  type Engine,
  type Figures,
  type Row,
  type Storage,
} from './harness.ts';

const SECONDS = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 100);
const WINDOW = Number(process.env.BENCH_SUSTAINED_WINDOW ?? 20);
const CONNECTIONS = 8;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Each window's figures, in order. */
export type SustainedRun = Figures[];

async function windows(url: string, pathname: string, headers: Record<string, string>, body: () => string): Promise<SustainedRun> {
  const run: SustainedRun = [];
  for (let elapsed = 0; elapsed < SECONDS; elapsed += WINDOW) {
    run.push(
      await load({
        url,
        connections: CONNECTIONS,
        method: 'POST',
        headers,
        path: pathname,
        body,
        durationSeconds: WINDOW,
        warmUpSeconds: 0,
      }),
    );
  }
  return run;
}

/** The table's rows: each run's last window beside its first (in the baseline columns). */
export function sustainedRows(engine: Engine, runs: { service: SustainedRun; bare: SustainedRun }): Row[] {
  const what = `creates with 3 messages sustained: last ${WINDOW} s of ${SECONDS} s vs the first ${WINDOW} s`;
  const row = (run: SustainedRun) => ({ engine, connections: CONNECTIONS, service: run.at(-1)!, baseline: run[0]! });
  const held = (run: SustainedRun) => run.at(-1)!.requestsPerSecond >= 0.7 * run[0]!.requestsPerSecond;
  return [
    { case: `${what}`, ...row(runs.service), target: '>= 70% of the first', met: held(runs.service) },
    { case: `bare baseline: ${what}`, ...row(runs.bare), target: 'reference', met: true },
  ];
}

/** The service on `storage` (its first start); the contact the writes go to. */
async function serviceWithContact(storage: Storage) {
  const service = await startService(storage);
  const contact = await call<{ id: string }>(service.url, service.token, 'POST', '/v2/contacts', { name: 'Bench' });
  const account = await call<{ id: string }>(service.url, service.token, 'GET', '/v2/account');
  return { service, contactId: contact.id, accountId: account.id };
}

export async function benchSustained(engine: Engine): Promise<{ service: SustainedRun; bare: SustainedRun }> {
  const json = { 'content-type': 'application/json' };
  let service: SustainedRun;
  const ours = await freshStorage(engine);
  try {
    const { service: running, contactId } = await serviceWithContact(ours);
    try {
      service = await windows(
        running.url,
        '/v2/conversations',
        { ...json, authorization: `Bearer ${running.token}` },
        createWithThreeMessages(contactId),
      );
    } finally {
      await running.stop();
    }
  } finally {
    await ours.drop();
  }

  let bare: SustainedRun;
  const theirs = await freshStorage(engine);
  try {
    const seeded = await serviceWithContact(theirs);
    await seeded.service.stop();
    const baseline = await startProcess(
      ['--import', 'tsx', path.join(HERE, 'baseline-server.ts')],
      { ...theirs.env, BASELINE_ACCOUNT: seeded.accountId, BASELINE_CONTACT: seeded.contactId },
      /listening on (http:\/\/\S+)/,
    );
    try {
      bare = await windows(baseline.url, '/conversations', json, () => '{}');
    } finally {
      await baseline.stop();
    }
  } finally {
    await theirs.drop();
  }
  return { service, bare };
}

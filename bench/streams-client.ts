/**
 * The stream client of `npm run bench:streams` (bench/streams.ts), in a process of its
 * own (forked with an IPC channel) so that its CPU is not the service's and is reported
 * apart. Opens the streams it is told to (one socket each, plain node:http), notes when
 * each event arrives on each stream (epoch ms, the clock the writer's answers use) and on
 * which group's stream, and counts duplicates (an id at or below the stream's last one).
 * `finish` gets the writes' answer times and groups by key (the text of the message) and
 * answers with the delivery figures: an arrival on a stream of another group than its
 * write's is counted apart, as one that should not have happened.
 */
import http from 'node:http';
import { itemAt } from '../src/arrays.ts';

/** One stream to open: where, with which token (and Origin, as a page's widget sends it), and the group whose events it should get (an account, or a conversation). */
export interface StreamSpec {
  path: string;
  token: string;
  origin?: string;
  group: number;
}

export type ClientCommand =
  | { open: { url: string; streams: StreamSpec[]; concurrency: number } }
  | { finish: { answers: [key: string, answeredAt: number, group: number][] } }
  | 'close'
  | 'cpu'
  | 'arrived';

export interface DeliveryFigures {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Deliveries of the measured writes over what every stream of their group should have got. */
  delivered: number;
  expected: number;
  duplicates: number;
  /** Arrivals of a measured write's event on a stream of another group: a stream got what it does not read. */
  misdelivered: number;
}

interface Open {
  group: number;
  lastId: number;
  request: http.ClientRequest;
}

const now = () => performance.timeOrigin + performance.now();
const streams: Open[] = [];
const groupSizes = new Map<number, number>();
/** Per event id: the write's key (read from its data the first time it is seen), and when and on which group's stream it arrived. */
const arrivals = new Map<number, { key: string | undefined; deliveries: { at: number; group: number }[] }>();
let duplicates = 0;

function receive(stream: Open, text: string, at: number): void {
  for (const message of text.split('\n\n')) {
    if (!message.startsWith('id: ')) continue;
    const id = Number.parseInt(message.slice(4), 10);
    if (id <= stream.lastId) {
      duplicates++;
      continue;
    }
    stream.lastId = id;
    let seen = arrivals.get(id);
    if (!seen) arrivals.set(id, (seen = { key: /"text":"(bench-\d+)"/.exec(message)?.[1], deliveries: [] }));
    seen.deliveries.push({ at, group: stream.group });
  }
}

function openOne(url: string, spec: StreamSpec): Promise<boolean> {
  return new Promise((resolve) => {
    const stream: Open = { group: spec.group, lastId: 0, request: undefined as unknown as http.ClientRequest };
    const headers = { authorization: `Bearer ${spec.token}`, ...(spec.origin && { origin: spec.origin }) };
    stream.request = http.get(`${url}${spec.path}`, { agent: false, headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        resolve(false);
        return;
      }
      response.setEncoding('utf8');
      let rest = '';
      response.on('data', (chunk: string) => {
        const text = rest + chunk;
        const end = text.lastIndexOf('\n\n');
        rest = text.slice(end + 2);
        if (end >= 0) receive(stream, text.slice(0, end + 2), now());
      });
      response.on('error', () => undefined);
      streams.push(stream);
      groupSizes.set(spec.group, (groupSizes.get(spec.group) ?? 0) + 1);
      resolve(true);
    });
    stream.request.on('error', () => resolve(false));
  });
}

async function open(url: string, specs: StreamSpec[], concurrency: number): Promise<{ ms: number; opened: number; refused: number }> {
  const started = performance.now();
  let next = 0;
  let opened = 0;
  const worker = async () => {
    while (next < specs.length) if (await openOne(url, itemAt(specs, next++))) opened++;
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: performance.now() - started, opened, refused: specs.length - opened };
}

function finish(answers: [string, number, number][]): DeliveryFigures {
  const byKey = new Map(answers.map(([key, at, group]) => [key, { at, group }]));
  const latencies: number[] = [];
  let expected = 0;
  let misdelivered = 0;
  for (const [, group] of byKey) expected += groupSizes.get(group.group) ?? 0;
  for (const { key, deliveries } of arrivals.values()) {
    const answer = key === undefined ? undefined : byKey.get(key);
    if (!answer) continue;
    for (const { at, group } of deliveries) {
      if (group === answer.group) latencies.push(at - answer.at);
      else misdelivered++;
    }
  }
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    p50: quantile(0.5),
    p95: quantile(0.95),
    p99: quantile(0.99),
    max: latencies.at(-1) ?? NaN,
    delivered: latencies.length,
    expected,
    duplicates,
    misdelivered,
  };
}

process.on('message', async (command: ClientCommand) => {
  if (command === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: (user + system) / 1000 });
  } else if (command === 'arrived') {
    let arrived = 0;
    for (const { deliveries } of arrivals.values()) arrived += deliveries.length;
    process.send?.({ arrived });
  } else if (command === 'close') {
    for (const stream of streams.splice(0)) stream.request.destroy();
    groupSizes.clear();
    arrivals.clear();
    duplicates = 0;
    process.send?.({ closed: true });
  } else if ('open' in command) {
    process.send?.({ opened: await open(command.open.url, command.open.streams, command.open.concurrency) });
  } else {
    process.send?.({ finished: finish(command.finish.answers) });
  }
});

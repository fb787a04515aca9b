/**
 * `npm run bench:events`: the event outbox and its readers, over real HTTP against
 * the real service (`chat-service serve`, bench/http/harness.ts), per engine:
 *
 * - writes: POST message at 32 connections to 100 conversations (each write
 *   records one event), with a webhook to a local receiver answering 200 at once;
 * - webhook deliveries/s to that receiver while the writes run, and how long the
 *   rest took to arrive after they stopped;
 * - one lane: PATCH agent status at 8 connections (every agent.updated event is
 *   in the account-level lane, delivered one at a time), deliveries/s;
 * - 1,000 open streams, idle: transactions/s the database commits for the whole
 *   instance (PostgreSQL only: pg_stat_database), nothing being written; then 20
 *   messages one at a time, each event's arrival timed on every stream.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_DURATION=10               seconds per measurement
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh databases
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { itemAt } from '../src/arrays.ts';
import { firstRow } from '../src/db/rows.ts';
import { ADMIN_URL, DURATION_S, call, freshStorage, load, startService, type Engine, type Service } from './http/harness.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const CONVERSATIONS = 100;
const IDLE_STREAMS = 1000;
/** Deliveries are over once none arrived for this long after the writes... */
const QUIET_MS = 3000;
/** ...or once this long has passed after them (a slow worker would take minutes). */
const MAX_DRAIN_MS = 30_000;

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
const fixed = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Receiver {
  url: string;
  /** Arrival times of the deliveries, in ms (performance.now()). */
  arrivals: number[];
  close(): void;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: number[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      response.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Waits until no delivery arrived for QUIET_MS (or MAX_DRAIN_MS passed); returns
 * when the last one came, or null when deliveries were still arriving.
 */
async function waitForQuiet(receiver: Receiver): Promise<number | null> {
  const deadline = performance.now() + MAX_DRAIN_MS;
  for (;;) {
    const last = receiver.arrivals.at(-1) ?? 0;
    if (performance.now() - last >= QUIET_MS) return last;
    if (performance.now() > deadline) return null;
    await sleep(200);
  }
}

/** Deliveries per second from `start` to the last one (or to now, when they were still arriving). */
const deliveryRate = (receiver: Receiver, start: number, last: number | null) =>
  receiver.arrivals.length / (((last ?? performance.now()) - start) / 1000);

interface Result extends StreamFigures {
  engine: Engine;
  writesPerSecond: number;
  deliveries: number;
  /** Seconds after the writes until the last delivery; null: still delivering after MAX_DRAIN_MS. */
  drainSeconds: number | null;
  laneWrites: number;
  laneDeliveries: number;
}

/** Transactions committed in `database` per second over `seconds`, nothing else running. */
async function transactionsPerSecond(databaseUrl: string, seconds: number): Promise<number> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const commits = async () => {
      // Statistics are flushed by the backends about once a second: take a fresh view.
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = $1', [database]);
      return Number(firstRow(rows).n);
    };
    const before = await commits();
    await sleep(seconds * 1000);
    return ((await commits()) - before) / seconds;
  } finally {
    await client.end();
  }
}

/** Messages written one at a time while the streams are open, to time their delivery. */
const LIVE_WRITES = 20;

interface StreamFigures {
  /** Transactions/s with the streams open and nothing written (PostgreSQL only). */
  idleTransactionsPerSecond: number | null;
  /** From sending a write to its event arriving on a stream, over every stream and write, ms. */
  deliveryP50: number;
  deliveryP99: number;
}

/**
 * Opens IDLE_STREAMS streams; measures the database's transactions/s while nothing
 * is written, then sends LIVE_WRITES messages one at a time and times each event's
 * arrival on every stream (from the moment its write was sent: an upper bound).
 */
async function streams(service: Service, engine: Engine, databaseUrl: string, conversationId: string): Promise<StreamFigures> {
  const controllers: AbortController[] = [];
  /** Per stream, when each contact_replied event arrived. */
  const arrivals: number[][] = [];
  try {
    for (let i = 0; i < IDLE_STREAMS; i++) {
      const controller = new AbortController();
      controllers.push(controller);
      const response = await fetch(`${service.url}/v2/events`, {
        headers: { authorization: `Bearer ${service.token}` },
        signal: controller.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      const seen: number[] = [];
      arrivals.push(seen);
      const decoder = new TextDecoder();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          const now = performance.now();
          for (const _ of decoder.decode(value, { stream: true }).matchAll(/^event: conversation\.contact_replied$/gm)) seen.push(now);
        }
      })();
    }
    await sleep(2000);
    const idle = engine === 'postgres' ? await transactionsPerSecond(databaseUrl, DURATION_S) : null;

    const latencies: number[] = [];
    for (let write = 0; write < LIVE_WRITES; write++) {
      const sent = performance.now();
      await call(service.url, service.token, 'POST', `/v2/conversations/${conversationId}/messages`, {
        sub_type: 'contact',
        text: `Live ${write}`,
      });
      const deadline = performance.now() + 5000;
      while (arrivals.some((seen) => seen.length <= write) && performance.now() < deadline) await sleep(5);
      for (const seen of arrivals) latencies.push(seen.length > write ? itemAt(seen, write) - sent : 5000);
    }
    latencies.sort((x, y) => x - y);
    const quantile = (q: number) => itemAt(latencies, Math.min(latencies.length - 1, Math.floor(q * latencies.length)));
    return { idleTransactionsPerSecond: idle, deliveryP50: quantile(0.5), deliveryP99: quantile(0.99) };
  } finally {
    for (const controller of controllers) controller.abort();
  }
}

async function benchEngine(engine: Engine): Promise<Result> {
  const storage = await freshStorage(engine);
  const receiver = await startReceiver();
  try {
    // The receiver listens on 127.0.0.1.
    const service = await startService(storage, { WEBHOOK_BLOCK_PRIVATE: 'false' });
    try {
      const api = (method: string, url: string, body?: unknown) => call(service.url, service.token, method, url, body);
      const contact = await api('POST', '/v2/contacts', { name: 'Bench' });
      const conversationIds: string[] = [];
      for (let i = 0; i < CONVERSATIONS; i++)
        conversationIds.push((await api('POST', '/v2/conversations', { contact_id: contact.id, text: `Seed ${i}` })).id);
      const agent = await api('POST', '/v2/agents', { email: `bench-${Date.now()}@example.com` });
      await api('POST', '/v2/webhooks', { url: receiver.url });
      const json = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };

      const writeStart = performance.now();
      const writes = await load({
        url: service.url,
        connections: 32,
        method: 'POST',
        headers: json,
        path: () => `/v2/conversations/${pick(conversationIds)}/messages`,
        body: JSON.stringify({ sub_type: 'contact', text: 'Hello again' }),
      });
      const writeEnd = performance.now();
      const lastDelivery = await waitForQuiet(receiver);
      const deliveries = deliveryRate(receiver, writeStart, lastDelivery);

      receiver.arrivals.length = 0;
      const laneStart = performance.now();
      let online = false;
      const lane = await load({
        url: service.url,
        connections: 8,
        method: 'PATCH',
        headers: json,
        path: `/v2/agents/${agent.id}`,
        body: () => {
          online = !online;
          return JSON.stringify({ status: online ? 'online' : 'offline' });
        },
      });
      const laneLast = await waitForQuiet(receiver);

      const open = await streams(service, engine, storage.location, itemAt(conversationIds, 0));
      return {
        engine,
        writesPerSecond: writes.requestsPerSecond,
        deliveries,
        drainSeconds: lastDelivery === null ? null : Math.max(0, lastDelivery - writeEnd) / 1000,
        laneWrites: lane.requestsPerSecond,
        laneDeliveries: deliveryRate(receiver, laneStart, laneLast),
        ...open,
      };
    } finally {
      await service.stop();
    }
  } finally {
    receiver.close();
    await storage.drop();
  }
}

const results: Result[] = [];
for (const engine of ENGINES) results.push(await benchEngine(engine));
console.log(
  '\n| engine | POST message req/s (32 conns) | webhook deliveries/s | last delivery after the writes (s) | one lane: PATCH agent req/s (8 conns) | one lane: deliveries/s | 1,000 idle streams: transactions/s | event to 1,000 streams p50 (ms) | p99 (ms) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${fixed(r.writesPerSecond)} | ${fixed(r.deliveries)} | ${r.drainSeconds === null ? `> ${MAX_DRAIN_MS / 1000}` : fixed(r.drainSeconds, 1)} | ${fixed(r.laneWrites)} | ${fixed(r.laneDeliveries)} | ` +
      `${r.idleTransactionsPerSecond === null ? 'n/a' : fixed(r.idleTransactionsPerSecond, 1)} | ${fixed(r.deliveryP50, 1)} | ${fixed(r.deliveryP99, 1)} |`,
  );
}

/**
 * `npm run bench:notify`: what the after-commit NOTIFY costs the write path (issue 22 §4). Two instances on one
 * fresh PostgreSQL database, 32 connections in all (16 on each), POST a message to one of 32 conversations, with
 * the NOTIFY and without it, in short windows alternating in the same run (PAIRS pairs, the order swapped every
 * other pair, so that the machine's drift falls on both modes alike); the cost is the median of the pairs' ratios.
 *
 * "Without it" replaces pg_notify for the database, between windows and without restarting anything: its
 * search_path puts `public` before `pg_catalog`, a no-op `public.pg_notify(text, text)` exists in that mode only,
 * and the instances run with DATABASE_PREPARED_STATEMENTS=off (each statement parsed, so the name is resolved
 * again each time). The service's batched notification statement (src/db/db.ts, Notifier) still runs but
 * notifies nobody: the difference is the NOTIFY itself (its queue, the global lock its commit takes).
 *
 *   BENCH_PAIRS=8 BENCH_WINDOW=4   pairs of windows, seconds per window
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh database
 *   BENCH_PORTS=8110    the two instances' ports (this and the next); free ones otherwise
 */
import os from 'node:os';
import pg from 'pg';
import { itemAt } from '../src/arrays.ts';
import { call, freshStorage, load, startProcess, startService, type RunningProcess } from './http/harness.ts';

const CONNECTIONS = 32;
const CONVERSATIONS = 32;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 8);
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? 4);
type Mode = 'notify' | 'no notify';

const storage = await freshStorage('postgres');
const db = new pg.Client({ connectionString: storage.location });
const running: RunningProcess[] = [];
const stopAll = async () => {
  for (const process of running.splice(0)) await process.stop();
};
try {
  await db.connect();
  await db.query(`alter database ${new URL(storage.location).pathname.slice(1)} set search_path = public, pg_catalog`);
  const ports: [number, number] = process.env.BENCH_PORTS ? [Number(process.env.BENCH_PORTS), Number(process.env.BENCH_PORTS) + 1] : [0, 0];
  // The first start migrates and creates the account; its token serves every later start.
  const first = await startService(storage, { PORT: String(ports[0]) });
  const token = first.token;
  const contact = await call<{ id: string }>(first.url, token, 'POST', '/v2/contacts', { name: 'Bench' });
  const conversations: string[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    conversations.push(
      (await call<{ id: string }>(first.url, token, 'POST', '/v2/conversations', { contact_id: contact.id, text: 'first' })).id,
    );
  }
  await first.stop();

  const start = async (port: number) => {
    const instance = await startProcess(
      [new URL('../bin/chat-service.js', import.meta.url).pathname, 'serve'],
      {
        ...storage.env,
        PORT: String(port),
        LOG_LEVEL: 'info',
        DATABASE_PREPARED_STATEMENTS: 'off',
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_BURST: '1000000',
      },
      /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"chat-service listening"/,
    );
    running.push(instance);
    return instance;
  };
  const instances = [await start(ports[0]), await start(ports[1])];
  const window = (mode: Mode) => async () => {
    await db.query(
      mode === 'notify'
        ? 'drop function if exists public.pg_notify(text, text)'
        : 'create or replace function public.pg_notify(text, text) returns void language plpgsql as $$ begin end $$',
    );
    const figures = await Promise.all(
      instances.map((instance) =>
        load({
          url: instance.url,
          connections: CONNECTIONS / instances.length,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          path: () => `/v2/conversations/${conversations[Math.floor(Math.random() * conversations.length)]}/messages`,
          body: JSON.stringify({ sub_type: 'contact', text: 'hello' }),
          durationSeconds: WINDOW_S,
          warmUpSeconds: 0,
        }),
      ),
    );
    return { total: figures.reduce((sum, f) => sum + f.requestsPerSecond, 0), failures: figures.reduce((sum, f) => sum + f.failures, 0) };
  };
  await window('notify')(); // warm-up
  const pairs: { notify: number; none: number }[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    const order: Mode[] = pair % 2 ? ['notify', 'no notify'] : ['no notify', 'notify'];
    // Filled below: `order` holds both modes.
    const measured = {} as Record<Mode, { total: number; failures: number }>;
    for (const mode of order) measured[mode] = await window(mode)();
    pairs.push({ notify: measured['notify'].total, none: measured['no notify'].total });
    console.log(
      `pair ${pair}: ${Math.round(measured['notify'].total)} req/s with the NOTIFY, ${Math.round(measured['no notify'].total)} without ` +
        `(${measured['notify'].failures + measured['no notify'].failures} failed)`,
    );
  }
  const ratios = pairs.map((p) => p.notify / p.none).sort((a, b) => a - b);
  const median = (itemAt(ratios, Math.floor((ratios.length - 1) / 2)) + itemAt(ratios, Math.ceil((ratios.length - 1) / 2))) / 2;
  const mean = (key: 'notify' | 'none') => pairs.reduce((sum, p) => sum + p[key], 0) / pairs.length;
  console.log(
    `bench:notify: ${CONNECTIONS} connections over 2 instances, POST message, ${PAIRS} pairs of ${WINDOW_S} s windows: ` +
      `${Math.round(mean('notify'))} req/s with the NOTIFY, ${Math.round(mean('none'))} without (means); ` +
      `the NOTIFY costs ${((1 - median) * 100).toFixed(1)} % of the throughput (median of the pairs; ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}) ` +
      `(load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
} finally {
  await stopAll();
  await db.query('drop function if exists public.pg_notify(text, text)').catch(() => undefined);
  await db.end().catch(() => undefined);
  await storage.drop();
}

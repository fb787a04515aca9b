/**
 * `npm run bench:partitions`: removing a month of events on PostgreSQL, by dropping its partition (the service's
 * event retention since migration 230: src/events/retention.ts) against the batched DELETE it replaced (the same
 * statement, batches of 1,000, on a plain table laid out as events was before migration 230), in the same run and
 * database: time, WAL written (pg_current_wal_lsn before and after) and the table's size after.
 *
 * Both tables hold BENCH_EVENTS events of one old month (removed) and a tenth as many of the next month (kept), over
 * 50 accounts, with a webhook per account whose cursor is past them all (as after delivery).
 *
 *   BENCH_EVENTS=1000000   events of the removed month
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh database
 */
import os from 'node:os';
import pg from 'pg';
import { openDb } from '../src/db/db.ts';
import { firstRow } from '../src/db/rows.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { deleteOldEvents } from '../src/events/retention.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = `partition_bench_${process.pid}`;
const ACCOUNTS = 50;
const OLD_MONTH = '2030-01-01T00:00:00Z';
const KEPT_MONTH = '2030-02-01T00:00:00Z';
/** The retention pass runs at this time with EVENT_RETENTION_DAYS=30: the cutoff is February's first instant. */
const NOW = new Date('2030-03-03T00:00:00Z');

const fixed = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fixed(bytes / 1024 / 1024, 1)} MB`;

/** Rows of events: `count` in the month starting at `month`, ids from `firstId`. */
const fill = (table: string, firstId: number, count: number, month: string) => `
  insert into ${table} (account_id, id, type, conversation_id, data, created_at)
  select 'ac' || (i % ${ACCOUNTS}), i, 'conversation.contact_replied', 'co' || (i % 20000),
         jsonb_build_object('conversation', jsonb_build_object('id', 'co' || (i % 20000), 'status', 'open'),
                            'message', jsonb_build_object('id', 'ms' || i, 'text', repeat('x', 60))),
         '${month}'::timestamptz + (i - ${firstId}) * (2500000.0 / ${count}) * interval '1 second'
  from generate_series(${firstId}, ${firstId + count - 1}) i`;

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  const db = await openDb({ databaseUrl: url.toString() });
  try {
    await migrate(db);
    const q = async <R>(sql: string, params: unknown[] = []) => (await db.query<R>(sql, params)).rows;
    const one = async <R>(sql: string, params: unknown[] = []) => firstRow(await q<R>(sql, params));
    console.log(
      `bench:partitions — ${fixed(EVENTS)} events of a month removed, ${fixed(EVENTS / 10)} of the next kept; PostgreSQL ${
        (await one<{ v: string }>("select current_setting('server_version') as v")).v
      }`,
    );
    console.log(
      `load average at start: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(', ')}`,
    );

    // Accounts and webhooks whose cursors are past every event: nothing is held back for delivery.
    await q(`insert into accounts (account_id, name, api_key_hash, created_at, updated_at)
             select 'ac' || i, 'bench', 'h' || i, now(), now() from generate_series(0, ${ACCOUNTS - 1}) i`);
    await q(`insert into webhooks (account_id, id, url, secret, queued_through_event_id, created_at)
             select 'ac' || i, 'wh' || i, 'https://example.com/hook', 's', ${EVENTS * 2}, now() from generate_series(0, ${ACCOUNTS - 1}) i`);
    // The baseline: events as it was before migration 230, one plain table with the same indexes.
    await q(`create table events_plain (account_id text not null references accounts (account_id), id bigint not null,
               type text not null, conversation_id text, data jsonb not null, created_at timestamptz not null,
               primary key (account_id, id));
             create index events_plain_created_at on events_plain (created_at);
             create index events_plain_id on events_plain (id);
             create index events_plain_conversation on events_plain (account_id, conversation_id) where conversation_id is not null`);
    await q(`select chat_month_partition('events', $1), chat_month_partition('events', $2)`, [OLD_MONTH, KEPT_MONTH]);
    for (const table of ['events', 'events_plain']) {
      const started = performance.now();
      await q(fill(table, 1, EVENTS, OLD_MONTH));
      await q(fill(table, EVENTS + 1, EVENTS / 10, KEPT_MONTH));
      await q(`vacuum analyze ${table === 'events' ? 'events_p203001, events_p203002' : table}`);
      console.log(`filled ${table} in ${fixed((performance.now() - started) / 1000, 1)} s`);
    }
    await q('checkpoint');

    const size = async (table: string) =>
      Number(
        (
          await one<{ n: number }>(
            `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 as n from pg_class c
             where c.oid = $1::regclass or c.oid in (select inhrelid from pg_inherits where inhparent = $1::regclass)`,
            [table],
          )
        ).n,
      );
    const lsn = async () => (await one<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).lsn;
    const wal = async (from: string) =>
      Number((await one<{ n: number }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::int8 as n', [from])).n);
    const count = async (table: string) => Number((await one<{ n: number }>(`select count(*)::int8 as n from ${table}`)).n);

    interface Result {
      way: string;
      seconds: number;
      removed: number;
      wal: number;
      before: number;
      after: number;
      vacuumed: number | null;
    }
    const results: Result[] = [];

    // Batched DELETE: the retention statement of before migration 230, on the plain table.
    {
      const before = await size('events_plain');
      const from = await lsn();
      const started = performance.now();
      let removed = 0;
      for (;;) {
        const { rowCount } = await db.query(
          `with batch as (
             select e.account_id, e.id from events_plain e
             where e.created_at < $1
               and not exists (select 1 from webhooks w where w.account_id = e.account_id and w.queued_through_event_id < e.id)
               and not exists (select 1 from webhook_deliveries d where d.account_id = e.account_id and d.event_id = e.id)
             limit 1000
             for update of e skip locked
           )
           delete from events_plain e using batch b where e.account_id = b.account_id and e.id = b.id`,
          [new Date(NOW.getTime() - 30 * 86_400_000)],
        );
        removed += rowCount ?? 0;
        if ((rowCount ?? 0) < 1000) break;
      }
      const seconds = (performance.now() - started) / 1000;
      const written = await wal(from);
      const after = await size('events_plain');
      await q('vacuum events_plain');
      results.push({
        way: 'batched DELETE (1,000 per statement)',
        seconds,
        removed,
        wal: written,
        before,
        after,
        vacuumed: await size('events_plain'),
      });
    }

    // Dropping the month's partition: the service's own retention pass.
    {
      const before = await size('events');
      const from = await lsn();
      const started = performance.now();
      const config = { ...loadConfig({}), eventRetentionDays: 30 };
      const removed = await deleteOldEvents({ db, config, now: () => NOW });
      const seconds = (performance.now() - started) / 1000;
      const written = await wal(from);
      results.push({
        way: 'drop the month partition (deleteOldEvents)',
        seconds,
        removed,
        wal: written,
        before,
        after: await size('events'),
        vacuumed: null,
      });
    }
    if ((await count('events')) !== EVENTS / 10 || (await count('events_plain')) !== EVENTS / 10)
      throw new Error('the next month was not kept whole');

    console.log(`\n| Way | Removed | Time | WAL written | Table before | Table after | After VACUUM |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|`);
    for (const r of results) {
      console.log(
        `| ${r.way} | ${fixed(r.removed)} | ${fixed(r.seconds, 2)} s | ${mb(r.wal)} | ${mb(r.before)} | ${mb(r.after)} | ${r.vacuumed === null ? '—' : mb(r.vacuumed)} |`,
      );
    }
    console.log(
      `\nload average at end: ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(', ')}`,
    );
  } finally {
    await db.close();
    await admin.query(`drop database if exists ${NAME} with (force)`);
    await admin.end();
  }
}

await main();

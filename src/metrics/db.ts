import { Counter, Gauge } from 'prom-client';
import { PGLITE_CONNECTIONS, type Db, type Queryable } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';
import { FALLBACK_REASONS } from '../db/replica.ts';
import { timed, type Metrics } from './metrics.ts';

type Lane = 'small' | 'heavy';

/**
 * `db` with every statement and transaction timed and counted in flight, by lane (small, or
 * heavy for `db.heavy`), and with gauges read at scrape time: the connections and the queues
 * in front of them, and the outbox backlog (what webhooks still have to deliver). Everything
 * else of `db` passes through.
 */
export function measuredDb(db: Db, metrics: Metrics): Db {
  const measure =
    (queryable: Queryable, lane: Lane): Queryable['query'] =>
    async (sql, params) => {
      metrics.dbQueriesInFlight.inc();
      try {
        return await timed(metrics.dbQueryDuration, { kind: 'query', lane }, () => queryable.query(sql, params));
      } finally {
        metrics.dbQueriesInFlight.dec();
      }
    };
  const view = (target: Db, lane: Lane): Db => ({
    ...target,
    query: measure(target, lane),
    transaction: (fn) =>
      timed(metrics.dbQueryDuration, { kind: 'transaction', lane }, () =>
        target.transaction((tx) => fn({ ...tx, query: measure(tx, lane) })),
      ),
    get heavy() {
      return heavy;
    },
    get maintenance() {
      return maintenance;
    },
    get reads() {
      return reads;
    },
  });
  const heavy = view(db.heavy, 'heavy');
  const maintenance = view(db.maintenance, 'heavy');
  const reads = db.reads === db.heavy ? heavy : view(db.reads, 'heavy');
  registerPoolGauges(db, metrics);
  registerReplicaMetrics(db, metrics);
  registerOutboxGauges(db, metrics);
  return view(db, 'small');
}

function registerPoolGauges(db: Db, metrics: Metrics) {
  const registers = [metrics.registry];
  new Gauge({
    name: 'chat_db_pool_size',
    help: `Database connections this instance may use at once (PGlite: ${PGLITE_CONNECTIONS}, sharing one backend)`,
    registers,
    collect() {
      this.set(db.poolState().size);
    },
  });
  new Gauge({
    name: 'chat_db_pool_busy',
    help: 'Database connections in use, by lane: small statements, or heavy ones (statistics, legacy export, maintenance)',
    labelNames: ['lane'],
    registers,
    collect() {
      const { busy } = db.poolState();
      this.set({ lane: 'small' }, busy.small);
      this.set({ lane: 'heavy' }, busy.heavy);
    },
  });
  new Gauge({
    name: 'chat_db_pool_waiting',
    help: 'Statements and transactions waiting for a database connection, by lane',
    labelNames: ['lane'],
    registers,
    collect() {
      const { waiting } = db.poolState();
      this.set({ lane: 'small' }, waiting.small);
      this.set({ lane: 'heavy' }, waiting.heavy);
    },
  });
}

/**
 * The read replica (DATABASE_READ_URL, src/db/replica.ts), when there is one: heavy reads by where they ran,
 * the reads meant for the replica that ran on the primary by why, and the replica's lag as this instance sees it.
 */
function registerReplicaMetrics(db: Db, metrics: Metrics) {
  if (!db.replicaState()) return;
  const registers = [metrics.registry];
  const state = () => db.replicaState()!;
  new Counter({
    name: 'chat_db_reads_total',
    help: 'Heavy reads (statistics, legacy export, search) by where they ran: target="replica" or "primary"',
    labelNames: ['target'],
    registers,
    collect() {
      const { reads } = state();
      this.reset();
      this.inc({ target: 'replica' }, reads.replica);
      this.inc({ target: 'primary' }, reads.primary);
    },
  });
  new Counter({
    name: 'chat_db_replica_fallbacks_total',
    help: 'Heavy reads that ran on the primary instead of the replica, by reason: behind (it had not replayed the account’s last write within DATABASE_READ_WAIT_MS), lagging (more than DATABASE_READ_MAX_LAG_MS), down (it did not answer), conflict (cancelled by recovery, SQLSTATE 40001)',
    labelNames: ['reason'],
    registers,
    collect() {
      const { fallbacks } = state();
      this.reset();
      for (const reason of FALLBACK_REASONS) this.inc({ reason }, fallbacks[reason]);
    },
  });
  new Gauge({
    name: 'chat_db_replica_lag_seconds',
    help: 'How long ago this instance committed the oldest write the read replica has not replayed yet (0: none), as last measured',
    registers,
    collect() {
      this.set(state().lagMs / 1000);
    },
  });
}

/**
 * The outbox backlog, over every account (one instance's scrape sees the whole
 * database, like the webhook worker): aggregates over the pending deliveries (which
 * leave the table once delivered or given up), and the events past each webhook's
 * queue cursor (an index range per webhook: few rows while the queues keep up).
 */
function registerOutboxGauges(db: Db, metrics: Metrics) {
  const read = async () => {
    const { rows } = await db.query<{ pending: number; oldest_seconds: number | null; unqueued: number }>(
      `select (select count(*) from webhook_deliveries) as pending,
              (select extract(epoch from now() - min(queued_at))::float8 from webhook_deliveries) as oldest_seconds,
              (select count(*) from webhooks w
               join events e on e.account_id = w.account_id and e.id > w.queued_through_event_id) as unqueued`,
    );
    return firstRow(rows);
  };
  // One query per scrape serves the three gauges: a scrape calls every collect() at once,
  // so the first starts the query and the others share it until it answers.
  let current: Promise<Awaited<ReturnType<typeof read>>> | undefined;
  const snapshot = () => (current ??= read().finally(() => (current = undefined)));
  const gauge = (name: string, help: string, value: (row: Awaited<ReturnType<typeof read>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        this.set(value(await snapshot()));
      },
    });
  gauge(
    'chat_outbox_pending_deliveries',
    'Webhook deliveries queued and not yet delivered or given up, all accounts',
    (row) => row.pending,
  );
  gauge('chat_outbox_oldest_pending_seconds', 'Age of the oldest webhook delivery still pending (0 when none), all accounts', (row) =>
    Math.max(0, row.oldest_seconds ?? 0),
  );
  gauge(
    'chat_outbox_unqueued_events',
    'Outbox events the webhook queues have not looked at yet, summed over webhooks',
    (row) => row.unqueued,
  );
}

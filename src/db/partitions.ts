// Month partitions (migration 230, docs/operations.md "Partitions"): messages, paths, events and webhook_deliveries
// are partitioned by month (UTC) of their time column, each with a default partition that takes the rows of a month
// without its own partition (imported history, a clock far off), so a write never fails for a missing partition.
// This module creates the months ahead of time and lists and drops them; which months may go is decided by each
// table's owner (src/events/retention.ts, src/conversations/retention.ts).
import type { Db, Queryable, Transaction } from './db.ts';
import { firstRow } from './rows.ts';

export const PARTITIONED_TABLES = ['messages', 'paths', 'events', 'webhook_deliveries'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** Months created after the current one: a month begins with its partition in place even after weeks without a pass. */
export const MONTHS_AHEAD = 3;

// Any constant works; it keeps two instances from changing partitions at once (src/db/migrate.ts has the schema's).
const PARTITION_LOCK_KEY = 727_2027;
/**
 * How long partition DDL waits for a table lock before giving up until the next pass: creating or dropping a
 * partition locks its parent, and requests queue behind a waiting lock, so it must not wait behind a long report.
 */
const DDL_LOCK_TIMEOUT = '2s';

export interface MonthPartition {
  table: PartitionedTable;
  /** The partition's own table, `<table>_pYYYYMM`. */
  name: string;
  /** The first instant of its month (UTC); it holds rows up to the next month's first instant. */
  month: Date;
}

/** The first instant (UTC) of the month `offset` months after the one holding `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/**
 * Runs `fn` holding the partition lock, or returns null at once when another instance holds it (that instance does
 * the same work). DDL inside waits at most DDL_LOCK_TIMEOUT for a table lock, then fails the pass.
 */
export function withPartitionLock<T>(db: Db, fn: (tx: Transaction) => Promise<T>): Promise<T | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [PARTITION_LOCK_KEY]);
    if (!firstRow(rows).locked) return null;
    await tx.query(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
    return fn(tx);
  });
}

/**
 * Creates every missing partition of the month holding `now` and the MONTHS_AHEAD after it, and of every month with
 * rows in a default partition (imported history, a clock that was far off), in every partitioned table
 * (chat_month_partition, migration 230: rows of those months in the default partition move in), so the default
 * partitions stay empty but for the rows written since the last pass. `from`: also every month from the one holding
 * it (a bulk insert of history about to be written: `chat-service demo-data`). Idempotent; several instances may run
 * it at once. Returns how many partitions it created.
 */
export async function createMonthPartitions(deps: { db: Db; now: () => Date }, from?: Date): Promise<number> {
  const now = deps.now();
  const first = from === undefined || from > now ? now : from;
  const count = (now.getUTCFullYear() - first.getUTCFullYear()) * 12 + now.getUTCMonth() - first.getUTCMonth() + MONTHS_AHEAD + 1;
  const ahead = Array.from({ length: count }, (_, offset) => monthStart(first, offset));
  const created = await withPartitionLock(deps.db, async (tx) => {
    let count = 0;
    for (const table of PARTITIONED_TABLES) {
      const { rows: stray } = await tx.query<{ month: Date }>(
        `select distinct date_trunc('month', ${partitionKey(table)} at time zone 'UTC') at time zone 'UTC' as month
         from ${defaultPartition(table)}`,
      );
      for (const month of [...ahead, ...stray.map((row) => row.month)]) {
        const { rows } = await tx.query<{ created: boolean }>('select chat_month_partition($1, $2) as created', [table, month]);
        if (firstRow(rows).created) count++;
      }
    }
    return count;
  });
  return created ?? 0;
}

/** The time column each table is partitioned by (migration 230). */
function partitionKey(table: PartitionedTable): string {
  return table === 'webhook_deliveries' ? 'queued_at' : 'created_at';
}

/** The month partitions of `table`, oldest first. */
export async function monthPartitions(db: Queryable, table: PartitionedTable): Promise<MonthPartition[]> {
  const { rows } = await db.query<{ name: string }>(
    `select c.relname::text as name from pg_inherits i
     join pg_class c on c.oid = i.inhrelid
     where i.inhparent = $1::regclass and c.relname ~ '_p[0-9]{6}$'
     order by c.relname`,
    [table],
  );
  return rows.map(({ name }) => {
    const digits = name.slice(-6);
    return { table, name, month: new Date(Date.UTC(Number(digits.slice(0, 4)), Number(digits.slice(4)) - 1, 1)) };
  });
}

/**
 * Drops, each in its own transaction under the partition lock, the month partitions of `table` whose whole month
 * lies before `before`, except those `keep` asks to keep (for now: a later pass asks again). A drop is catalog work:
 * no row is deleted one by one, so no WAL per row and nothing left for vacuum. Returns how many rows went with them.
 */
export async function dropMonthsBefore(
  db: Db,
  table: PartitionedTable,
  before: Date,
  keep: (tx: Transaction, partition: MonthPartition) => Promise<boolean> = async () => false,
): Promise<number> {
  let dropped = 0;
  for (const partition of await monthPartitions(db, table)) {
    if (monthStart(partition.month, 1) > before) break;
    if (!/^[a-z_]+_p[0-9]{6}$/.test(partition.name)) throw new Error(`not a month partition: ${partition.name}`);
    const rows = await withPartitionLock(db, async (tx) => {
      if (await keep(tx, partition)) return 0;
      const { rows: count } = await tx.query<{ n: number }>(`select count(*)::int8 as n from ${partition.name}`);
      await tx.query(`drop table ${partition.name}`);
      return firstRow(count).n;
    });
    // Another instance holds the lock: it is doing the same.
    if (rows === null) return dropped;
    dropped += rows;
  }
  return dropped;
}

/** The default partition of `table`: the rows of months without a partition of their own. */
export function defaultPartition(table: PartitionedTable): string {
  return `${table}_default`;
}

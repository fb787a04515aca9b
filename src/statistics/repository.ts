import type { Queryable } from '../db/db.ts';
import { itemAt } from '../arrays.ts';
import { SqlParams } from '../db/params.ts';
import type { BucketStart } from './format.ts';
import { METRICS, type DateInterval, type Field, type MetricName } from './metrics.ts';

/** Wall-clock times travel as text in this form, never as `timestamp` values (which pg would read in Node's zone). */
const WALL_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS'`;

/** The instants that local wall-clock times (`YYYY-MM-DDTHH:MM:SS[.mmm]`) denote in `timeZone`, in order. */
export async function resolveLocalTimes(db: Queryable, timeZone: string, walls: string[]): Promise<Date[]> {
  if (walls.length === 0) return [];
  const { rows } = await db.query<{ at: Date }>(
    `select (u.wall::timestamp at time zone $1) as at
     from unnest($2::text[]) with ordinality as u(wall, position) order by u.position`,
    [timeZone, walls],
  );
  return rows.map((row) => row.at);
}

export type Level = { type: 'date'; interval: DateInterval } | { type: 'terms'; field: Field };

export interface AggregateQuery {
  accountId: string;
  metric: MetricName;
  timeZone: string;
  /** Inclusive lower bound, or null for an open start. */
  from: Date | null;
  /** Exclusive upper bound, or null for an open end. */
  until: Date | null;
  /** Each filter keeps rows whose field equals (arrays: contains) any of `values`, compared as text. */
  filters: { field: Field; values: string[] }[];
  levels: Level[];
}

export interface AggregateRow {
  /** 0 for the whole set, k for the buckets of the first k levels. */
  level: number;
  /** The bucket keys of levels 1..level: wall-clock starts for date levels, values for terms. */
  keys: string[];
  count: number;
  value: number;
  /** The first and last matching timestamps (read at level 0). */
  first_at: Date | null;
  last_at: Date | null;
}

/**
 * Per row of `base` (alias b): the expression a level groups by, and how a group's key is rendered as text.
 * Request values reach the SQL only through `param` (the interval too, though the schema allows six).
 */
function levelKey(
  level: Level,
  index: number,
  param: (value: unknown) => string,
): { rowKey: string; render: (key: string) => string; lateral?: string; nonNull?: string } {
  if (level.type === 'terms') {
    const column = `b.f${index}`;
    if (level.field.kind === 'array') {
      // One bucket per distinct element; null elements are left out.
      const alias = `e${index}`;
      return {
        rowKey: `${alias}.element collate "C"`,
        render: (key) => key,
        lateral: `cross join lateral (select distinct element from unnest(${column}) element where element is not null) ${alias}`,
      };
    }
    // Byte order ("C") groups the same values as the database collation, and sorts them far faster.
    return { rowKey: `${column}::text collate "C"`, render: (key) => key, nonNull: `${column} is not null` };
  }
  const wall = (timestamp: string) => `to_char(${timestamp}, ${WALL_FORMAT})`;
  switch (level.interval) {
    case 'day_of_week':
      // Represented by that weekday in the week of Monday 2024-01-01 (docs/behaviour.md §6).
      return {
        rowKey: 'extract(isodow from b.local_at)',
        render: (key) => wall(`timestamp '2023-12-31' + ${key}::int * interval '1 day'`),
      };
    case 'hour_of_day':
      return { rowKey: 'extract(hour from b.local_at)', render: (key) => wall(`timestamp '2024-01-01' + ${key}::int * interval '1 hour'`) };
    default:
      return { rowKey: `date_trunc(${param(level.interval)}::text, b.local_at)`, render: wall };
  }
}

type LevelKey = ReturnType<typeof levelKey>;

/**
 * One `union all` arm per depth, each re-grouping the materialised rows: needed
 * when a level is a terms aggregation on an array field, whose unnesting must
 * not repeat a row in the levels above it.
 */
function byArms(base: string, keys: LevelKey[], valueOf: string, limit: number): string {
  const arms = [
    `select 0 as level, null::text as k1, null::text as k2, null::text as k3, count(*)::int as count, ${valueOf} as value,
            min(x.at) as first_at, max(x.at) as last_at
     from base x`,
  ];
  for (let depth = 1; depth <= keys.length; depth++) {
    const used = keys.slice(0, depth);
    const columns = [0, 1, 2].map((i) => used[i]?.render(`x.k${i}`) ?? 'null::text');
    const where = used.flatMap((key) => (key.nonNull ? [key.nonNull] : []));
    arms.push(
      `(select ${depth}, ${columns.join(', ')}, count(*)::int, ${valueOf}, null::timestamptz, null::timestamptz
        from (select ${used.map((key, i) => `${key.rowKey} as k${i}`).join(', ')}, b.value
              from base b ${used.flatMap((key) => (key.lateral ? [key.lateral] : [])).join(' ')}
              ${where.length > 0 ? `where ${where.join(' and ')}` : ''}) x
        group by ${used.map((_, i) => `x.k${i}`).join(', ')}
        limit ${Number(limit)})`,
    );
  }
  return `with base as materialized (${base})
    ${arms.join('\nunion all\n')}`;
}

/**
 * One pass of `group by rollup`: the whole set and every prefix of the levels,
 * each with its own median (about a third faster than the arms). Rolled-up key
 * columns read as null, so `grouping()` tells a depth's groups apart from terms
 * groups whose value is null, which are left out. Ordered by depth, so the
 * whole set and every parent come before the groups a limit might cut.
 */
function byRollup(base: string, keys: LevelKey[], valueOf: string, limit: number): string {
  const grouped = (i: number) => `(1 - grouping(x.k${i}))`;
  const level = keys.length === 0 ? '0' : keys.map((_, i) => grouped(i)).join(' + ');
  const columns = [0, 1, 2].map((i) => keys[i]?.render(`x.k${i}`) ?? 'null::text');
  const nonNull = keys.flatMap((key, i) => (key.nonNull ? [`(grouping(x.k${i}) = 1 or x.k${i} is not null)`] : []));
  return `
    select ${level} as level, ${columns.map((column, i) => `${column} as k${i + 1}`).join(', ')}, count(*)::int as count, ${valueOf} as value,
           min(x.at) as first_at, max(x.at) as last_at
    from (select b.at, b.value${keys.map((key, i) => `, ${key.rowKey} as k${i}`).join('')} from (${base}) b) x
    group by ${keys.length === 0 ? '()' : `rollup (${keys.map((_, i) => `x.k${i}`).join(', ')})`}
    ${nonNull.length > 0 ? `having ${nonNull.join(' and ')}` : ''}
    order by level
    limit ${Number(limit) + 1}`;
}

/**
 * One statement computes the whole-set aggregate and, for each nesting depth k,
 * the aggregate of every combination of the first k levels' keys, each over
 * its own rows (so every bucket has a true median of its subset). Rows are
 * filtered by account and time range first, through the (account_id, time)
 * indexes, then bucketed in the request's zone. When there are more than
 * `limit` groups, not all are returned, but more than `limit` are: enough to
 * tell that the response would exceed its bucket budget.
 */
export async function aggregate(db: Queryable, query: AggregateQuery, limit: number): Promise<AggregateRow[]> {
  const { sql, params } = aggregateSql(query, limit);
  const { rows } = await db.query<
    { level: number; k1: string | null; k2: string | null; k3: string | null } & Omit<AggregateRow, 'keys' | 'level'>
  >(sql, params);
  return rows.map((row) => ({
    level: row.level,
    keys: [row.k1, row.k2, row.k3].slice(0, row.level) as string[],
    count: row.count,
    value: row.value,
    first_at: row.first_at,
    last_at: row.last_at,
  }));
}

/**
 * The statement of aggregate() and its parameters. SQL text comes only from this
 * module and METRICS/FIELDS; every value of the request is a parameter
 * (repository.test.ts pins the text for a few requests).
 */
export function aggregateSql(query: AggregateQuery, limit: number): { sql: string; params: unknown[] } {
  const metric = METRICS[query.metric];
  const params = new SqlParams();
  const param = (value: unknown) => params.add(value);
  const { account, zone } = params.addAll({ account: query.accountId, zone: query.timeZone });
  const conditions = [`s.account_id = ${account}`, metric.where];
  if (query.from) conditions.push(`${metric.time} >= ${param(query.from)}::timestamptz`);
  if (query.until) conditions.push(`${metric.time} < ${param(query.until)}::timestamptz`);
  for (const filter of query.filters) {
    conditions.push(
      filter.field.kind === 'array'
        ? `${filter.field.sql} && ${param(filter.values)}::text[]`
        : `(${filter.field.sql})::text = any(${param(filter.values)}::text[])`,
    );
  }
  const termColumns = query.levels.map((level, i) => (level.type === 'terms' ? `, ${level.field.sql} as f${i}` : '')).join('');
  const valueOf = {
    median: 'coalesce(percentile_cont(0.5) within group (order by x.value), 0)',
    sum: 'coalesce(sum(x.value), 0)::float8',
    count: 'count(*)::float8',
  }[metric.aggregate];

  const keys = query.levels.map((level, i) => levelKey(level, i, param));
  const base = `
    select ${metric.time} as at, ${metric.time} at time zone ${zone} as local_at, ${metric.value ?? 'null::float8'} as value${termColumns}
    from ${metric.table} s
    where ${conditions.join(' and ')}`;
  const sql = keys.some((key) => key.lateral) ? byArms(base, keys, valueOf, limit) : byRollup(base, keys, valueOf, limit);
  return { sql, params: params.values };
}

/**
 * Bucket starts of a calendar interval covering [first, last] in the zone (weeks
 * start on Monday), with the instant each denotes; at most `limit`.
 */
export async function calendarAxis(
  db: Queryable,
  timeZone: string,
  interval: 'day' | 'week' | 'month' | 'year',
  first: Date,
  last: Date,
  limit: number,
): Promise<BucketStart[]> {
  const { rows } = await db.query<{ wall: string; at: Date }>(
    `select to_char(g, ${WALL_FORMAT}) as wall, g at time zone $1 as at
     from generate_series(date_trunc($2, $3::timestamptz at time zone $1), date_trunc($2, $4::timestamptz at time zone $1), $5::interval) g
     limit ${Number(limit)}`,
    [timeZone, interval, first, last, `1 ${interval}`],
  );
  return rows;
}

/** The instants fixed wall-clock times denote in the zone. */
export async function wallInstants(db: Queryable, timeZone: string, walls: string[]): Promise<BucketStart[]> {
  const instants = await resolveLocalTimes(db, timeZone, walls);
  return walls.map((wall, i) => ({ wall, at: itemAt(instants, i) }));
}

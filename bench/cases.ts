/**
 * The benchmark's statistics requests and, for each, hand-written SQL computing
 * the same aggregates over the same rows: the floor the endpoint is measured
 * against. The baselines are written independently of src/statistics on
 * purpose (docs/behaviour.md §6 is their specification), so the benchmark also checks
 * that both agree on the totals.
 */
import type { Db } from '../src/db/db.ts';

export type CaseId = 'thirty_days' | 'year_by_week_and_agent' | 'nested';

export interface BenchCase {
  id: CaseId;
  title: string;
  accountId: string;
  timeZone: string;
  /** Local wall-clock range, inclusive, as sent to the endpoint. */
  from: string;
  to: string;
  body: Record<string, unknown>;
  /** p50 targets in milliseconds (issue 4), by engine. */
  targets: { postgres?: number; pglite?: number };
}

/** count and value of each entry of a response, by entry key. */
export type Totals = Record<string, { count: number; value: number }>;

const METRICS = {
  response_time: {
    table: 'messages',
    time: 'created_at',
    where: 'is_reply',
    value: 'percentile_cont(0.5) within group (order by response_time)',
  },
  first_response_time: {
    table: 'messages',
    time: 'created_at',
    where: 'is_first_reply',
    value: 'percentile_cont(0.5) within group (order by response_time)',
  },
  time_to_close: {
    table: 'conversations',
    time: 'finished_at',
    where: 'finished_at is not null',
    value: 'percentile_cont(0.5) within group (order by extract(epoch from finished_at - created_at))',
  },
  time_to_close_sum: {
    table: 'conversations',
    time: 'finished_at',
    where: 'finished_at is not null',
    value: 'sum(extract(epoch from finished_at - created_at))',
  },
  new_conversation: { table: 'conversations', time: 'created_at', where: 'true', value: 'count(*)' },
  closed_conversation: { table: 'conversations', time: 'finished_at', where: 'finished_at is not null', value: 'count(*)' },
  conversation_ratings: { table: 'conversations', time: 'rated_at', where: 'rated_at is not null', value: 'count(*)' },
} as const;
type MetricName = keyof typeof METRICS;

/** The local calendar date of `at` in `timeZone`, `days` days earlier. */
function localDate(at: Date, timeZone: string, daysBefore: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return new Date(Date.parse(`${today}T00:00:00Z`) - daysBefore * 86_400_000).toISOString().slice(0, 10);
}

export function benchCases(accountId: string, timeZone: string, endsAt: Date): BenchCase[] {
  const to = `${localDate(endsAt, timeZone, 0)}T23:59:59`;
  const lastDays = (days: number) => ({ from: `${localDate(endsAt, timeZone, days - 1)}T00:00:00`, to });
  const month = lastDays(30);
  const year = lastDays(365);
  return [
    {
      id: 'thirty_days',
      title: 'all 7 metrics, last 30 days by day',
      accountId,
      timeZone,
      ...month,
      body: Object.fromEntries(
        Object.keys(METRICS).map((name) => [name, { name, range: month, aggs: [{ type: 'date', interval: 'day' }] }]),
      ),
      targets: { postgres: 150, pglite: 600 },
    },
    {
      id: 'year_by_week_and_agent',
      title: 'response_time, 1 year by week > terms agent_id',
      accountId,
      timeZone,
      ...year,
      body: {
        response_time: {
          name: 'response_time',
          range: year,
          aggs: [
            { type: 'date', interval: 'week' },
            { type: 'terms', field: 'agent_id' },
          ],
        },
      },
      targets: {},
    },
    {
      id: 'nested',
      title: 'response_time, last 30 days: terms group_id > day_of_week > hour_of_day',
      accountId,
      timeZone,
      ...month,
      body: {
        response_time: {
          name: 'response_time',
          range: month,
          aggs: [
            { type: 'terms', field: 'group_id' },
            { type: 'date', interval: 'day_of_week' },
            { type: 'date', interval: 'hour_of_day' },
          ],
        },
      },
      targets: { postgres: 300 },
    },
  ];
}

/** Rows of one metric in the case's range: $1 account, $2 from, $3 to (local, inclusive to the second), $4 zone. */
function inRange(metric: MetricName): string {
  const { table, time, where } = METRICS[metric];
  return `from ${table} where account_id = $1 and ${where}
            and ${time} >= ($2::timestamp at time zone $4) and ${time} < ($3::timestamp at time zone $4) + interval '1 second'`;
}

async function totalsOf(db: Db, bench: BenchCase, metric: MetricName, sql: string): Promise<Totals> {
  const { rows } = await db.query<{ total: boolean; count: number; value: number | null }>(sql, [
    bench.accountId,
    bench.from,
    bench.to,
    bench.timeZone,
  ]);
  const total = rows.find((row) => row.total);
  return { [metric]: { count: total?.count ?? 0, value: Number(total?.value ?? 0) } };
}

export const BASELINES: Record<CaseId, (db: Db, bench: BenchCase) => Promise<Totals>> = {
  async thirty_days(db, bench) {
    const perMetric = await Promise.all(
      (Object.keys(METRICS) as MetricName[]).map((metric) => {
        const { time, value } = METRICS[metric];
        return totalsOf(
          db,
          bench,
          metric,
          `select grouping(date_trunc('day', ${time} at time zone $4)) = 1 as total, count(*)::int as count, ${value} as value
           ${inRange(metric)}
           group by grouping sets ((date_trunc('day', ${time} at time zone $4)), ())`,
        );
      }),
    );
    return Object.assign({}, ...perMetric);
  },

  year_by_week_and_agent(db, bench) {
    return totalsOf(
      db,
      bench,
      'response_time',
      `select grouping(week) = 1 as total, count(*)::int as count, percentile_cont(0.5) within group (order by response_time) as value
       from (select date_trunc('week', created_at at time zone $4) as week, agent_id, response_time ${inRange('response_time')}) r
       group by grouping sets ((), (week), (week, agent_id))`,
    );
  },

  nested(db, bench) {
    return totalsOf(
      db,
      bench,
      'response_time',
      `select grouping(group_id) = 1 as total, count(*)::int as count, percentile_cont(0.5) within group (order by response_time) as value
       from (select group_id, extract(isodow from created_at at time zone $4) as weekday, extract(hour from created_at at time zone $4) as hour,
                    response_time ${inRange('response_time')}) r
       group by grouping sets ((), (group_id), (group_id, weekday), (group_id, weekday, hour))
       having grouping(group_id) = 1 or group_id is not null`,
    );
  },
};

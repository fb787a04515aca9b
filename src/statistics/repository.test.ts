import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateSql, type AggregateQuery } from './repository.ts';
import { FIELDS } from './metrics.ts';

/** Compared with whitespace collapsed: the builders' indentation is not part of the statement. */
const flat = (sql: string) => sql.replace(/\s+/g, ' ').trim();

const WALL = `'YYYY-MM-DD"T"HH24:MI:SS'`;

/**
 * The SQL text the statistics builder writes for a few requests, pinned: any change
 * to it shows here. Every value of a request (account, zone, range, filter values,
 * the date interval) is a parameter; the text comes from repository.ts and METRICS only.
 */
describe('statistics SQL', () => {
  it('a date level by rollup: the interval is a parameter, not text', () => {
    const query: AggregateQuery = {
      accountId: 'acc1',
      metric: 'response_time',
      timeZone: 'Europe/Prague',
      from: new Date('2024-03-01T00:00:00Z'),
      until: new Date('2024-04-01T00:00:00Z'),
      filters: [{ field: FIELDS.message.group_id!, values: ['g1', 'g2'] }],
      levels: [{ type: 'date', interval: 'month' }],
    };
    const { sql, params } = aggregateSql(query, 10_000);
    assert.equal(
      flat(sql),
      flat(`
        select (1 - grouping(x.k0)) as level, to_char(x.k0, ${WALL}) as k1, null::text as k2, null::text as k3, count(*)::int as count,
               coalesce(percentile_cont(0.5) within group (order by x.value), 0) as value, min(x.at) as first_at, max(x.at) as last_at
        from (select b.at, b.value, date_trunc($6::text, b.local_at) as k0
              from ( select s.created_at as at, s.created_at at time zone $2 as local_at, s.response_time as value
                     from messages s
                     where s.account_id = $1 and s.is_reply and s.created_at >= $3::timestamptz and s.created_at < $4::timestamptz
                       and (s.group_id)::text = any($5::text[])) b) x
        group by rollup (x.k0)
        order by level
        limit 10001`),
    );
    assert.deepEqual(params, ['acc1', 'Europe/Prague', query.from, query.until, ['g1', 'g2'], 'month']);
    assert.doesNotMatch(sql, /month|Prague|acc1|g1/);
  });

  it('a terms level on an array field by union arms: the interval is one parameter, written in every arm', () => {
    const { sql, params } = aggregateSql(
      {
        accountId: 'acc1',
        metric: 'new_conversation',
        timeZone: 'UTC',
        from: null,
        until: null,
        filters: [{ field: FIELDS.conversation.tags!, values: ['t1'] }],
        levels: [
          { type: 'date', interval: 'week' },
          { type: 'terms', field: FIELDS.conversation.tags! },
        ],
      },
      10_000,
    );
    assert.equal(
      flat(sql),
      flat(`
        with base as materialized (
          select s.created_at as at, s.created_at at time zone $2 as local_at, null::float8 as value, s.tags as f1
          from conversations s where s.account_id = $1 and true and s.tags && $3::text[])
        select 0 as level, null::text as k1, null::text as k2, null::text as k3, count(*)::int as count, count(*)::float8 as value,
               min(x.at) as first_at, max(x.at) as last_at
        from base x
        union all
        (select 1, to_char(x.k0, ${WALL}), null::text, null::text, count(*)::int, count(*)::float8, null::timestamptz, null::timestamptz
         from (select date_trunc($4::text, b.local_at) as k0, b.value from base b ) x
         group by x.k0 limit 10000)
        union all
        (select 2, to_char(x.k0, ${WALL}), x.k1, null::text, count(*)::int, count(*)::float8, null::timestamptz, null::timestamptz
         from (select date_trunc($4::text, b.local_at) as k0, e1.element collate "C" as k1, b.value
               from base b cross join lateral (select distinct element from unnest(b.f1) element where element is not null) e1 ) x
         group by x.k0, x.k1 limit 10000)`),
    );
    assert.deepEqual(params, ['acc1', 'UTC', ['t1'], 'week']);
  });

  it('hour of day and terms on a text field: fixed expressions, no interval parameter', () => {
    const { sql, params } = aggregateSql(
      {
        accountId: 'acc1',
        metric: 'time_to_close',
        timeZone: 'UTC',
        from: null,
        until: null,
        filters: [],
        levels: [
          { type: 'date', interval: 'hour_of_day' },
          { type: 'terms', field: FIELDS.conversation.status! },
        ],
      },
      10_000,
    );
    assert.equal(
      flat(sql),
      flat(`
        select (1 - grouping(x.k0)) + (1 - grouping(x.k1)) as level,
               to_char(timestamp '2024-01-01' + x.k0::int * interval '1 hour', ${WALL}) as k1, x.k1 as k2, null::text as k3,
               count(*)::int as count, coalesce(percentile_cont(0.5) within group (order by x.value), 0) as value,
               min(x.at) as first_at, max(x.at) as last_at
        from (select b.at, b.value, extract(hour from b.local_at) as k0, b.f1::text collate "C" as k1
              from ( select s.finished_at as at, s.finished_at at time zone $2 as local_at,
                            extract(epoch from s.finished_at - s.created_at) as value, s.status as f1
                     from conversations s where s.account_id = $1 and s.finished_at is not null) b) x
        group by rollup (x.k0, x.k1)
        having (grouping(x.k1) = 1 or x.k1 is not null)
        order by level
        limit 10001`),
    );
    assert.deepEqual(params, ['acc1', 'UTC']);
  });
});

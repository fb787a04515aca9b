/**
 * Property tests: random small datasets built through the service, random
 * statistics requests, and every metric, bucket and nested bucket compared with
 * a deliberately simple reference written here: plain loops over the records
 * the service returned, and time-zone math done through Intl.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import { buildChat, type ChatSpec, type World } from '../test/chats.ts';
import { METRIC_NAMES, type MetricName } from './metrics.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'Europe/Prague', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Auckland', 'Pacific/Kiritimati'];
// Daylight-saving changes (Prague, New York, Auckland both ways) and an ISO-week year end.
const ANCHORS = [
  '2024-03-31T01:00:00Z',
  '2024-10-27T01:00:00Z',
  '2024-03-10T07:00:00Z',
  '2024-11-03T06:00:00Z',
  '2024-04-06T14:00:00Z',
  '2024-09-28T14:00:00Z',
  '2024-12-31T12:00:00Z',
].map(Date.parse);

// ------------------------------------------------------------------ reference: time zones through Intl

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock time a clock in `zone` shows at `ms`, as a UTC epoch (whole seconds). */
function wallOf(ms: number, zone: string): number {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  const parts = formatter.formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}
const offsetAt = (ms: number, zone: string) => wallOf(ms, zone) - Math.floor(ms / 1000) * 1000;

/** The instant a wall-clock time denotes; in a gap the offset before the change, in an overlap the one after (as PostgreSQL). */
function instantOf(wall: number, zone: string): number {
  const offsets = new Set<number>();
  for (let h = -48; h <= 48; h++) offsets.add(offsetAt(wall + h * HOUR, zone));
  const valid = [...offsets].filter((offset) => offsetAt(wall - offset, zone) === offset).map((offset) => wall - offset);
  if (valid.length > 0) return Math.max(...valid);
  return wall - offsetAt(wall - Math.max(...offsets), zone);
}

// ------------------------------------------------------------------ reference: buckets

type Interval = 'day' | 'week' | 'month' | 'year' | 'day_of_week' | 'hour_of_day';
type Agg = { type: 'date'; interval: Interval } | { type: 'terms'; field: string };

const ymd = (wall: number) => new Date(wall).toISOString().slice(0, 10);
const isoDay = (wall: number) => new Date(wall).getUTCDay() || 7;

/** The wall-clock start of the bucket holding wall-clock time `wall`. */
function bucketStart(wall: number, interval: Interval): number {
  const date = new Date(wall);
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  switch (interval) {
    case 'day':
      return Date.UTC(y, m, d);
    case 'week':
      return Date.UTC(y, m, d) - (isoDay(wall) - 1) * DAY;
    case 'month':
      return Date.UTC(y, m, 1);
    case 'year':
      return Date.UTC(y, 0, 1);
    case 'day_of_week':
      return Date.UTC(2024, 0, isoDay(wall));
    case 'hour_of_day':
      return Date.UTC(2024, 0, 1, date.getUTCHours());
  }
}

function nextStart(start: number, interval: Interval): number {
  const date = new Date(start);
  if (interval === 'month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  if (interval === 'year') return Date.UTC(date.getUTCFullYear() + 1, 0, 1);
  return start + (interval === 'week' ? 7 * DAY : interval === 'hour_of_day' ? HOUR : DAY);
}

/** Default key formats of docs/behaviour.md §6. */
function defaultKey(start: number, interval: Interval): string {
  switch (interval) {
    case 'day':
      return ymd(start);
    case 'week': {
      const thursday = new Date(start + 3 * DAY);
      const year = thursday.getUTCFullYear();
      const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
      return `${year}-W${String(week).padStart(2, '0')}`;
    }
    case 'month':
      return ymd(start).slice(0, 7);
    case 'year':
      return ymd(start).slice(0, 4);
    case 'day_of_week':
      return String(isoDay(start));
    case 'hour_of_day':
      return String(new Date(start).getUTCHours()).padStart(2, '0');
  }
}

// ------------------------------------------------------------------ reference: metrics

interface StatObject {
  at: number;
  value: number;
  fields: Json;
}

// The reference shares only the metric names with the service, not how they are computed.
type Metric = MetricName;
const METRICS = METRIC_NAMES;
const MESSAGE_FIELDS = [
  'trigger_id',
  'agent_id',
  'is_reply',
  'is_first_reply',
  'is_offline',
  'is_offline_reply',
  'group_id',
  'sub_type',
  'conversation_id',
];
const CONVERSATION_FIELDS = [
  'status',
  'group_id',
  'agent_ids',
  'assigned_ids',
  'rating_value',
  'domain',
  'tags',
  'channel',
  'close_type',
  'is_offline',
  'contact_id',
];
const isMessageMetric = (metric: Metric) => metric === 'response_time' || metric === 'first_response_time';

/** The objects a metric reads, with its timestamp and value, from the records the service returned. */
function objectsOf(metric: Metric, conversations: Json[]): StatObject[] {
  if (isMessageMetric(metric)) {
    const flag = metric === 'response_time' ? 'is_reply' : 'is_first_reply';
    return conversations.flatMap((c) =>
      c.messages
        .filter((m: Json) => m[flag])
        .map((m: Json) => ({ at: Date.parse(m.created_at), value: m.response_time, fields: { ...m, group_id: c.group_id } })),
    );
  }
  const fields = (c: Json) => ({ ...c, channel: 'default' });
  const closed = conversations.filter((c) => c.finished_at);
  const duration = (c: Json) => (Date.parse(c.finished_at) - Date.parse(c.created_at)) / 1000;
  switch (metric) {
    case 'time_to_close':
    case 'time_to_close_sum':
      return closed.map((c) => ({ at: Date.parse(c.finished_at), value: duration(c), fields: fields(c) }));
    case 'new_conversation':
      return conversations.map((c) => ({ at: Date.parse(c.created_at), value: 1, fields: fields(c) }));
    case 'closed_conversation':
      return closed.map((c) => ({ at: Date.parse(c.finished_at), value: 1, fields: fields(c) }));
    default:
      return conversations.filter((c) => c.rated_at).map((c) => ({ at: Date.parse(c.rated_at), value: 1, fields: fields(c) }));
  }
}

function aggregateOf(metric: Metric, objects: StatObject[]): number {
  if (objects.length === 0) return 0;
  if (metric === 'time_to_close_sum') return objects.reduce((sum, o) => sum + o.value, 0);
  if (metric !== 'response_time' && metric !== 'first_response_time' && metric !== 'time_to_close') return objects.length;
  const sorted = objects.map((o) => o.value).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The keys an object has for a field: array fields one per distinct element, nulls none. */
function keysOf(object: StatObject, field: string): string[] {
  const value = object.fields[field];
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return [...new Set(value.filter((v) => v !== null).map(String))];
  return [String(value)];
}

interface Entry {
  name: Metric;
  range: { from: string | null; to: string | null };
  query: { field: string; value: unknown }[];
  aggs: Agg[];
}
interface Bucket {
  key: string;
  count: number;
  value: number;
  buckets: Bucket[] | null;
}

function rangeEnd(value: string | null, zone: string): number | null {
  if (value === null) return null;
  return value.endsWith('Z') ? Date.parse(value) : instantOf(Date.parse(`${value}Z`), zone);
}

/** The expected result of one entry, and how many buckets it holds. */
function reference(entry: Entry, conversations: Json[], zone: string): { result: Json; buckets: number } | { error: string } {
  const from = rangeEnd(entry.range.from, zone);
  const to = rangeEnd(entry.range.to, zone);
  const until = to === null ? null : to + 1000;
  if (from !== null && until !== null && from >= until) return { error: 'range.to' };
  const matching = objectsOf(entry.name, conversations).filter(
    (o) =>
      (from === null || o.at >= from) &&
      (until === null || o.at < until) &&
      entry.query.every((filter) => {
        const wanted = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
        return keysOf(o, filter.field).some((key) => wanted.includes(key));
      }),
  );
  const times = matching.map((o) => o.at);
  const first = from ?? (times.length ? Math.min(...times) : null);
  const last = until !== null ? until - 1 : times.length ? Math.max(...times) : null;
  let count = 0;

  const build = (level: number, objects: StatObject[]): Bucket[] => {
    const agg = entry.aggs[level]!;
    let members: { key: string; objects: StatObject[] }[];
    if (agg.type === 'terms') {
      const byKey = new Map<string, StatObject[]>();
      for (const o of objects) for (const key of keysOf(o, agg.field)) byKey.set(key, [...(byKey.get(key) ?? []), o]);
      members = [...byKey].map(([key, list]) => ({ key, objects: list }));
      members.sort((a, b) => b.objects.length - a.objects.length || (a.key < b.key ? -1 : 1));
    } else {
      const starts: number[] = [];
      if (agg.interval === 'day_of_week') for (let d = 1; d <= 7; d++) starts.push(Date.UTC(2024, 0, d));
      else if (agg.interval === 'hour_of_day') for (let h = 0; h < 24; h++) starts.push(Date.UTC(2024, 0, 1, h));
      else if (first !== null && last !== null) {
        const end = bucketStart(wallOf(last, zone), agg.interval);
        for (let s = bucketStart(wallOf(first, zone), agg.interval); s <= end; s = nextStart(s, agg.interval)) starts.push(s);
      }
      members = starts.map((start) => ({
        key: defaultKey(start, agg.interval),
        objects: objects.filter((o) => bucketStart(wallOf(o.at, zone), agg.interval) === start),
      }));
    }
    count += members.length;
    return members.map((m) => ({
      key: m.key,
      count: m.objects.length,
      value: aggregateOf(entry.name, m.objects),
      buckets: level + 1 < entry.aggs.length ? build(level + 1, m.objects) : null,
    }));
  };
  const buckets = entry.aggs.length > 0 ? build(0, matching) : null;
  return { result: { name: entry.name, value: aggregateOf(entry.name, matching), count: matching.length, buckets }, buckets: count };
}

function assertClose(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)), `${path}: ${actual} != ${expected}`);
  } else if (expected && typeof expected === 'object') {
    assert.ok(actual && typeof actual === 'object', `${path}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
    assert.deepEqual(Object.keys(actual as object), Object.keys(expected), `${path}: members`);
    for (const [key, value] of Object.entries(expected)) assertClose((actual as Json)[key], value, `${path}.${key}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

// ------------------------------------------------------------------ generators

const chatArb = fc.record({
  start: fc.oneof(
    fc.integer({ min: -3 * 86_400, max: 3 * 86_400 }),
    fc.integer({ min: -72, max: 72 }).chain((h) => fc.constantFrom(h * 3600, h * 3600 - 1, h * 3600 + 900)),
  ),
  then: fc.array(
    fc.record({ by: fc.constantFrom('contact', 'agent', 'agent', 'bot'), gap: fc.integer({ min: 1, max: 7200 }), agent: fc.nat(1) }),
    {
      maxLength: 4,
    },
  ),
  group: fc.option(fc.nat(1)),
  tags: fc.subarray([0, 1, 2]),
  assigned: fc.subarray([0, 1]),
  close: fc.option(fc.integer({ min: 1, max: 30_000 })),
  rating: fc.option(fc.record({ value: fc.constantFrom(1, 3, 5), gap: fc.integer({ min: 1, max: 30_000 }) })),
});

const localTime = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** A range end, in seconds from the dataset's anchor, read as local or absolute time. */
const rangeEndArb = fc.option(fc.record({ offset: fc.integer({ min: -4 * 86_400, max: 4 * 86_400 }), absolute: fc.boolean() }), {
  freq: 3,
});

const entryArb = fc.record({
  metric: fc.constantFrom(...METRICS),
  from: rangeEndArb,
  to: rangeEndArb,
  filters: fc.array(fc.record({ field: fc.nat(), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }), asArray: fc.boolean() }), {
    maxLength: 2,
  }),
  aggs: fc.array(
    fc.oneof(
      fc.record({
        type: fc.constant('date' as const),
        interval: fc.constantFrom<Interval>('day', 'week', 'month', 'year', 'day_of_week', 'hour_of_day'),
      }),
      fc.record({ type: fc.constant('terms' as const), field: fc.nat() }),
    ),
    { maxLength: 3 },
  ),
});

type EntrySeed = typeof entryArb extends fc.Arbitrary<infer T> ? T : never;

/** Turns generated indices into a request entry naming the dataset's real ids. */
function entryFrom(
  seed: EntrySeed,
  anchor: number,
  conversations: Json[],
  ids: { agents: string[]; groups: string[]; tags: string[] },
): Entry {
  const fields = isMessageMetric(seed.metric) ? MESSAGE_FIELDS : CONVERSATION_FIELDS;
  const pool = (field: string): unknown[] => {
    const seen = objectsOf(seed.metric, conversations).flatMap((o) => o.fields[field]);
    const known =
      { agent_id: ids.agents, agent_ids: ids.agents, assigned_ids: ids.agents, group_id: ids.groups, tags: ids.tags }[field] ?? [];
    // A value nothing has, of the field's type.
    const miss = field.startsWith('is_') ? [true, false] : field === 'rating_value' ? [2] : ['no-such-value'];
    return [...new Set([...seen, ...known, ...miss].filter((v) => v !== null && v !== undefined))];
  };
  const end = (value: { offset: number; absolute: boolean } | null) => {
    if (value === null) return null;
    const text = localTime(anchor + value.offset * 1000);
    return value.absolute ? `${text}Z` : text;
  };
  let [from, to] = [seed.from, seed.to];
  if (from && to && from.offset > to.offset) [from, to] = [to, from];
  return {
    name: seed.metric,
    range: { from: end(from), to: end(to) },
    query: seed.filters.map((filter) => {
      const field = fields[filter.field % fields.length]!;
      const candidates = pool(field);
      const values = filter.picks.map((pick) => candidates[pick % candidates.length]);
      return { field, value: filter.asArray ? values : values[0] };
    }),
    aggs: seed.aggs.map((agg) => (agg.type === 'terms' ? { type: 'terms', field: fields[agg.field % fields.length]! } : agg)),
  };
}

describe('POST /v2/statistics agrees with a reference implementation', () => {
  it('on random datasets, ranges, filters, zones and nested aggregations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(ANCHORS.length - 1),
        fc.array(chatArb, { minLength: 1, maxLength: 5 }),
        fc.array(fc.constantFrom(...ZONES), { minLength: 1, maxLength: 2 }),
        fc.array(entryArb, { minLength: 1, maxLength: 6 }),
        async (anchorIndex, chats, zones, seeds) => {
          const anchor = ANCHORS[anchorIndex]!;
          const account = await t.account();
          const f = conversationFactory(t, account);
          const agents = [(await f.agent()).id, (await f.agent()).id];
          const groups = [(await f.group()).id, (await f.group()).id];
          const tags = [(await f.tag()).id, (await f.tag()).id, (await f.tag()).id];
          const conversations: Json[] = [];
          const world: World = { factory: f, agentIds: agents, contactIds: [] };
          for (const c of chats) {
            let at = anchor + c.start * 1000;
            const spec: ChatSpec = {
              said: [
                { from: 'contact', at: new Date(at).toISOString() },
                ...c.then.map((step) => {
                  at += step.gap * 1000;
                  return { from: step.by, at: new Date(at).toISOString(), agent: step.agent };
                }),
              ],
              group: c.group === null ? null : groups[c.group],
              tags: c.tags.map((i) => tags[i]),
              assigned: c.assigned,
            };
            if (c.close !== null) spec.close = { by: 'agent', at: new Date(at + c.close * 1000).toISOString() };
            if (c.rating !== null)
              spec.rating = { value: c.rating.value as 1 | 3 | 5, at: new Date(at + c.rating.gap * 1000).toISOString() };
            conversations.push(await f.get(await buildChat(t, world, spec)));
          }
          const entries = seeds.map((seed) => entryFrom(seed, anchor, conversations, { agents, groups, tags }));
          const body = Object.fromEntries(entries.map((entry, i) => [`e${i}`, entry]));

          for (const zone of zones) {
            const res = await t.client(account.token).post(`/v2/statistics?timezone=${encodeURIComponent(zone)}`, body);
            const expected = entries.map((entry) => reference(entry, conversations, zone));
            const rangeErrors = expected.flatMap((e, i) => ('error' in e ? [`e${i}.${e.error}`] : []));
            const context = `${zone} ${JSON.stringify(body)}`;
            if (rangeErrors.length > 0) {
              assert.equal(res.status, 422, context);
              assert.deepEqual(
                res.body.errors.map((e: Json) => e.path),
                rangeErrors,
                context,
              );
              continue;
            }
            let total = 0;
            const overLimit = expected.findIndex((e) => (total += (e as { buckets: number }).buckets) > 10_000);
            if (overLimit >= 0) {
              assert.equal(res.status, 422, context);
              assert.deepEqual(
                res.body.errors.map((e: Json) => [e.path, e.code]),
                [[`e${overLimit}.aggs`, 'maxBuckets']],
                context,
              );
              continue;
            }
            assert.equal(res.status, 200, `${context} -> ${JSON.stringify(res.body)}`);
            expected.forEach((e, i) =>
              assertClose(res.body[`e${i}`], (e as { result: Json }).result, `${zone} e${i} ${JSON.stringify(entries[i])}`),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('POST /v2/statistics on arbitrary input', () => {
  it('answers 200 or a 422 naming each problem, never anything else', async () => {
    const account = await t.account();
    const junk = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const rangeValue = fc.oneof(
      junk,
      fc
        .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 19)),
      fc.constantFrom(
        '2024-02-30T00:00:00',
        '2024-03-31T02:30:00',
        '2024-01-01T00:00:00+99:99',
        '0000-01-01T00:00:00',
        '2024-01-01T00:00:00.5Z',
      ),
    );
    const field = fc.oneof(fc.constantFrom(...MESSAGE_FIELDS, ...CONVERSATION_FIELDS), fc.string({ maxLength: 8 }));
    const entry = fc.record(
      {
        name: fc.oneof(fc.constantFrom(...METRICS), junk),
        range: fc.oneof(fc.record({ from: rangeValue, to: rangeValue }, { requiredKeys: [] }), junk),
        query: fc.oneof(
          fc.array(fc.record({ field, value: fc.oneof(junk, fc.array(junk, { maxLength: 3 })) }, { requiredKeys: [] }), { maxLength: 3 }),
          junk,
        ),
        aggs: fc.oneof(
          fc.array(
            fc.record(
              {
                type: fc.oneof(fc.constantFrom('date', 'terms'), junk),
                interval: fc.oneof(fc.constantFrom('day', 'week', 'month', 'year', 'day_of_week', 'hour_of_day'), junk),
                format: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('[', 'YYYY [W', 'zzz Z X x', 'Do DDDo Wo')),
                field,
              },
              { requiredKeys: [] },
            ),
            { maxLength: 4 },
          ),
          junk,
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), entry, { maxKeys: 3 }),
        fc.oneof(fc.constantFrom(...ZONES), fc.string({ maxLength: 10 })),
        async (body, zone) => {
          const res = await t.client(account.token).post(`/v2/statistics?timezone=${encodeURIComponent(zone)}`, body);
          const context = `${zone} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`;
          assert.ok(res.status === 200 || res.status === 422, context);
          if (res.status === 422) {
            assert.equal(res.body.code, 'invalid_arguments', context);
            assert.ok(res.body.errors.length > 0, context);
          } else {
            assert.deepEqual(Object.keys(res.body), Object.keys(body), context);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

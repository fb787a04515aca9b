import type { Deps } from '../deps.ts';
import { itemAt } from '../arrays.ts';
import { ApiError, type ErrorItem } from '../http/errors.ts';
import { instantOutOfRange } from '../http/instants.ts';
import { formatBucketStart, type BucketStart } from './format.ts';
import { DEFAULT_FORMATS, FIELDS, METRICS, type DateInterval, type Field, type MetricName } from './metrics.ts';
import { isKnownTimeZone } from '../db/time-zones.ts';
import * as repo from './repository.ts';
import { MAX_BUCKETS, type Bucket, type StatisticsBody, type StatisticsEntry, type StatisticsResult } from './schema.ts';

type StatisticsDeps = Pick<Deps, 'db'>;

/** A range end as given: a local wall-clock time in the request zone, or an absolute instant. */
type RangeEnd = { local: string; precisionMs: number } | { at: Date; precisionMs: number };

interface PlannedLevel {
  level: repo.Level;
  /** Moment.js format of a date level's keys. */
  format: string | null;
}

interface Plan {
  key: string;
  metric: MetricName;
  from: RangeEnd | null;
  to: RangeEnd | null;
  filters: repo.AggregateQuery['filters'];
  levels: PlannedLevel[];
}

const RANGE_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;

class Problems {
  readonly items: ErrorItem[] = [];
  add(path: string, code: string, message: string, location: ErrorItem['location'] = 'body'): void {
    this.items.push({ path, code, message: `${path} ${message}`, location });
  }
  throwIfAny(): void {
    if (this.items.length === 0) return;
    const more = this.items.length > 1 ? ` (and ${this.items.length - 1} more)` : '';
    throw new ApiError(422, 'invalid_arguments', `Invalid arguments: ${itemAt(this.items, 0).message}${more}`, this.items);
  }
}

/** A range value the schema's pattern accepted, checked against the calendar. */
function parseRangeEnd(value: string | null | undefined, path: string, problems: Problems): RangeEnd | null {
  if (value === null || value === undefined) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = RANGE_VALUE.exec(value) ?? [];
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const validDate = Number(year) >= 1 && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  if (year === undefined || !validDate || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    problems.add(path, 'format', 'must be a real date and time, YYYY-MM-DDTHH:MM:SS');
    return null;
  }
  // Inclusive at the precision given: `23:59:59` covers that whole second, `23:59:59.5` that tenth (fraction includes its dot).
  const precisionMs = fraction ? 10 ** (4 - fraction.length) : 1000;
  if (!zone) return { local: value, precisionMs };
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) {
    problems.add(path, 'format', 'has an invalid UTC offset');
    return null;
  }
  return { at, precisionMs };
}

/** Filter values as the text the database compares (booleans `true`/`false`, integers in decimal). */
function filterValues(field: Field, value: unknown, path: string, problems: Problems): string[] {
  const values = Array.isArray(value) ? value : [value];
  const texts: string[] = [];
  values.forEach((item, i) => {
    const itemPath = Array.isArray(value) ? `${path}[${i}]` : path;
    if (field.kind === 'boolean') {
      if (item === true || item === 'true') texts.push('true');
      else if (item === false || item === 'false') texts.push('false');
      else problems.add(itemPath, 'type', 'must be a boolean');
    } else if (field.kind === 'integer') {
      if (typeof item === 'number' && Number.isInteger(item)) texts.push(String(item));
      else if (typeof item === 'string' && /^-?\d{1,9}$/.test(item)) texts.push(String(Number(item)));
      else problems.add(itemPath, 'type', 'must be an integer');
    } else if (typeof item === 'boolean') {
      problems.add(itemPath, 'type', 'must be a string');
    } else {
      texts.push(String(item));
    }
  });
  return texts;
}

function planEntry(key: string, entry: StatisticsEntry, problems: Problems): Plan {
  const metric = entry.name;
  const fields = FIELDS[METRICS[metric].source];
  const fieldNames = Object.keys(fields);
  const fieldOf = (name: string, path: string): Field | null => {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field) return field;
    problems.add(path, 'enum', `must be a field of ${METRICS[metric].source} for ${metric}: ${fieldNames.join(', ')}`);
    return null;
  };

  const from = parseRangeEnd(entry.range.from, `${key}.range.from`, problems);
  const to = parseRangeEnd(entry.range.to, `${key}.range.to`, problems);
  const filters: Plan['filters'] = [];
  (entry.query ?? []).forEach((filter, i) => {
    const field = fieldOf(filter.field, `${key}.query[${i}].field`);
    if (field) filters.push({ field, values: filterValues(field, filter.value, `${key}.query[${i}].value`, problems) });
  });

  const levels: PlannedLevel[] = [];
  (entry.aggs ?? []).forEach((agg, i) => {
    const path = `${key}.aggs[${i}]`;
    const misplaced = agg.type === 'date' ? (['field'] as const) : (['interval', 'format'] as const);
    for (const member of misplaced) {
      if (agg[member] !== undefined)
        problems.add(`${path}.${member}`, 'additionalProperties', `is not allowed in a ${agg.type} aggregation`);
    }
    if (agg.type === 'date') {
      if (agg.interval === undefined) problems.add(`${path}.interval`, 'required', 'is required');
      else {
        levels.push({ level: { type: 'date', interval: agg.interval }, format: agg.format ?? DEFAULT_FORMATS[agg.interval] });
      }
    } else if (agg.field === undefined) {
      problems.add(`${path}.field`, 'required', 'is required');
    } else {
      const field = fieldOf(agg.field, `${path}.field`);
      if (field) levels.push({ level: { type: 'terms', field }, format: null });
    }
  });

  return { key, metric, from, to, filters, levels };
}

/** Counts buckets across the whole response against MAX_BUCKETS. */
class BucketBudget {
  #used = 0;
  take(path: string, count = 1): void {
    this.#used += count;
    if (this.#used > MAX_BUCKETS) {
      const problems = new Problems();
      problems.add(path, 'maxBuckets', `would make the response exceed ${MAX_BUCKETS} buckets; narrow the range or the aggregations`);
      problems.throwIfAny();
    }
  }
}

const DAYS_OF_WEEK = [1, 2, 3, 4, 5, 6, 7].map((day) => `2024-01-0${day}T00:00:00`);
const HOURS_OF_DAY = Array.from({ length: 24 }, (_, hour) => `2024-01-01T${String(hour).padStart(2, '0')}:00:00`);

/** The buckets a date level always shows (empty ones included), from the range or else from the first to the last object. */
async function dateAxis(
  deps: StatisticsDeps,
  timeZone: string,
  interval: DateInterval,
  first: Date | null,
  last: Date | null,
  budgetPath: string,
  budget: BucketBudget,
): Promise<BucketStart[]> {
  if (interval === 'day_of_week') return repo.wallInstants(deps.db, timeZone, DAYS_OF_WEEK);
  if (interval === 'hour_of_day') return repo.wallInstants(deps.db, timeZone, HOURS_OF_DAY);
  if (!first || !last || first > last) return [];
  const axis = await repo.calendarAxis(deps.db, timeZone, interval, first, last, MAX_BUCKETS + 1);
  if (axis.length > MAX_BUCKETS) budget.take(budgetPath, axis.length);
  return axis;
}

interface ResolvedPlan extends Plan {
  fromAt: Date | null;
  /** Exclusive end. */
  untilAt: Date | null;
}

async function computeEntry(
  deps: StatisticsDeps,
  accountId: string,
  timeZone: string,
  plan: ResolvedPlan,
  budget: BucketBudget,
): Promise<() => StatisticsResult> {
  const rows = await repo.aggregate(
    deps.db,
    {
      accountId,
      metric: plan.metric,
      timeZone,
      from: plan.fromAt,
      until: plan.untilAt,
      filters: plan.filters,
      levels: plan.levels.map((planned) => planned.level),
    },
    MAX_BUCKETS + 1,
  );
  const total = rows.find((row) => row.level === 0)!;
  const first = plan.fromAt ?? total.first_at;
  const last = plan.untilAt ? new Date(plan.untilAt.getTime() - 1) : total.last_at;
  const budgetPath = `${plan.key}.aggs`;
  const axes = await Promise.all(
    plan.levels.map(({ level }) =>
      level.type === 'date' ? dateAxis(deps, timeZone, level.interval, first, last, budgetPath, budget) : Promise.resolve([]),
    ),
  );

  // Groups of depth k, by their parent's keys (depth k-1), then by their own key.
  const groups = plan.levels.map(() => new Map<string, Map<string, repo.AggregateRow>>());
  for (const row of rows) {
    if (row.level === 0) continue;
    const byParent = itemAt(groups, row.level - 1);
    const parent = row.keys.slice(0, -1).join('\u0000');
    if (!byParent.has(parent)) byParent.set(parent, new Map());
    byParent.get(parent)!.set(itemAt(row.keys, -1), row);
  }

  const build = (depth: number, parentKeys: string[]): Bucket[] => {
    const { level, format } = itemAt(plan.levels, depth);
    const children = itemAt(groups, depth).get(parentKeys.join('\u0000')) ?? new Map<string, repo.AggregateRow>();
    const members: { raw: string; key: string; row: repo.AggregateRow | undefined }[] =
      level.type === 'date'
        ? itemAt(axes, depth).map((start) => ({
            raw: start.wall,
            key: formatBucketStart(start, format!, timeZone),
            row: children.get(start.wall),
          }))
        : [...children.values()]
            .map((row) => ({ raw: itemAt(row.keys, depth), key: itemAt(row.keys, depth), row }))
            .sort((a, b) => b.row.count - a.row.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    budget.take(budgetPath, members.length);
    return members.map(({ raw, key, row }) => ({
      key,
      count: row?.count ?? 0,
      value: row?.value ?? 0,
      buckets: depth + 1 < plan.levels.length ? build(depth + 1, [...parentKeys, raw]) : null,
    }));
  };

  // Bucket trees are built after every entry's queries, so the budget counts the whole response in order.
  return () => ({
    name: plan.metric,
    value: total.value,
    count: total.count,
    buckets: plan.levels.length > 0 ? build(0, []) : null,
  });
}

/** POST /statistics: every entry of the body computed in the database (docs/behaviour.md §6). */
export async function computeStatistics(
  deps: StatisticsDeps,
  accountId: string,
  timeZone: string,
  body: StatisticsBody,
): Promise<Record<string, StatisticsResult>> {
  const problems = new Problems();
  if (!(await isKnownTimeZone(deps.db, timeZone))) {
    problems.add('timezone', 'format', 'must be an IANA time zone name such as Europe/Prague', 'query');
  }
  const plans = Object.entries(body).map(([key, entry]) => planEntry(key, entry, problems));
  problems.throwIfAny();

  const localEnds = plans.flatMap((plan) => [plan.from, plan.to]).flatMap((end) => (end && 'local' in end ? [end.local] : []));
  const resolved = new Map<string, Date>();
  (await repo.resolveLocalTimes(deps.db, timeZone, localEnds)).forEach((at, i) => resolved.set(itemAt(localEnds, i), at));
  const instantOf = (end: RangeEnd | null) => (end === null ? null : 'at' in end ? end.at : resolved.get(end.local)!);
  const resolvedPlans: ResolvedPlan[] = plans.map((plan) => {
    const fromAt = instantOf(plan.from);
    const toAt = instantOf(plan.to);
    for (const [end, at] of [
      ['from', fromAt],
      ['to', toAt],
    ] as const) {
      const outside = at && instantOutOfRange(at);
      if (outside) problems.add(`${plan.key}.range.${end}`, outside.code, outside.message);
    }
    const untilAt = toAt && new Date(toAt.getTime() + plan.to!.precisionMs);
    if (fromAt && untilAt && fromAt >= untilAt) problems.add(`${plan.key}.range.to`, 'minimum', 'must not be before range.from');
    return { ...plan, fromAt, untilAt };
  });
  problems.throwIfAny();

  const budget = new BucketBudget();
  const results = await Promise.all(resolvedPlans.map((plan) => computeEntry(deps, accountId, timeZone, plan, budget)));
  return Object.fromEntries(resolvedPlans.map((plan, i) => [plan.key, itemAt(results, i)()]));
}

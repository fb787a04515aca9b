import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { Nullable, PATTERN_MESSAGE, StringEnum } from '../http/schemas.ts';
import { DATE_INTERVALS, METRIC_NAMES } from './metrics.ts';

export const MAX_AGGS = 3;
export const MAX_BUCKETS = 10_000;
export const MAX_ENTRIES = 100;

export const StatisticsQuery = Type.Object(
  {
    timezone: Type.String({
      default: 'UTC',
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone name (`Europe/Prague`); interprets local range values and places date buckets',
    }),
  },
  { additionalProperties: false },
);

const RangeValue = Nullable(
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?(Z|[+-]\\d{2}:\\d{2})?$',
    [PATTERN_MESSAGE]: 'must be a local time YYYY-MM-DDTHH:MM:SS (optionally with Z or an offset)',
    description:
      'Local time in the request zone, `YYYY-MM-DDTHH:MM:SS` (optionally `.mmm`), inclusive at its precision; ' +
      'with `Z` or an offset it is an absolute instant; null leaves that end open',
    examples: ['2024-03-01T00:00:00'],
  }),
);

const FilterScalar = { type: ['string', 'number', 'boolean'], maxLength: 256 } as const;

const Filter = Type.Object(
  {
    field: Type.String({ description: "A field of the metric's source object (the fields per source: docs/api.md, Statistics, Filters)" }),
    value: Type.Unsafe<string | number | boolean | (string | number | boolean)[]>({
      type: ['string', 'number', 'boolean', 'array'],
      maxLength: 256,
      items: FilterScalar,
      minItems: 1,
      maxItems: 100,
      description: 'A value, or an array of values of which any may match; array fields match when they contain it',
    }),
  },
  { additionalProperties: false },
);

// One flat shape for both aggregation types, so a wrong member gets a precise
// error path (`aggs[1].interval`) rather than "matches no branch"; which members
// each type needs is checked by the service.
const Aggregation = Type.Object(
  {
    type: StringEnum(['date', 'terms'] as const, { description: '`date` buckets by time, `terms` by the values of a field' }),
    interval: Type.Optional(StringEnum(DATE_INTERVALS, { description: 'date: the bucket interval' })),
    format: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'date: Moment.js tokens for the bucket key' })),
    field: Type.Optional(Type.String({ description: 'terms: the field whose values make the buckets' })),
  },
  { additionalProperties: false },
);

export const StatisticsEntry = Type.Object(
  {
    name: StringEnum(METRIC_NAMES, { description: 'The metric' }),
    range: Type.Object(
      { from: Type.Optional(RangeValue), to: Type.Optional(RangeValue) },
      { additionalProperties: false, description: 'Inclusive; a missing or null end is open' },
    ),
    query: Type.Optional(Type.Array(Filter, { maxItems: 20 })),
    aggs: Type.Optional(Type.Array(Aggregation, { maxItems: MAX_AGGS, description: 'Nested levels, outermost first' })),
  },
  { additionalProperties: false, title: 'statistics_request_entry' },
);
export type StatisticsEntry = Static<typeof StatisticsEntry>;

export const StatisticsBody = Type.Record(Type.String(), StatisticsEntry, {
  maxProperties: MAX_ENTRIES,
  description: 'Caller-named entries; the response has the same keys',
});
export type StatisticsBody = Static<typeof StatisticsBody>;

export interface Bucket {
  key: string;
  count: number;
  value: number;
  buckets: Bucket[] | null;
}

export interface StatisticsResult {
  name: string;
  value: number;
  count: number;
  buckets: Bucket[] | null;
}

/** Buckets nest at most MAX_AGGS deep; the schema spells out each level. */
function bucketList(depth: number): TUnsafe<Bucket[]> {
  const bucket = Type.Object({
    key: Type.String(),
    count: Type.Integer(),
    value: Type.Number(),
    buckets: depth === 1 ? Type.Null() : Nullable(bucketList(depth - 1)),
  });
  return Type.Unsafe<Bucket[]>(Type.Array(bucket));
}

export const StatisticsResultSchema = Type.Object(
  {
    name: Type.String(),
    value: Type.Number({ description: 'The aggregate over every matching object (seconds for times)' }),
    count: Type.Integer({ description: 'How many objects match' }),
    buckets: Nullable(bucketList(MAX_AGGS)),
  },
  { title: 'statistics_result_entry' },
);

export const StatisticsResponse = Type.Record(Type.String(), StatisticsResultSchema, { title: 'statistics_response' });

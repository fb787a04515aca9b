/**
 * The catalogue behind POST /statistics (docs/behaviour.md §6): which rows each metric
 * reads, which timestamp places them in the range and in date buckets, what it
 * aggregates, and the fields of each source object that `query` and `terms`
 * may name. Every SQL fragment here is a constant; request values only ever
 * reach SQL as parameters.
 */

export const METRIC_NAMES = [
  'response_time',
  'first_response_time',
  'time_to_close',
  'time_to_close_sum',
  'new_conversation',
  'closed_conversation',
  'conversation_ratings',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export type Source = 'message' | 'conversation';

/** How a field compares and buckets: arrays match and bucket by element. */
export type FieldKind = 'text' | 'boolean' | 'integer' | 'array';

export interface Field {
  /** SQL over the source table's alias `s`. */
  sql: string;
  kind: FieldKind;
}

export const FIELDS: Record<Source, Record<string, Field>> = {
  conversation: {
    status: { sql: 's.status', kind: 'text' },
    group_id: { sql: 's.group_id', kind: 'text' },
    agent_ids: { sql: 's.agent_ids', kind: 'array' },
    assigned_ids: { sql: 's.assigned_ids', kind: 'array' },
    rating_value: { sql: 's.rating_value', kind: 'integer' },
    domain: { sql: 's.domain', kind: 'text' },
    tags: { sql: 's.tags', kind: 'array' },
    // Every conversation is on the one channel type the service has (`channel.type`).
    channel: { sql: `'default'::text`, kind: 'text' },
    close_type: { sql: 's.close_type', kind: 'text' },
    is_offline: { sql: 's.is_offline', kind: 'boolean' },
    contact_id: { sql: 's.contact_id', kind: 'text' },
  },
  message: {
    trigger_id: { sql: 's.trigger_id', kind: 'text' },
    agent_id: { sql: 's.agent_id', kind: 'text' },
    is_reply: { sql: 's.is_reply', kind: 'boolean' },
    is_first_reply: { sql: 's.is_first_reply', kind: 'boolean' },
    is_offline: { sql: 's.is_offline', kind: 'boolean' },
    is_offline_reply: { sql: 's.is_offline_reply', kind: 'boolean' },
    // Denormalised from the conversation when the message was stored.
    group_id: { sql: 's.group_id', kind: 'text' },
    sub_type: { sql: 's.sub_type', kind: 'text' },
    conversation_id: { sql: 's.conversation_id', kind: 'text' },
  },
};

export type Aggregate = 'median' | 'sum' | 'count';

export interface Metric {
  source: Source;
  table: 'messages' | 'conversations';
  /** The timestamp that places a row in the range and in date buckets. */
  time: string;
  /** Which rows of the table the metric counts. */
  where: string;
  /** The number aggregated (seconds); null for counts. */
  value: string | null;
  aggregate: Aggregate;
}

const closeSeconds = 'extract(epoch from s.finished_at - s.created_at)';

export const METRICS: Record<MetricName, Metric> = {
  response_time: {
    source: 'message',
    table: 'messages',
    time: 's.created_at',
    where: 's.is_reply',
    value: 's.response_time',
    aggregate: 'median',
  },
  first_response_time: {
    source: 'message',
    table: 'messages',
    time: 's.created_at',
    where: 's.is_first_reply',
    value: 's.response_time',
    aggregate: 'median',
  },
  time_to_close: {
    source: 'conversation',
    table: 'conversations',
    time: 's.finished_at',
    where: 's.finished_at is not null',
    value: closeSeconds,
    aggregate: 'median',
  },
  time_to_close_sum: {
    source: 'conversation',
    table: 'conversations',
    time: 's.finished_at',
    where: 's.finished_at is not null',
    value: closeSeconds,
    aggregate: 'sum',
  },
  new_conversation: {
    source: 'conversation',
    table: 'conversations',
    time: 's.created_at',
    where: 'true',
    value: null,
    aggregate: 'count',
  },
  closed_conversation: {
    source: 'conversation',
    table: 'conversations',
    time: 's.finished_at',
    where: 's.finished_at is not null',
    value: null,
    aggregate: 'count',
  },
  conversation_ratings: {
    source: 'conversation',
    table: 'conversations',
    time: 's.rated_at',
    where: 's.rated_at is not null',
    value: null,
    aggregate: 'count',
  },
};

export const DATE_INTERVALS = ['day', 'week', 'month', 'year', 'day_of_week', 'hour_of_day'] as const;
export type DateInterval = (typeof DATE_INTERVALS)[number];

/** Default key formats (Moment.js tokens) per interval. */
export const DEFAULT_FORMATS: Record<DateInterval, string> = {
  day: 'YYYY-MM-DD',
  week: 'GGGG-[W]WW',
  month: 'YYYY-MM',
  year: 'YYYY',
  day_of_week: 'E',
  hour_of_day: 'HH',
};

// The dashboard's model, without the DOM: the view state and its URL hash, date
// ranges in a time zone, the one batched POST /v2/statistics body of a refresh, and
// the tables (columns and rows) every view draws, its table view shows and its CSV
// holds. Plain functions over plain data.

export const RANGES = [
  { id: 'today', label: 'Today' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: '90d', label: 'Last 90 days' },
  { id: 'month', label: 'This month' },
  { id: 'custom', label: 'Custom' },
];
export const INTERVALS = ['day', 'week', 'month'];
const DAYS_BACK = { today: 0, '7d': 6, '30d': 29, '90d': 89 };
const DAY_MS = 86_400_000;

/** Whether `value` is an existing calendar day written YYYY-MM-DD. */
export function isDay(value) {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

/** The day `days` after `day` (YYYY-MM-DD arithmetic, no time zone involved). */
export function addDays(day, days) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar day `now` falls on in `timeZone`. */
export function todayIn(timeZone, now = new Date()) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Whether the browser knows `name` as an IANA time zone. */
export function isTimeZone(name) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return typeof name === 'string' && name !== '';
  } catch {
    return false;
  }
}

/** The state a URL hash describes, with defaults for whatever it lacks or gets wrong. */
export function stateFromHash(hash, defaultTimeZone) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const pick = (name, allowed, fallback) => (allowed.includes(params.get(name)) ? params.get(name) : fallback);
  const tz = params.get('tz');
  const state = {
    range: pick(
      'range',
      RANGES.map((r) => r.id),
      '30d',
    ),
    from: isDay(params.get('from')) ? params.get('from') : '',
    to: isDay(params.get('to')) ? params.get('to') : '',
    tz: tz && isTimeZone(tz) ? tz : defaultTimeZone,
    interval: pick('interval', INTERVALS, 'day'),
    group: params.get('group') ?? '',
    agent: params.get('agent') ?? '',
    tag: params.get('tag') ?? '',
  };
  if (state.range !== 'custom') state.from = state.to = '';
  return state;
}

/** The URL hash of a state: what a shared link restores. */
export function hashOf(state) {
  const params = new URLSearchParams({ range: state.range });
  if (state.range === 'custom') {
    params.set('from', state.from);
    params.set('to', state.to);
  }
  params.set('tz', state.tz);
  params.set('interval', state.interval);
  for (const name of ['group', 'agent', 'tag']) if (state[name]) params.set(name, state[name]);
  return `#${params}`;
}

/** The days from..to (inclusive) of a state on `today`, or an error message for a bad custom range. */
export function rangeOf(state, today) {
  if (state.range === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  if (state.range !== 'custom') return { from: addDays(today, -DAYS_BACK[state.range]), to: today };
  if (!isDay(state.from) || !isDay(state.to)) return { error: 'Choose the first and the last day of the custom range.' };
  if (state.from > state.to) return { error: 'The first day of the range must not be after the last.' };
  return { from: state.from, to: state.to };
}

/**
 * The one POST /v2/statistics body of a refresh: every view's metric as a key.
 * Replies (message metrics) carry no tags, so with a tag filter the response-time
 * entries are left out and their view says why.
 */
export function statisticsBody(state, range) {
  const span = { from: `${range.from}T00:00:00`, to: `${range.to}T23:59:59` };
  const filters = (fields) => fields.filter(([, value]) => value).map(([field, value]) => ({ field, value }));
  const conversationQuery = filters([
    ['group_id', state.group],
    ['agent_ids', state.agent],
    ['tags', state.tag],
  ]);
  const messageQuery = filters([
    ['group_id', state.group],
    ['agent_id', state.agent],
  ]);
  const byInterval = [{ type: 'date', interval: state.interval }];
  const entry = (name, query, aggs) => ({ name, range: span, ...(query.length > 0 ? { query } : {}), aggs });
  const body = {
    // Whether the account has any conversation at all: an empty account gets the demo-data hint.
    everything: { name: 'new_conversation', range: { from: null, to: null } },
    started: entry('new_conversation', conversationQuery, byInterval),
    closed: entry('closed_conversation', conversationQuery, byInterval),
    time_to_close: entry('time_to_close', conversationQuery, byInterval),
    ratings: entry('conversation_ratings', conversationQuery, [...byInterval, { type: 'terms', field: 'rating_value' }]),
    heatmap: entry('new_conversation', conversationQuery, [
      { type: 'date', interval: 'day_of_week' },
      { type: 'date', interval: 'hour_of_day' },
    ]),
  };
  if (!state.tag) {
    body.first_response = entry('first_response_time', messageQuery, byInterval);
    body.response = entry('response_time', messageQuery, byInterval);
  }
  return body;
}

/** Query parameters of the legacy totals (per-agent figures and chat counters): days in the account's zone, group only. */
export function legacyParameters(state, range) {
  return { from: range.from, to: range.to, ...(state.group ? { group: state.group } : {}) };
}

// Tables. A column is {label, unit: 'key' | 'count' | 'duration' | 'text' | 'percent'}; a
// cell is a number, a string, or null for "no data" (a median of nothing). A table by interval
// also has a `summary` row: each column's figure over the whole range (a total, or the range's
// median, which no sum of the intervals gives).

const median = (bucket) => (bucket.count > 0 ? bucket.value : null);
/** The summary row's header. */
export const WHOLE_RANGE = 'Whole range';

/** Rows keyed by the interval buckets of the first entry (every entry of a refresh has the same ones). */
function byBucket(entries, cells) {
  const [first] = entries;
  return first.buckets.map((bucket, i) => [bucket.key, ...cells(entries.map((entry) => entry.buckets[i]))]);
}

export function conversationsTable(result) {
  return {
    columns: [
      { label: 'Interval', unit: 'key' },
      { label: 'Started', unit: 'count' },
      { label: 'Closed', unit: 'count' },
    ],
    rows: byBucket([result.started, result.closed], ([started, closed]) => [started.count, closed.count]),
    summary: [WHOLE_RANGE, result.started.count, result.closed.count],
  };
}

/** Median first response and response times; null when a tag filter leaves them out. */
export function responseTimesTable(result) {
  if (!result.first_response || !result.response) return null;
  return {
    columns: [
      { label: 'Interval', unit: 'key' },
      { label: 'Median first response', unit: 'duration' },
      { label: 'First replies', unit: 'count' },
      { label: 'Median response', unit: 'duration' },
      { label: 'Replies', unit: 'count' },
    ],
    rows: byBucket([result.first_response, result.response], ([first, reply]) => [median(first), first.count, median(reply), reply.count]),
    summary: [WHOLE_RANGE, median(result.first_response), result.first_response.count, median(result.response), result.response.count],
  };
}

export function timeToCloseTable(result) {
  return {
    columns: [
      { label: 'Interval', unit: 'key' },
      { label: 'Median time to close', unit: 'duration' },
      { label: 'Closed', unit: 'count' },
    ],
    rows: byBucket([result.time_to_close], ([closed]) => [median(closed), closed.count]),
    summary: [WHOLE_RANGE, median(result.time_to_close), result.time_to_close.count],
  };
}

/** Ratings are 5 (good), 3 (neutral) and 1 (bad). */
export const RATINGS = [
  { key: '5', label: 'Good' },
  { key: '3', label: 'Neutral' },
  { key: '1', label: 'Bad' },
];

const ratingCount = (bucket, key) => bucket.buckets?.find((b) => b.key === key)?.count ?? 0;
/** Ratings `key` over the whole range: the intervals' counts added up. */
const ratedOverRange = (entry, key) => entry.buckets.reduce((sum, bucket) => sum + ratingCount(bucket, key), 0);

export function ratingsTable(result) {
  return {
    columns: [
      { label: 'Interval', unit: 'key' },
      ...RATINGS.map((r) => ({ label: r.label, unit: 'count' })),
      { label: 'Rated', unit: 'count' },
    ],
    rows: byBucket([result.ratings], ([bucket]) => [...RATINGS.map((r) => ratingCount(bucket, r.key)), bucket.count]),
    summary: [WHOLE_RANGE, ...RATINGS.map((r) => ratedOverRange(result.ratings, r.key)), result.ratings.count],
  };
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** New conversations by day of week (rows, Monday first) and hour of day (columns 00..23). */
export function heatmapTable(result) {
  const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
  return {
    columns: [{ label: 'Day', unit: 'key' }, ...hours.map((hour) => ({ label: hour, unit: 'count' }))],
    rows: result.heatmap.buckets.map((day) => [
      WEEKDAYS[Number(day.key) - 1],
      ...hours.map((hour) => day.buckets.find((b) => b.key === hour)?.count ?? 0),
    ]),
  };
}

export const AGENT_COLUMNS = [
  { label: 'Agent', unit: 'text', field: 'nickname' },
  { label: 'Completed', unit: 'count', field: 'completed' },
  { label: 'Dropped', unit: 'count', field: 'dropped' },
  { label: 'Average first response', unit: 'duration', field: 'avgFirstResponse' },
  { label: 'Average response', unit: 'duration', field: 'avgResponse' },
  { label: 'Average duration', unit: 'duration', field: 'avgDuration' },
  { label: 'Total duration', unit: 'duration', field: 'totalDuration' },
];

/**
 * The legacy export's per-agent figures, sorted by one column (ties by name), the
 * agent filter applied (the export itself filters by group only).
 */
export function agentsTable(totals, state, sort) {
  const column = AGENT_COLUMNS[sort.column];
  const direction = sort.descending ? -1 : 1;
  const agents = totals.agents.filter((agent) => !state.agent || String(agent.userId) === state.agent);
  const compare = (a, b) => {
    const x = a[column.field];
    const y = b[column.field];
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return order * direction || a.nickname.localeCompare(b.nickname);
  };
  return {
    columns: AGENT_COLUMNS.map(({ label, unit }) => ({ label, unit })),
    rows: [...agents].sort(compare).map((agent) => AGENT_COLUMNS.map((c) => agent[c.field])),
  };
}

/** The totals overview: the statistics entries' totals, then the legacy export's chat counters. */
export function overviewCards(result, totals) {
  const rated = result.ratings.count;
  const good = ratedOverRange(result.ratings, '5');
  const cards = [
    { id: 'started', label: 'Conversations started', unit: 'count', value: result.started.count },
    { id: 'closed', label: 'Conversations closed', unit: 'count', value: result.closed.count },
    {
      id: 'first_response',
      label: 'Median first response',
      unit: 'duration',
      value: result.first_response ? median(result.first_response) : null,
    },
    { id: 'response', label: 'Median response', unit: 'duration', value: result.response ? median(result.response) : null },
    { id: 'time_to_close', label: 'Median time to close', unit: 'duration', value: median(result.time_to_close) },
    { id: 'rated', label: 'Ratings', unit: 'count', value: rated },
    { id: 'good', label: 'Rated good', unit: 'percent', value: rated > 0 ? good / rated : null },
  ];
  if (totals) {
    const legacy = [
      ['visitors', 'Visitors'],
      ['chats', 'Chats'],
      ['completed', 'Completed chats'],
      ['dropped', 'Dropped chats'],
      ['missed', 'Missed'],
      ['offline', 'Offline messages'],
    ];
    for (const [field, label] of legacy) cards.push({ id: field, label, unit: 'count', value: totals.overview[field], legacy: true });
  }
  return cards;
}

/** The cards as a table (their CSV). */
export function cardsTable(cards) {
  return {
    columns: [
      { label: 'Figure', unit: 'text' },
      { label: 'Value', unit: 'number' },
    ],
    rows: cards.map((card) => [card.label, card.value]),
  };
}

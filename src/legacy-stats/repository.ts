import type { Db, Queryable } from '../db/db.ts';
import { firstRow } from '../db/rows.ts';
import { itemAt } from '../arrays.ts';
import { SqlParams } from '../db/params.ts';

/** What one export counts: an account's conversations started on the days from..to in its zone. */
export interface StatsScope {
  accountId: string;
  timezone: string;
  /** YYYY-MM-DD, inclusive, in `timezone`. */
  from: string;
  to: string;
  group: string | null;
}

/** The counters of docs/behaviour.md §7 over a unit's chats, the account's or one agent's; times in whole seconds. */
export interface ChatCountsRow {
  completed: number;
  completed1to3: number;
  completed3to5: number;
  completed5to10: number;
  completed10toinf: number;
  dropped: number;
  dropped_by_visitor: number;
  dropped_by_agent: number;
  triggered: number;
  avg_duration: number;
  avg_first_response: number;
  avg_response: number;
  total_duration: number;
}

/** The overview's counters of a unit. */
export type OverviewRow = ChatCountsRow & { visitors: number; channels: number; chats: number; missed: number; offline: number };

/** One agent's counters of a unit. */
export type AgentCountsRow = ChatCountsRow & { user_id: number; nickname: string };

/** What names a unit: its id, short and long names (UNIT_LABELS). */
export interface UnitLabelsRow {
  unit_id: string;
  unit_name: string;
  unit_long_name: string;
}

export type OverviewRecordRow = UnitLabelsRow & OverviewRow;
export type AgentRecordRow = UnitLabelsRow & AgentCountsRow;

/** Placeholders of a scope's parameters (SqlParams), as every builder below writes them. */
type ScopeParams = Record<'account' | 'zone' | 'from' | 'to' | 'group', string>;

// Units are local timestamps (`timestamp without time zone` in the account's zone), so
// `date_trunc` and the unit series follow the local calendar across DST changes.

/** The range's instants: from the start of its first local day to the end of its last one. */
const rangeCte = (p: ScopeParams) => `
  range as (
    select ${p.from}::date::timestamp at time zone ${p.zone} as starts_at,
           (${p.to}::date + 1)::timestamp at time zone ${p.zone} as ends_at
  )`;

/** Conversations started in the range, one row each, with what docs/behaviour.md §7 classifies them by. */
const conversationCtes = (p: ScopeParams, unitOf: (localCreatedAt: string) => string) => `${rangeCte(p)},
  conversation_facts as (
    select c.id, c.contact_id, c.close_type, c.finished_at is not null as closed,
           ${unitOf(`c.created_at at time zone ${p.zone}`)} as unit_start,
           -- Whole seconds, rounded down; a clock set backwards must not make a chat last negative time.
           greatest(0, floor(extract(epoch from c.finished_at - c.created_at)))::bigint as duration,
           coalesce(bool_or(m.type = 'message' and m.sub_type = 'contact'), false) as has_contact,
           coalesce(bool_or(m.type = 'message' and m.sub_type = 'agent'), false) as has_agent,
           coalesce(bool_or(m.sub_type in ('bot', 'trigger')), false) as triggered,
           coalesce((array_agg(m.is_offline order by m.created_at, m.seq)
             filter (where m.type = 'message' and m.sub_type = 'contact'))[1], false) as offline,
           (array_agg(m.sub_type order by m.created_at desc, m.seq desc)
             filter (where m.type = 'message' and m.sub_type in ('contact', 'agent')))[1] as last_sender
    from range r
    join conversations c on c.account_id = ${p.account} and c.created_at >= r.starts_at and c.created_at < r.ends_at
    left join messages m on m.account_id = c.account_id and m.conversation_id = c.id
    where ${p.group}::text is null or c.group_id = ${p.group}
    -- The primary key: the conversation's other columns follow from it.
    group by c.account_id, c.id
  ),
  classified as (
    select f.*, f.has_contact and f.has_agent as is_chat,
           case when f.has_contact and f.has_agent and f.closed then
             case when f.close_type in ('agent', 'contact') and f.last_sender = 'agent' then 'completed'
                  when f.close_type = 'inactivity' then 'dropped'
             end
           end as outcome
    from conversation_facts f
  ),
  -- One row per conversation and agent who wrote in it, with that agent's reply times. Per conversation
  -- through its index: a join of the whole table would read every agent message of the account's history.
  agent_replies as (
    select c.id as conversation_id, x.*
    from classified c
    cross join lateral (
      select m.agent_id,
             coalesce(sum(m.response_time) filter (where m.is_first_reply), 0) as first_response_sum,
             count(m.response_time) filter (where m.is_first_reply) as first_response_count,
             coalesce(sum(m.response_time) filter (where m.is_reply), 0) as response_sum,
             count(m.response_time) filter (where m.is_reply) as response_count
      from messages m
      where m.account_id = ${p.account} and m.conversation_id = c.id and m.type = 'message' and m.sub_type = 'agent'
      group by m.agent_id
    ) x
  )`;

/** Counters over rows of `classified c` (one per conversation, or per conversation and agent). */
const CHAT_COUNTERS = `
  count(*) filter (where c.outcome = 'completed') as completed,
  count(*) filter (where c.outcome = 'completed' and c.duration < 180) as completed1to3,
  count(*) filter (where c.outcome = 'completed' and c.duration >= 180 and c.duration < 300) as completed3to5,
  count(*) filter (where c.outcome = 'completed' and c.duration >= 300 and c.duration < 600) as completed5to10,
  count(*) filter (where c.outcome = 'completed' and c.duration >= 600) as completed10toinf,
  count(*) filter (where c.outcome = 'dropped') as dropped,
  count(*) filter (where c.outcome = 'dropped' and c.last_sender = 'agent') as dropped_by_visitor,
  count(*) filter (where c.outcome = 'dropped' and c.last_sender = 'contact') as dropped_by_agent,
  count(*) filter (where c.triggered) as triggered,
  count(*) filter (where c.outcome is not null) as timed,
  coalesce(sum(c.duration) filter (where c.outcome is not null), 0) as total_duration`;

/** Reply-time sums over rows of `agent_replies x` joined to `classified c`: completed and dropped chats only. */
const REPLY_SUMS = `
  sum(x.first_response_sum) filter (where c.outcome is not null) as first_response_sum,
  sum(x.first_response_count) filter (where c.outcome is not null) as first_response_count,
  sum(x.response_sum) filter (where c.outcome is not null) as response_sum,
  sum(x.response_count) filter (where c.outcome is not null) as response_count`;

const mean = (sum: string, n: string) => `coalesce(round((${sum})::numeric / nullif(${n}, 0)), 0)`;

/** The columns of ChatCountsRow from counters `counts` and reply sums `replies` (either missing for an empty unit). */
const chatFields = (counts: string, replies: string) => `
  coalesce(${counts}.completed, 0) as completed,
  coalesce(${counts}.completed1to3, 0) as completed1to3,
  coalesce(${counts}.completed3to5, 0) as completed3to5,
  coalesce(${counts}.completed5to10, 0) as completed5to10,
  coalesce(${counts}.completed10toinf, 0) as completed10toinf,
  coalesce(${counts}.dropped, 0) as dropped,
  coalesce(${counts}.dropped_by_visitor, 0) as dropped_by_visitor,
  coalesce(${counts}.dropped_by_agent, 0) as dropped_by_agent,
  coalesce(${counts}.triggered, 0) as triggered,
  ${mean(`${counts}.total_duration`, `${counts}.timed`)} as avg_duration,
  ${mean(`${replies}.first_response_sum`, `${replies}.first_response_count`)} as avg_first_response,
  ${mean(`${replies}.response_sum`, `${replies}.response_count`)} as avg_response,
  coalesce(${counts}.total_duration, 0) as total_duration`;

/**
 * The overview and agent rows of each unit of `units`, each starting with the unit's `labels` columns.
 * `deletedWriters`: the placeholder of deleted agents to list even if they wrote in no chat this
 * statement counts (they wrote elsewhere in the range of a chunked export).
 */
const rowCtes = (p: ScopeParams, labels: string[], deletedWriters?: string) => `
  overview_counts as (
    select c.unit_start, count(*) as channels, count(distinct c.contact_id) as visitors,
           count(*) filter (where c.is_chat) as chats,
           count(*) filter (where c.has_contact and not c.has_agent and not c.offline) as missed,
           count(*) filter (where c.offline) as offline,
           ${CHAT_COUNTERS}
    from classified c
    group by c.unit_start
  ),
  overview_replies as (
    select c.unit_start, ${REPLY_SUMS}
    from agent_replies x join classified c on c.id = x.conversation_id
    group by c.unit_start
  ),
  overview_rows as (
    select ${[
      ...labels,
      'coalesce(s.visitors, 0) as visitors, coalesce(s.channels, 0) as channels, coalesce(s.chats, 0) as chats',
      chatFields('s', 'r'),
      'coalesce(s.missed, 0) as missed, coalesce(s.offline, 0) as offline',
    ].join(',\n           ')}
    from units u
    left join overview_counts s on s.unit_start = u.unit_start
    left join overview_replies r on r.unit_start = u.unit_start
  ),
  -- Every live agent, plus deleted ones who wrote in the range; each in every unit.
  agent_list as (
    select a.id, a.id::bigint as user_id, coalesce(a.nickname, a.full_name, a.email) as nickname
    from agents a
    where a.account_id = ${p.account}
      and (a.deleted_at is null or a.id in (select agent_id from agent_replies)${deletedWriters ? ` or a.id = any(${deletedWriters}::text[])` : ''})
  ),
  -- Per agent over the chats it wrote in: a conversation the contact never wrote in is none (its triggered does not count).
  agent_counts as (
    select c.unit_start, x.agent_id, ${CHAT_COUNTERS}, ${REPLY_SUMS}
    from agent_replies x join classified c on c.id = x.conversation_id
    where c.is_chat
    group by c.unit_start, x.agent_id
  ),
  agent_rows as (
    select ${[...labels, 'a.user_id', 'a.nickname', chatFields('s', 's')].join(', ')}
    from units u
    cross join agent_list a
    left join agent_counts s on s.unit_start = u.unit_start and s.agent_id = a.id
  )`;

/** The unit labels (UnitLabelsRow) of unit `u` (docs/behaviour.md §7); `to_char` names are English whatever the locale. */
const UNIT_LABELS = {
  day: [
    `to_char(u.unit_start, 'YYYY-MM-DD') as unit_id`,
    `to_char(u.unit_start, 'Mon FMDD') as unit_name`,
    `to_char(u.unit_start, 'FMDay, FMMonth FMDD, YYYY') as unit_long_name`,
  ],
  week: [
    `to_char(u.unit_start, 'IYYY-"W"IW') as unit_id`,
    `to_char(u.unit_start, '"W"IW') as unit_name`,
    `to_char(u.unit_start, case when extract(year from u.unit_start) = extract(year from u.unit_start + interval '6 days')
                                then 'Mon FMDD' else 'Mon FMDD, YYYY' end)
       || ' - ' || to_char(u.unit_start + interval '6 days', 'Mon FMDD, YYYY') as unit_long_name`,
  ],
  month: [
    `to_char(u.unit_start, 'YYYY-MM') as unit_id`,
    `to_char(u.unit_start, 'Mon YYYY') as unit_name`,
    `to_char(u.unit_start, 'FMMonth YYYY') as unit_long_name`,
  ],
};

/** The units an export counts by: days, ISO weeks or months. */
export type Interval = keyof typeof UNIT_LABELS;

/** The statement and parameters of an export of `scope`: `build` writes the SQL from the placeholders. */
function statement(scope: StatsScope, build: (params: SqlParams, p: ScopeParams) => string): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const p = params.addAll({ account: scope.accountId, zone: scope.timezone, from: scope.from, to: scope.to, group: scope.group });
  return { sql: build(params, p), params: params.values };
}

/** By unit: every unit overlapping from..to (the ends may be cut; only days inside count). */
export const byUnit = (scope: StatsScope, interval: Interval, select: string, deletedWriters: string[] = []) =>
  statement(scope, (params, p) => {
    const unit = params.add(interval);
    return `
      with ${conversationCtes(p, (local) => `date_trunc(${unit}, ${local})`)},
      units as (
        select generate_series(date_trunc(${unit}, ${p.from}::date::timestamp), ${p.to}::date::timestamp, ('1 ' || ${unit})::interval) as unit_start
      ),
      ${rowCtes(p, UNIT_LABELS[interval], deletedWriters.length > 0 ? params.add(deletedWriters) : undefined)}
      ${select}`;
  });

/** The agents the agents export lists in every unit: how many live ones, and the deleted ones who wrote in a chat the scope counts. */
const listedAgentsStatement = (scope: StatsScope) =>
  statement(
    scope,
    (_params, p) => `
      with ${rangeCte(p)}
      select (select count(*) from agents a where a.account_id = ${p.account} and a.deleted_at is null) as live,
             array(
               select a.id from agents a, range r
               where a.account_id = ${p.account} and a.deleted_at is not null
                 and exists (
                   select 1 from conversations c
                   join messages m on m.account_id = c.account_id and m.conversation_id = c.id
                   where c.account_id = a.account_id and c.created_at >= r.starts_at and c.created_at < r.ends_at
                     and (${p.group}::text is null or c.group_id = ${p.group})
                     and m.type = 'message' and m.sub_type = 'agent' and m.agent_id = a.id)
               order by a.id) as deleted_writers`,
  );

const DAY_MS = 86_400_000;
/** Local calendar days are handled as UTC midnights: plain dates, no zone rules involved. */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dateOf = (day: number) => new Date(day).toISOString().slice(0, 10);

function unitStartOf(day: number, interval: Interval): number {
  const at = new Date(day);
  if (interval === 'day') return day;
  if (interval === 'week') return day - ((at.getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
}

/** The first day of the unit after the one starting on `unitStart`. */
function nextUnit(unitStart: number, interval: Interval): number {
  if (interval === 'day') return unitStart + DAY_MS;
  if (interval === 'week') return unitStart + 7 * DAY_MS;
  const at = new Date(unitStart);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

/** How many units (days, weeks, months) overlap the scope's days: the records of the overview export, per agent of the agents export. */
export function unitCount(scope: StatsScope, interval: Interval): number {
  let units = 0;
  for (let start = unitStartOf(dayOf(scope.from), interval); start <= dayOf(scope.to); start = nextUnit(start, interval)) units++;
  return units;
}

/** Each statement of a chunked export covers whole units spanning at least this many days (a month, four weeks). */
const CHUNK_MIN_DAYS = 28;

/**
 * The scope cut at unit boundaries into pieces of about a month. A long export runs
 * as one statement per piece, so on PGlite's single backend a small request
 * waits for one piece at most, not for the whole export (docs/behaviour.md §10),
 * and on PostgreSQL the pieces run side by side. A unit is never split: each
 * piece counts exactly the conversations of its own units.
 */
export function chunkScopes(scope: StatsScope, interval: Interval): StatsScope[] {
  const last = dayOf(scope.to);
  const chunks: StatsScope[] = [];
  for (let start = dayOf(scope.from); start <= last;) {
    let end = nextUnit(unitStartOf(start, interval), interval);
    while (end - start < CHUNK_MIN_DAYS * DAY_MS && end <= last) end = nextUnit(end, interval);
    chunks.push({ ...scope, from: dateOf(start), to: dateOf(Math.min(end - DAY_MS, last)) });
    start = end;
  }
  return chunks;
}

/** The whole range as a single unit. */
export const totalsStatement = (scope: StatsScope) =>
  statement(
    scope,
    (_params, p) => `
      with ${conversationCtes(p, () => `${p.from}::date::timestamp`)},
      units as (select ${p.from}::date::timestamp as unit_start),
      ${rowCtes(p, [])}
      select o.*, (select coalesce(json_agg(a order by a.user_id), '[]'::json) from agent_rows a) as agents
      from overview_rows o`,
  );

/** The date (YYYY-MM-DD) of `at` in `timezone`, by the database's zone rules like every count. */
export async function localDate(db: Queryable, at: Date, timezone: string): Promise<string> {
  const { rows } = await db.query<{ day: string }>(`select to_char($1::timestamptz at time zone $2, 'YYYY-MM-DD') as day`, [at, timezone]);
  return firstRow(rows).day;
}

/**
 * Runs one export query. Its many aggregate expressions make PostgreSQL's JIT
 * compile for seconds on a large range, much longer than the query itself runs.
 */
function run<R>(db: Db, { sql, params }: { sql: string; params: unknown[] }): Promise<R[]> {
  return db.transaction(async (tx) => {
    await tx.query('set local jit = off');
    return (await tx.query<R>(sql, params)).rows;
  });
}

export async function totals(db: Db, scope: StatsScope): Promise<{ overview: OverviewRow; agents: AgentCountsRow[] }> {
  const { agents, ...overview } = firstRow(await run<OverviewRow & { agents: AgentCountsRow[] }>(db, totalsStatement(scope)));
  return { overview, agents };
}

/**
 * Statements of one export running at once. Its chunks queue in the heavy lane anyway (at most 5 of
 * PostgreSQL's connections, PGlite's one); started all at once, a ten-year export by day held 130
 * statements and their results in flight, and took every heavy turn from other exports meanwhile.
 */
export const CHUNK_CONCURRENCY = 2;

/** The records of every chunk, in order; each chunk is a statement of its own, at most `concurrency` at once. */
export async function chunkedRecords<C, R>(
  chunks: C[],
  runChunk: (chunk: C) => Promise<R[]>,
  concurrency = CHUNK_CONCURRENCY,
): Promise<R[]> {
  const results: R[][] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < chunks.length && !failed) {
      const i = next++;
      try {
        results[i] = await runChunk(itemAt(chunks, i));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  return results.flat();
}

export function overviewRecords(db: Db, scope: StatsScope, interval: Interval): Promise<OverviewRecordRow[]> {
  return chunkedRecords(chunkScopes(scope, interval), (chunk) =>
    run<OverviewRecordRow>(db, byUnit(chunk, interval, 'select * from overview_rows order by unit_id')),
  );
}

/** The agents the agents export of `scope` lists in every unit: the number of live ones, and the deleted ones who wrote. */
export async function listedAgents(db: Db, scope: StatsScope): Promise<{ live: number; deletedWriters: string[] }> {
  const row = firstRow(await run<{ live: number; deleted_writers: string[] }>(db, listedAgentsStatement(scope)));
  return { live: row.live, deletedWriters: row.deleted_writers };
}

/** `deletedWriters` (listedAgents): a deleted agent who wrote anywhere in the range is listed in every unit, also in the chunks it wrote nothing in. */
export function agentRecords(db: Db, scope: StatsScope, interval: Interval, deletedWriters: string[]): Promise<AgentRecordRow[]> {
  return chunkedRecords(chunkScopes(scope, interval), (chunk) =>
    run<AgentRecordRow>(db, byUnit(chunk, interval, 'select * from agent_rows order by unit_id, user_id', deletedWriters)),
  );
}

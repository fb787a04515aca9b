import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { accountByApiKey, getAccount } from '../accounts/service.ts';
import type { AgentEntry, AgentRecord, Interval, Overview, OverviewRecord, Parameters } from './schema.ts';
import * as repo from './repository.ts';
import { toAgentEntry, toAgentRecord, toOverview, toOverviewRecord } from './presenter.ts';

type StatsDeps = Pick<Deps, 'db' | 'now'>;

export interface LegacyAccount {
  account_id: string;
  timezone: string;
}

/** The days counted, defaults applied (YYYY-MM-DD, in the account's zone). */
export interface DayRange {
  from: string;
  to: string;
}

/** Days in the default range: the 30 days ending `to` (docs/behaviour.md §7). */
const DEFAULT_DAYS = 30;
/** Longest range, so one request cannot ask for millions of daily records. */
export const MAX_DAYS = 3660;
/**
 * Most records of one agents export (units × agents listed), as statistics caps its buckets: the answer is
 * built in memory (about 600 bytes of JSON a record). A year by day for 136 agents, by month for 4,000.
 */
export const MAX_AGENT_RECORDS = 50_000;
const DAY_MS = 86_400_000;

export const invalidParameter = (name: string, problem: string) => new ApiError(400, 'invalid_parameters', `${name} ${problem}`);

/** The account whose legacy apiKey this is; 401 when missing or unknown (docs/behaviour.md §1). */
export async function authenticate(deps: StatsDeps, apiKey: unknown): Promise<LegacyAccount> {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new ApiError(401, 'unauthorized', 'The apiKey parameter is required (or Authorization: Bearer with a statistics:read token)');
  }
  const account = await accountByApiKey(deps.db, apiKey);
  if (!account) throw new ApiError(401, 'unauthorized', 'Unknown apiKey');
  return account;
}

/** The account of a bearer token already verified to hold statistics:read (the extension to apiKey). */
export async function accountOfToken(deps: StatsDeps, accountId: string): Promise<LegacyAccount> {
  const account = await getAccount(deps.db, accountId);
  return { account_id: account.id, timezone: account.timezone };
}

const dayNumber = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
const dayOf = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);

/** A YYYY-MM-DD the schema let through, checked to be a real calendar day. */
function calendarDay(name: string, value: string): string {
  if (dayOf(dayNumber(value)) !== value) throw invalidParameter(name, `must be a date in the form YYYY-MM-DD; ${value} does not exist`);
  return value;
}

/** from..to with defaults: `to` today in the account's zone, `from` 29 days before `to`. */
async function resolveRange(deps: StatsDeps, timezone: string, parameters: Parameters): Promise<DayRange> {
  const to = parameters.to === undefined ? await repo.localDate(deps.db, deps.now(), timezone) : calendarDay('to', parameters.to);
  const from = parameters.from === undefined ? dayOf(dayNumber(to) - (DEFAULT_DAYS - 1)) : calendarDay('from', parameters.from);
  if (from > to) throw invalidParameter('from', `(${from}) must not be after to (${to})`);
  if (dayNumber(to) - dayNumber(from) + 1 > MAX_DAYS) throw invalidParameter('from', `must be at most ${MAX_DAYS} days before to`);
  return { from, to };
}

async function scopeOf(
  deps: StatsDeps,
  account: LegacyAccount,
  parameters: Parameters,
): Promise<{ range: DayRange; scope: repo.StatsScope }> {
  const range = await resolveRange(deps, account.timezone, parameters);
  return {
    range,
    scope: { accountId: account.account_id, timezone: account.timezone, ...range, group: parameters.group ?? null },
  };
}

export async function totals(
  deps: StatsDeps,
  account: LegacyAccount,
  parameters: Parameters,
): Promise<{ interval: DayRange; overview: Overview; agents: AgentEntry[] }> {
  const { range, scope } = await scopeOf(deps, account, parameters);
  const { overview, agents } = await repo.totals(deps.db, scope);
  return { interval: range, overview: toOverview(overview), agents: agents.map(toAgentEntry) };
}

const intervalOf = (parameters: Parameters): Interval => parameters.interval ?? 'day';

export async function overview(
  deps: StatsDeps,
  account: LegacyAccount,
  parameters: Parameters,
): Promise<{ interval: DayRange; records: Record<string, OverviewRecord> }> {
  const { range, scope } = await scopeOf(deps, account, parameters);
  const records = await repo.overviewRecords(deps.db, scope, intervalOf(parameters));
  return { interval: range, records: Object.fromEntries(records.map((row) => [row.unit_id, toOverviewRecord(row)])) };
}

export async function agents(
  deps: StatsDeps,
  account: LegacyAccount,
  parameters: Parameters,
): Promise<{ interval: DayRange; records: AgentRecord[] }> {
  const { range, scope } = await scopeOf(deps, account, parameters);
  const interval = intervalOf(parameters);
  const { live, deletedWriters } = await repo.listedAgents(deps.db, scope);
  const units = repo.unitCount(scope, interval);
  const records = units * (live + deletedWriters.length);
  if (records > MAX_AGENT_RECORDS) {
    throw invalidParameter(
      'from',
      `must leave at most ${MAX_AGENT_RECORDS.toLocaleString('en')} records (units × agents): ${range.from}..${range.to} by ${interval} ` +
        `would give ${units.toLocaleString('en')} × ${live + deletedWriters.length} = ${records.toLocaleString('en')}; ask for a shorter range or a longer interval`,
    );
  }
  return { interval: range, records: (await repo.agentRecords(deps.db, scope, interval, deletedWriters)).map(toAgentRecord) };
}

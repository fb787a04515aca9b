import type { Queryable } from '../db/db.ts';
import type { Row } from '../db/rows.ts';

/** An agent's row, with its presence judged and its groups gathered. */
export type AgentRow = Pick<
  Row<'agents'>,
  'id' | 'email' | 'full_name' | 'nickname' | 'role' | 'status' | 'last_ping_at' | 'created_at'
> & {
  is_connected: boolean;
  group_ids: string[];
};

/** The instant presence is judged at, and PRESENCE_TTL_SECONDS. */
export interface PresenceAt {
  at: Date;
  ttlSeconds: number;
}

/**
 * Presence, defined once (docs/behaviour.md §3): agent `a` is connected at `$at` while its last ping is
 * younger than the TTL, and available when it is also online. `at` and `ttl` name the query's parameters.
 */
const connectedSql = (at: string, ttl: string) => `coalesce(a.last_ping_at > ${at}::timestamptz - make_interval(secs => ${ttl}), false)`;
const availableSql = (at: string, ttl: string) => `a.status = 'online' and ${connectedSql(at, ttl)}`;

const SELECT_AGENT = `
  select a.id, a.email, a.full_name, a.nickname, a.role, a.status, a.last_ping_at, a.created_at,
         ${connectedSql('$2', '$3')} as is_connected,
         coalesce((select array_agg(g.group_id order by g.group_id) from agent_groups g
                   where g.account_id = a.account_id and g.agent_id = a.id), '{}') as group_ids
  from agents a
  where a.account_id = $1 and a.deleted_at is null`;

export async function listAgents(db: Queryable, accountId: string, presence: PresenceAt): Promise<AgentRow[]> {
  const { rows } = await db.query<AgentRow>(`${SELECT_AGENT} order by a.created_at, a.id`, [accountId, presence.at, presence.ttlSeconds]);
  return rows;
}

export async function findAgent(db: Queryable, accountId: string, id: string, presence: PresenceAt): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(`${SELECT_AGENT} and a.id = $4`, [accountId, presence.at, presence.ttlSeconds, id]);
  return rows[0] ?? null;
}

/**
 * SQL: whether some agent of the account, of the group `group` names when it is not null, is available at `at`
 * (docs/behaviour.md §3 and §5). The arguments name the query's parameters, so a larger query can embed it.
 */
export const agentAvailableSql = (account: string, group: string, at: string, ttl: string) =>
  `exists (select 1 from agents a
           where a.account_id = ${account} and a.deleted_at is null and ${availableSql(at, ttl)}
             and (${group}::text is null or exists (
               select 1 from agent_groups g where g.account_id = a.account_id and g.agent_id = a.id and g.group_id = ${group})))`;

/** Returns whether the agent exists (and was updated). */
export async function setAgentStatus(db: Queryable, accountId: string, id: string, status: Row<'agents'>['status']): Promise<boolean> {
  const { rowCount } = await db.query('update agents set status = $3 where account_id = $1 and id = $2 and deleted_at is null', [
    accountId,
    id,
    status,
  ]);
  return rowCount === 1;
}

/** Soft delete: the row stays for the messages and statistics that name the agent. */
export async function markAgentDeleted(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update agents set deleted_at = $3 where account_id = $1 and id = $2 and deleted_at is null', [
    accountId,
    id,
    at,
  ]);
  return rowCount === 1;
}

export async function recordPing(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update agents set last_ping_at = $3 where account_id = $1 and id = $2 and deleted_at is null', [
    accountId,
    id,
    at,
  ]);
  return rowCount === 1;
}

/** SQL: the ids of the text array `ids` that are not live agents of the account, in their order. */
export const missingAgentIdsSql = (account: string, ids: string) =>
  `array(select u.id from unnest(${ids}::text[]) with ordinality u (id, ord)
         where not exists (select 1 from agents a where a.account_id = ${account} and a.id = u.id and a.deleted_at is null)
         order by u.ord)`;

/**
 * Takes `count` agent numbers of account $1, in a CTE: the numbers are `last_number - count + 1` .. `last_number`.
 * Each account numbers its own agents, from a random 9-digit start, so an agent id tells nothing about how many
 * agents other accounts create (docs/behaviour.md §1, issue 18.10; migration 182). The row lock it takes serialises
 * the creation of agents within one account only.
 */
const takeAgentNumbersSql = (count: string) =>
  `insert into agent_numbers as taken (account_id, last_number)
   values ($1, 100000000 + floor(random() * 800000000)::bigint + ${count})
   on conflict (account_id) do update set last_number = taken.last_number + ${count}
   returning last_number`;

export async function insertAgent(
  db: Queryable,
  accountId: string,
  input: { email: string; full_name: string | null; nickname: string | null; role: Row<'agents'>['role']; created_at: Date },
): Promise<string | null> {
  // Conflict on the live-email index: null, so a concurrent duplicate is a 422, not a 500.
  const { rows } = await db.query<{ id: string }>(
    `with n as (${takeAgentNumbersSql('1')})
     insert into agents (account_id, id, email, full_name, nickname, role, created_at)
     select $1, n.last_number::text, $2, $3, $4, $5, $6 from n
     on conflict (account_id, lower(email)) where deleted_at is null do nothing
     returning id`,
    [accountId, input.email, input.full_name, input.nickname, input.role, input.created_at],
  );
  return rows[0]?.id ?? null;
}

export async function addAgentToGroups(db: Queryable, accountId: string, agentId: string, groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  await db.query(
    `insert into agent_groups (account_id, agent_id, group_id)
     select $1, $2, unnest($3::text[]) on conflict do nothing`,
    [accountId, agentId, groupIds],
  );
}

/** An agent of imported history (`chat-service demo-data`). */
export interface HistoryAgent {
  email: string;
  fullName: string;
  nickname: string;
  role: Row<'agents'>['role'];
  createdAt: Date;
}

/** Creates, in one statement, the agents whose email is not taken yet; returns every one's id by lower-case email. */
export async function ensureAgents(db: Queryable, accountId: string, agents: readonly HistoryAgent[]): Promise<Map<string, string>> {
  await db.query(
    `with n as (${takeAgentNumbersSql('cardinality($2::text[])')})
     insert into agents (account_id, id, email, full_name, nickname, role, created_at)
     select $1, (n.last_number - cardinality($2::text[]) + a.ord)::text, a.email, a.full_name, a.nickname, a.role, a.created_at
     from n, unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
       with ordinality as a (email, full_name, nickname, role, created_at, ord)
     order by a.ord
     on conflict (account_id, lower(email)) where deleted_at is null do nothing`,
    [
      accountId,
      agents.map((a) => a.email),
      agents.map((a) => a.fullName),
      agents.map((a) => a.nickname),
      agents.map((a) => a.role),
      agents.map((a) => a.createdAt),
    ],
  );
  const { rows } = await db.query<{ id: string; email: string }>(
    'select id, lower(email) as email from agents where account_id = $1 and deleted_at is null and lower(email) = any($2::text[])',
    [accountId, agents.map((a) => a.email.toLowerCase())],
  );
  return new Map(rows.map((row) => [row.email, row.id]));
}

/** Group memberships of several agents, in one statement; existing ones are kept. */
export async function addAgentsToGroups(
  db: Queryable,
  accountId: string,
  memberships: readonly { agentId: string; groupId: string }[],
): Promise<void> {
  await db.query(
    `insert into agent_groups (account_id, agent_id, group_id) select $1, * from unnest($2::text[], $3::text[]) on conflict do nothing`,
    [accountId, memberships.map((m) => m.agentId), memberships.map((m) => m.groupId)],
  );
}

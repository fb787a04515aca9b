import type { Queryable } from '../db/db.ts';
import type { Agent } from './schema.ts';

interface AgentRow {
  id: string;
  email: string;
  full_name: string | null;
  nickname: string | null;
  role: Agent['role'];
  status: Agent['status'];
  last_ping_at: Date | null;
  group_ids: string[];
  created_at: Date;
}

const SELECT_AGENT = `
  select a.id, a.email, a.full_name, a.nickname, a.role, a.status, a.last_ping_at, a.created_at,
         coalesce((select array_agg(g.group_id order by g.group_id) from agent_groups g
                   where g.account_id = a.account_id and g.agent_id = a.id), '{}') as group_ids
  from agents a
  where a.account_id = $1 and a.deleted_at is null`;

function toAgent(row: AgentRow, connectedSince: Date): Agent {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    nickname: row.nickname,
    role: row.role,
    status: row.status,
    is_connected: row.last_ping_at !== null && row.last_ping_at > connectedSince,
    last_ping_at: row.last_ping_at?.toISOString() ?? null,
    group_ids: row.group_ids,
    created_at: row.created_at.toISOString(),
  };
}

export async function listAgents(db: Queryable, accountId: string, connectedSince: Date): Promise<Agent[]> {
  const { rows } = await db.query<AgentRow>(`${SELECT_AGENT} order by a.created_at, a.id`, [accountId]);
  return rows.map((row) => toAgent(row, connectedSince));
}

export async function findAgent(db: Queryable, accountId: string, id: string, connectedSince: Date): Promise<Agent | null> {
  const { rows } = await db.query<AgentRow>(`${SELECT_AGENT} and a.id = $2`, [accountId, id]);
  return rows[0] ? toAgent(rows[0], connectedSince) : null;
}

/** Returns whether the agent exists (and was updated). */
export async function setAgentStatus(db: Queryable, accountId: string, id: string, status: Agent['status']): Promise<boolean> {
  const { rowCount } = await db.query(
    'update agents set status = $3 where account_id = $1 and id = $2 and deleted_at is null',
    [accountId, id, status],
  );
  return rowCount === 1;
}

/** Soft delete: the row stays for the messages and statistics that name the agent. */
export async function markAgentDeleted(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'update agents set deleted_at = $3 where account_id = $1 and id = $2 and deleted_at is null',
    [accountId, id, at],
  );
  return rowCount === 1;
}

export async function recordPing(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'update agents set last_ping_at = $3 where account_id = $1 and id = $2 and deleted_at is null',
    [accountId, id, at],
  );
  return rowCount === 1;
}

/** The ids among `ids` that are not live agents of the account. */
export async function missingAgentIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    'select id from agents where account_id = $1 and id = any($2::text[]) and deleted_at is null',
    [accountId, ids],
  );
  const found = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

export async function insertAgent(
  db: Queryable,
  accountId: string,
  input: { email: string; full_name: string | null; nickname: string | null; role: Agent['role'] },
): Promise<string | null> {
  // Conflict on the live-email index: null, so a concurrent duplicate is a 422, not a 500.
  const { rows } = await db.query<{ id: string }>(
    `insert into agents (account_id, email, full_name, nickname, role) values ($1, $2, $3, $4, $5)
     on conflict (account_id, lower(email)) where deleted_at is null do nothing
     returning id`,
    [accountId, input.email, input.full_name, input.nickname, input.role],
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

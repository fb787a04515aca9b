import type { AgentRow } from './repository.ts';
import type { Agent } from './schema.ts';

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    nickname: row.nickname,
    role: row.role,
    status: row.status,
    is_connected: row.is_connected,
    last_ping_at: row.last_ping_at?.toISOString() ?? null,
    group_ids: row.group_ids,
    created_at: row.created_at.toISOString(),
  };
}

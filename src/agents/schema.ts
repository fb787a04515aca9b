import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../http/schemas.ts';

export const AgentStatus = Type.Union([Type.Literal('online'), Type.Literal('offline')], {
  description: 'agent_status: `online` or `offline`',
});

export const AgentRole = Type.Union([Type.Literal('agent'), Type.Literal('admin'), Type.Literal('owner')]);

export const Agent = Type.Object(
  {
    id: Type.String({ description: 'Numeric string', examples: ['596772'] }),
    email: Type.String(),
    full_name: Nullable(Type.String()),
    nickname: Nullable(Type.String()),
    role: AgentRole,
    status: AgentStatus,
    is_connected: Type.Boolean({ description: 'True while the last ping is younger than PRESENCE_TTL_SECONDS' }),
    last_ping_at: Nullable(Timestamp),
    group_ids: Type.Array(Type.String()),
    created_at: Timestamp,
  },
  { title: 'agent' },
);
export type Agent = Static<typeof Agent>;

export const AgentList = Type.Object({ agents: Type.Array(Agent) });

export const UpdateAgentBody = Type.Object(
  { status: Type.Optional(Type.String({ enum: ['online', 'offline'], description: 'agent_status' })) },
  { additionalProperties: false },
);

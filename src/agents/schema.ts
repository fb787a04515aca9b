import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';

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

export const AGENT_ROLES = ['agent', 'admin', 'owner'] as const;

export const CreateAgentBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254, description: 'Unique among the account\'s agents, case-insensitively' }),
    full_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    nickname: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    role: Type.Optional(StringEnum(AGENT_ROLES, { description: 'Default `agent`' })),
    group_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, description: 'Groups of this account (unknown: 422 group_not_found)' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateAgentBody = Static<typeof CreateAgentBody>;

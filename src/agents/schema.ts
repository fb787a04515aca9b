import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';

export const AgentStatus = Type.Union([Type.Literal('online'), Type.Literal('offline')], {
  description: 'agent_status: `online` or `offline`',
});

export const AgentRole = Type.Union([Type.Literal('agent'), Type.Literal('admin'), Type.Literal('owner')], {
  description: 'What the agent may do in the account: `agent`, `admin` or `owner`',
});

export const Agent = Type.Object(
  {
    id: Type.String({ description: 'Numeric string', examples: ['596772'] }),
    email: Type.String({ description: "Unique among the account's agents, case-insensitively" }),
    full_name: Nullable(Type.String({ description: 'Full name; null when not given' })),
    nickname: Nullable(Type.String({ description: 'Name shown to contacts; null when not given' })),
    role: AgentRole,
    status: AgentStatus,
    is_connected: Type.Boolean({ description: 'True while the last ping is younger than PRESENCE_TTL_SECONDS' }),
    last_ping_at: Nullable({ ...Timestamp, description: 'Time of the last ping; null before the first' }),
    group_ids: Type.Array(Type.String(), { description: 'Groups the agent belongs to' }),
    created_at: Timestamp,
  },
  { title: 'agent' },
);
export type Agent = Static<typeof Agent>;

export const AgentList = Type.Object(
  { agents: Type.Array(Agent, { description: "The account's agents (not deleted ones), oldest first" }) },
  { title: 'agent_list' },
);

export const UpdateAgentBody = Type.Object(
  { status: Type.Optional(Type.String({ enum: ['online', 'offline'], description: 'agent_status' })) },
  { additionalProperties: false },
);

export const AGENT_ROLES = ['agent', 'admin', 'owner'] as const;

export const CreateAgentBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254, description: "Unique among the account's agents, case-insensitively" }),
    full_name: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Full name' }))),
    nickname: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'Name shown to contacts' }))),
    role: Type.Optional(StringEnum(AGENT_ROLES, { description: 'Default `agent`' })),
    group_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 100,
        description: 'Groups of this account (unknown: 422 group_not_found)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateAgentBody = Static<typeof CreateAgentBody>;

import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../http/schemas.ts';

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const Day = (description: string) =>
  Type.String({
    // A calendar date from year 1000 on; whether the day exists is checked by the service.
    pattern: '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$',
    description,
    examples: ['2024-03-05'],
  });

const commonParameters = {
  // Optional in the schema only: without it, a statistics:read bearer token must authenticate (checked before validation).
  apiKey: Type.Optional(
    Type.String({ description: "The account's legacy statistics key; required unless a statistics:read bearer token is sent" }),
  ),
  from: Type.Optional(Day('First day of the range (YYYY-MM-DD, account time zone, inclusive); default: 29 days before `to`')),
  to: Type.Optional(Day('Last day of the range (YYYY-MM-DD, account time zone, inclusive); default: today')),
  group: Type.Optional(Type.String({ description: 'Only conversations of this group (group id)' })),
};

/** Parameters of /stats/totals, as query string (GET) or form/JSON body (POST). */
export const TotalsParameters = Type.Object(commonParameters, { additionalProperties: false });

/** Parameters of /stats/overview and /stats/agents. */
export const IntervalParameters = Type.Object(
  {
    ...commonParameters,
    interval: Type.Optional(
      StringEnum(INTERVALS, { description: 'Unit of the records: day (default), week (ISO, Monday first) or month' }),
    ),
  },
  { additionalProperties: false },
);

/** Parameters after empty values are dropped; the schema has checked their form. */
export interface Parameters {
  from?: string;
  to?: string;
  group?: string;
  interval?: Interval;
}

const count = (description: string) => Type.Integer({ description });
const seconds = (description: string) => Type.Integer({ description: `${description}, in seconds` });

/** Counters shared by the overview and the per-agent entries (docs/behaviour.md §7). */
const chatCounters = {
  completed: count('Chats closed by an agent or the contact with every contact message answered'),
  completed1to3: count('Completed chats that lasted under 3 minutes'),
  completed3to5: count('Completed chats that lasted 3 to under 5 minutes'),
  completed5to10: count('Completed chats that lasted 5 to under 10 minutes'),
  completed10toInf: count('Completed chats that lasted 10 minutes or more'),
  dropped: count('Chats closed by the inactivity timeout'),
  droppedByVisitorInactivity: count('Dropped chats whose last message was the agent’s'),
  droppedByAgentInactivity: count('Dropped chats whose last message was the contact’s'),
  triggered: count('Conversations with a bot or trigger message'),
  avgDuration: seconds('Mean duration of completed and dropped chats (rounded)'),
  avgFirstResponse: seconds('Mean first-reply response time in completed and dropped chats (rounded)'),
  avgResponse: seconds('Mean reply response time in completed and dropped chats (rounded)'),
  totalDuration: seconds('Summed duration of completed and dropped chats'),
};

const overviewCounters = {
  visitors: count('Distinct contacts'),
  channels: count('Conversations'),
  chats: count('Conversations where both the contact and an agent wrote'),
  ...chatCounters,
  missed: count('Conversations where the contact wrote, no agent answered, and the first contact message was not offline'),
  offline: count('Conversations whose first contact message was offline'),
};

const agentCounters = {
  userId: Type.Integer({ description: 'The agent id as a number' }),
  nickname: Type.String({ description: 'The agent nickname (else full name, else e-mail)' }),
  ...chatCounters,
};

const unitFields = {
  unitId: Type.String({ description: 'day `2024-03-05`, week `2024-W10`, month `2024-03`' }),
  unitName: Type.String({ description: 'day `Mar 5`, week `W10`, month `Mar 2024`' }),
  unitLongName: Type.String({ description: 'day `Tuesday, March 5, 2024`, week `Mar 4 - Mar 10, 2024`, month `March 2024`' }),
};

export const Overview = Type.Object(overviewCounters, { title: 'legacy_overview' });
export type Overview = Static<typeof Overview>;
export const AgentEntry = Type.Object(agentCounters, { title: 'legacy_agent' });
export type AgentEntry = Static<typeof AgentEntry>;
export const OverviewRecord = Type.Object({ ...unitFields, ...overviewCounters }, { title: 'legacy_overview_record' });
export type OverviewRecord = Static<typeof OverviewRecord>;
export const AgentRecord = Type.Object({ ...unitFields, ...agentCounters }, { title: 'legacy_agent_record' });
export type AgentRecord = Static<typeof AgentRecord>;

const RangeFields = Type.Object(
  { from: Type.String({ description: 'First day counted' }), to: Type.String({ description: 'Last day counted' }) },
  { description: 'The range actually counted, defaults applied (YYYY-MM-DD, account time zone)' },
);

const success = Type.Literal(true);

export const TotalsResponse = Type.Object(
  { success, interval: RangeFields, overview: Overview, agents: Type.Array(AgentEntry) },
  { title: 'legacy_totals_response' },
);
export const OverviewResponse = Type.Object(
  {
    success,
    interval: RangeFields,
    records: Type.Record(Type.String(), OverviewRecord, { description: 'One record per unit overlapping the range, keyed by unitId' }),
  },
  { title: 'legacy_overview_response' },
);
export const AgentsResponse = Type.Object(
  {
    success,
    interval: RangeFields,
    records: Type.Array(AgentRecord, { description: 'One record per agent and unit, by unit then userId' }),
  },
  { title: 'legacy_agents_response' },
);

export const LegacyError = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: '`unauthorized` (bad apiKey), `invalid_parameters`, ...' }),
      message: Type.String({ description: 'Names the parameter at fault' }),
    }),
  },
  { title: 'legacy_error' },
);

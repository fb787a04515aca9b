import type { Deps } from '../deps.ts';
import { ApiError, invalidArgument, notFound } from '../http/errors.ts';
import { missingGroupIds } from '../named-resources/repository.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Agent, CreateAgentBody } from './schema.ts';
import * as repo from './repository.ts';
import type { PresenceAt } from './repository.ts';
import { toAgent } from './presenter.ts';

type AgentDeps = Pick<Deps, 'db' | 'config' | 'now'>;

/** Presence as of now. */
const presenceNow = (deps: AgentDeps): PresenceAt => ({ at: deps.now(), ttlSeconds: deps.config.presenceTtlSeconds });

export async function listAgents(deps: AgentDeps, accountId: string): Promise<Agent[]> {
  return (await repo.listAgents(deps.db, accountId, presenceNow(deps))).map(toAgent);
}

export async function getAgent(deps: AgentDeps, accountId: string, id: string): Promise<Agent> {
  const row = await repo.findAgent(deps.db, accountId, id, presenceNow(deps));
  if (!row) throw notFound(`Agent ${id}`);
  return toAgent(row);
}

export async function updateAgent(deps: AgentDeps, accountId: string, id: string, input: { status?: Agent['status'] }): Promise<Agent> {
  return deps.db.transaction(async (tx) => {
    const existing = await repo.findAgent(tx, accountId, id, presenceNow(deps));
    if (!existing) throw notFound(`Agent ${id}`);
    if (input.status === undefined || input.status === existing.status) return toAgent(existing);
    await repo.setAgentStatus(tx, accountId, id, input.status);
    const agent = toAgent({ ...existing, status: input.status });
    await recordEvent(tx, accountId, deps.now(), 'agent.updated', { agent });
    return agent;
  });
}

/** Marks the agent connected for PRESENCE_TTL_SECONDS from now. */
export async function pingAgent(deps: AgentDeps, accountId: string, id: string): Promise<void> {
  if (!(await repo.recordPing(deps.db, accountId, id, deps.now()))) throw notFound(`Agent ${id}`);
}

export type NewAgent = CreateAgentBody;

/** Management: adds an agent (offline, not connected) to the account. */
export async function createAgent(deps: AgentDeps, accountId: string, input: NewAgent): Promise<Agent> {
  return deps.db.transaction(async (tx) => {
    const groupIds = [...new Set(input.group_ids ?? [])];
    const missingGroups = await missingGroupIds(tx, accountId, groupIds);
    if (missingGroups.length > 0) throw new ApiError(422, 'group_not_found', `Group ${missingGroups[0]} not found`);
    const id = await repo.insertAgent(tx, accountId, {
      email: input.email,
      full_name: input.full_name ?? null,
      nickname: input.nickname ?? null,
      role: input.role ?? 'agent',
      created_at: deps.now(),
    });
    if (id === null) throw invalidArgument('email', 'unique', 'is already used by another agent');
    await repo.addAgentToGroups(tx, accountId, id, groupIds);
    // Inserted above, in this transaction: found.
    return toAgent((await repo.findAgent(tx, accountId, id, presenceNow(deps)))!);
  });
}

/** Management: removes an agent from lists and lookups; its history keeps naming it. */
export async function deleteAgent(deps: AgentDeps, accountId: string, id: string): Promise<void> {
  if (!(await repo.markAgentDeleted(deps.db, accountId, id, deps.now()))) throw notFound(`Agent ${id}`);
}

/**
 * Bulk SQL of the demo data generator: every batch is one INSERT ... SELECT
 * FROM unnest(column arrays), so thousands of rows cost one round trip.
 */
import type { Queryable } from '../db/db.ts';
import { newId } from '../ids.ts';
import type { MessageRow } from './replay.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function accountTimezone(db: Queryable, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ timezone: string }>('select timezone from accounts where account_id = $1', [accountId]);
  return rows[0]?.timezone ?? null;
}

export interface DemoAgentInput {
  email: string;
  fullName: string;
  nickname: string;
  role: 'agent' | 'admin';
  createdAt: number;
}

/** Creates the agents whose email is not taken yet; returns every one's id by lower-case email. */
export async function ensureAgents(db: Queryable, accountId: string, agents: DemoAgentInput[]): Promise<Map<string, string>> {
  await db.query(
    `insert into agents (account_id, email, full_name, nickname, role, created_at)
     select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
     on conflict (account_id, lower(email)) where deleted_at is null do nothing`,
    [
      accountId,
      agents.map((a) => a.email),
      agents.map((a) => a.fullName),
      agents.map((a) => a.nickname),
      agents.map((a) => a.role),
      agents.map((a) => iso(a.createdAt)),
    ],
  );
  const { rows } = await db.query<{ id: string; email: string }>(
    'select id, lower(email) as email from agents where account_id = $1 and deleted_at is null and lower(email) = any($2::text[])',
    [accountId, agents.map((a) => a.email.toLowerCase())],
  );
  return new Map(rows.map((row) => [row.email, row.id]));
}

/**
 * Ids of the named rows of `table` (groups, tags or bots), creating the missing
 * ones, so running the generator again on an account reuses them.
 */
export async function ensureNamed(
  db: Queryable,
  accountId: string,
  table: 'groups' | 'tags' | 'bots',
  names: string[],
  createdAt: number,
): Promise<Map<string, string>> {
  const prefix = { groups: 'gr', tags: 'tg', bots: 'bo' } as const;
  const { rows: existing } = await db.query<{ id: string; name: string }>(
    `select min(id) as id, name from ${table} where account_id = $1 and name = any($2::text[]) group by name`,
    [accountId, names],
  );
  const ids = new Map(existing.map((row) => [row.name, row.id]));
  const missing = names.filter((name) => !ids.has(name));
  for (const name of missing) ids.set(name, newId(prefix[table]));
  if (missing.length > 0) {
    // A bot's trigger starts with the bot: both times are the set-up time.
    const times = table === 'bots' ? ['created_at', 'trigger_updated_at'] : ['created_at'];
    await db.query(
      `insert into ${table} (account_id, id, name, ${times.join(', ')})
       select $1, n.id, n.name, ${times.map(() => 'n.at').join(', ')} from unnest($2::text[], $3::text[], $4::timestamptz[]) as n (id, name, at)`,
      [accountId, missing.map((name) => ids.get(name)), missing, missing.map(() => iso(createdAt))],
    );
  }
  return ids;
}

export async function addAgentsToGroups(
  db: Queryable,
  accountId: string,
  memberships: { agentId: string; groupId: string }[],
): Promise<void> {
  await db.query(
    `insert into agent_groups (account_id, agent_id, group_id) select $1, * from unnest($2::text[], $3::text[]) on conflict do nothing`,
    [accountId, memberships.map((m) => m.agentId), memberships.map((m) => m.groupId)],
  );
}

export interface ContactRow {
  id: string;
  email: string | null;
  identityId: string | null;
  name: string | null;
  phone: string | null;
  createdAt: number;
}

export async function insertContacts(db: Queryable, accountId: string, contacts: ContactRow[]): Promise<void> {
  if (contacts.length === 0) return;
  await db.query(
    `insert into contacts (account_id, id, email, identity_id, name, phone, created_at, updated_at)
     select $1, c.id, c.email, c.identity_id, c.name, c.phone, c.created_at, c.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
       as c (id, email, identity_id, name, phone, created_at)`,
    [
      accountId,
      contacts.map((c) => c.id),
      contacts.map((c) => c.email),
      contacts.map((c) => c.identityId),
      contacts.map((c) => c.name),
      contacts.map((c) => c.phone),
      contacts.map((c) => iso(c.createdAt)),
    ],
  );
}

/** Messages in the order given, which is their `seq` order. */
export async function insertMessages(db: Queryable, accountId: string, messages: MessageRow[]): Promise<void> {
  if (messages.length === 0) return;
  const column = <T>(get: (m: MessageRow) => T) => messages.map(get);
  await db.query(
    `insert into messages (account_id, id, conversation_id, type, sub_type, agent_id, trigger_id, content, text,
                           is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at)
     select $1, m.id, m.conversation_id, m.type, m.sub_type, m.agent_id, m.trigger_id, m.content::jsonb, m.text,
            m.is_reply, m.is_first_reply, m.is_offline, m.is_offline_reply, m.response_time, m.group_id, m.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                 $10::bool[], $11::bool[], $12::bool[], $13::bool[], $14::float8[], $15::text[], $16::timestamptz[])
            with ordinality
       as m (id, conversation_id, type, sub_type, agent_id, trigger_id, content, text,
             is_reply, is_first_reply, is_offline, is_offline_reply, response_time, group_id, created_at, position)
     order by m.position`,
    [
      accountId,
      column((m) => m.id),
      column((m) => m.conversationId),
      column((m) => m.type),
      column((m) => m.subType),
      column((m) => m.agentId),
      column((m) => m.triggerId),
      column((m) => m.content),
      column((m) => m.text),
      column((m) => m.isReply),
      column((m) => m.isFirstReply),
      column((m) => m.isOffline),
      column((m) => m.isOfflineReply),
      column((m) => m.responseTime),
      column((m) => m.groupId),
      column((m) => iso(m.createdAt)),
    ],
  );
}

export interface PathRow {
  conversationId: string;
  url: string;
  title: string;
  createdAt: number;
}

export async function insertPaths(db: Queryable, accountId: string, paths: PathRow[]): Promise<void> {
  if (paths.length === 0) return;
  await db.query(
    `insert into paths (account_id, conversation_id, url, title, created_at)
     select $1, p.conversation_id, p.url, p.title, p.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) with ordinality as p (conversation_id, url, title, created_at, position)
     order by p.position`,
    [accountId, paths.map((p) => p.conversationId), paths.map((p) => p.url), paths.map((p) => p.title), paths.map((p) => iso(p.createdAt))],
  );
}

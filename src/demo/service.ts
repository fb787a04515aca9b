/**
 * `chat-service demo-data`: fills an account with a realistic history, as if the
 * service had been storing it live, generated in batches and written in bulk.
 */
import { createMonthPartitions } from '../db/partitions.ts';
import type { Db } from '../db/db.ts';
import { notFound } from '../http/errors.ts';
import { itemAt } from '../arrays.ts';
import { Random } from './random.ts';
import { LocalCalendar, DAY_MS } from './local-time.ts';
import { conversationsPerDay, planConversation, startsOnDay, type DemoWorld } from './plan.ts';
import { replay } from './replay.ts';
import { accountTimezone } from '../accounts/repository.ts';
import { addAgentsToGroups, ensureAgents } from '../agents/repository.ts';
import { ensureBots } from '../bots/repository.ts';
import { insertHistoryContacts, type HistoryContact } from '../contacts/repository.ts';
import {
  insertConversations,
  insertHistoryMessages,
  insertHistoryPaths,
  type ConversationRow,
  type HistoryMessage,
  type HistoryPath,
} from '../conversations/repository.ts';
import { ensureNamed } from '../named-resources/repository.ts';
import { GROUPS as GROUP_KIND, TAGS as TAG_KIND } from '../named-resources/kinds.ts';

export interface DemoDataOptions {
  accountId: string;
  conversations: number;
  /** History covers the local days from `days` days ago to today. */
  days: number;
  seed: string;
  now: Date;
  /** The service's INACTIVITY_TIMEOUT_SECONDS, which decides inactivity closes. */
  inactivityTimeoutSeconds: number;
  /** Called after each written batch with the number of conversations written so far. */
  onProgress?: (conversationsWritten: number) => void;
}

export interface DemoDataSummary {
  conversations: number;
  messages: number;
  contacts: number;
  agents: number;
}

/** Conversations are written once a batch holds this many messages. */
const MESSAGES_PER_BATCH = 10_000;

const FIRST_NAMES = [
  'Anna',
  'Petr',
  'Lucie',
  'Tomas',
  'Eva',
  'Jan',
  'Maria',
  'David',
  'Sara',
  'Martin',
  'Julia',
  'Pavel',
  'Lena',
  'Adam',
  'Nina',
  'Oscar',
];
const LAST_NAMES = ['Novak', 'Svoboda', 'Smith', 'Garcia', 'Muller', 'Rossi', 'Dvorak', 'Kowalski', 'Jensen', 'Brown', 'Silva', 'Horak'];
const GROUPS = [
  { name: 'Sales', weight: 3 },
  { name: 'Support', weight: 5 },
  { name: 'Billing', weight: 2 },
  { name: 'Technical', weight: 2 },
];
const TAG_NAMES = ['vip', 'refund', 'bug', 'feature-request', 'shipping', 'complaint'];
const BOT_NAMES = ['Welcome bot', 'Pricing helper'];
const AGENT_COUNT = 14;

/** Agents, groups (each agent in one or two), tags and bots: reused when the account already has them. */
async function buildWorld(db: Db, accountId: string, random: Random, setUpAt: number): Promise<DemoWorld & { agentCount: number }> {
  return db.transaction(async (tx) => {
    const agentInputs = Array.from({ length: AGENT_COUNT }, (_, i) => {
      const first = itemAt(FIRST_NAMES, i % FIRST_NAMES.length);
      const last = itemAt(LAST_NAMES, (i * 5) % LAST_NAMES.length);
      return {
        email: `${first}.${last}.demo${i + 1}@example.com`.toLowerCase(),
        fullName: `${first} ${last}`,
        nickname: first,
        role: i === 0 ? ('admin' as const) : ('agent' as const),
        createdAt: new Date(setUpAt),
      };
    });
    const agentIds = [...(await ensureAgents(tx, accountId, agentInputs)).values()].sort();
    const setUp = new Date(setUpAt);
    const groupIds = await ensureNamed(
      tx,
      GROUP_KIND,
      accountId,
      GROUPS.map((g) => g.name),
      setUp,
    );
    const tagIds = await ensureNamed(tx, TAG_KIND, accountId, TAG_NAMES, setUp);
    const botIds = await ensureBots(tx, accountId, BOT_NAMES, setUp);

    const agentsByGroup = new Map<string, string[]>([['', agentIds]]);
    const memberships: { agentId: string; groupId: string }[] = [];
    agentIds.forEach((agentId, i) => {
      const groups = [itemAt(GROUPS, i % GROUPS.length).name];
      if (random.chance(0.3)) groups.push(random.pick(GROUPS).name);
      for (const name of new Set(groups)) {
        const groupId = groupIds.get(name)!;
        memberships.push({ agentId, groupId });
        agentsByGroup.set(groupId, [...(agentsByGroup.get(groupId) ?? []), agentId]);
      }
    });
    await addAgentsToGroups(tx, accountId, memberships);
    return {
      agentsByGroup,
      groupIds: GROUPS.map((g) => groupIds.get(g.name)!),
      groupWeights: GROUPS.map((g) => g.weight),
      tagIds: [...tagIds.values()],
      botIds: [...botIds.values()],
      agentCount: agentIds.length,
    };
  });
}

function newContact(random: Random, ids: Random, firstSeenAt: number): HistoryContact {
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const id = ids.id('ct');
  return {
    id,
    email: random.chance(0.6) ? `${first}.${last}${random.int(1, 9999)}@example.net`.toLowerCase() : null,
    // Identity ids are unique per account: derive them from the random id.
    identityId: random.chance(0.2) ? `user-${id.slice(2)}` : null,
    name: random.chance(0.7) ? `${first} ${last}` : null,
    phone: random.chance(0.15) ? `+420 ${random.int(600, 799)} ${random.int(100, 999)} ${random.int(100, 999)}` : null,
    createdAt: new Date(firstSeenAt),
  };
}

export async function generateDemoData(db: Db, options: DemoDataOptions): Promise<DemoDataSummary> {
  const timezone = await accountTimezone(db, options.accountId);
  if (timezone === null) throw notFound(`Account ${options.accountId}`);
  const random = new Random(options.seed);
  // Identifiers must not repeat when the same seed runs twice on one account.
  const ids = Random.unpredictable();
  const calendar = new LocalCalendar(timezone);
  const nowMs = options.now.getTime();
  const inactivityMs = options.inactivityTimeoutSeconds * 1000;
  const lastDay = calendar.localDay(nowMs);
  const firstDay = lastDay - options.days;
  const world = await buildWorld(db, options.accountId, random, (firstDay - 30) * DAY_MS);
  // The history's months get their partitions first, so its rows go straight to them (src/db/partitions.ts).
  await createMonthPartitions({ db, now: () => options.now }, new Date((firstDay - 30) * DAY_MS));

  const summary: DemoDataSummary = { conversations: 0, messages: 0, contacts: 0, agents: world.agentCount };
  const knownContacts: string[] = [];
  let contacts: HistoryContact[] = [];
  let conversations: ConversationRow[] = [];
  let messages: HistoryMessage[] = [];
  let paths: HistoryPath[] = [];

  const flush = async () => {
    await db.transaction(async (tx) => {
      await insertHistoryContacts(tx, options.accountId, contacts);
      await insertConversations(tx, options.accountId, conversations);
      await insertHistoryMessages(tx, options.accountId, messages);
      await insertHistoryPaths(tx, options.accountId, paths);
    });
    summary.contacts += contacts.length;
    summary.conversations += conversations.length;
    summary.messages += messages.length;
    contacts = [];
    conversations = [];
    messages = [];
    paths = [];
    options.onProgress?.(summary.conversations);
  };

  const perDay = conversationsPerDay(random, firstDay, lastDay, options.conversations);
  for (const [i, count] of perDay.entries()) {
    for (const start of startsOnDay(random, calendar, firstDay + i, count, nowMs)) {
      const plan = planConversation(random, world, calendar, start);
      const conversationId = ids.id('co');
      const stored = replay(plan.actions, {
        conversationId,
        groupId: plan.groupId,
        nowMs,
        inactivityMs,
        newMessageId: () => ids.id('ms'),
      });
      let contactId: string;
      if (knownContacts.length > 0 && random.chance(0.3)) {
        contactId = random.pick(knownContacts);
      } else {
        const contact = newContact(random, ids, plan.paths[0]?.at ?? stored.conversation.created_at.getTime());
        contacts.push(contact);
        knownContacts.push(contact.id);
        contactId = contact.id;
      }
      conversations.push({
        ...stored.conversation,
        id: conversationId,
        ext_id: null,
        contact_id: contactId,
        group_id: plan.groupId,
        domain: plan.paths[0] ? new URL(plan.paths[0].url).host : null,
        tags: plan.tags,
        variables: plan.variables,
      });
      messages.push(...stored.messages);
      for (const path of plan.paths) paths.push({ conversationId, url: path.url, title: path.title, createdAt: new Date(path.at) });
      if (messages.length >= MESSAGES_PER_BATCH) await flush();
    }
  }
  await flush();
  return summary;
}

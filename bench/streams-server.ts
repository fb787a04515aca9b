/**
 * The service for `npm run bench:streams` (bench/streams.ts), forked with an IPC channel:
 * startServer, what `chat-service serve` runs, configured from the environment, plus
 * BENCH_ACCOUNTS accounts created through the server's own database (a PGlite data
 * directory has one process). Answers `memory` with its RSS and heap as they are and
 * after a forced GC (run with --expose-gc), `cpu` with its CPU time, and `visitors`
 * with the visitors it wrote (below); `stop` stops it.
 */
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import type { Db } from '../src/db/db.ts';
import { newId, randomString, sha256 } from '../src/ids.ts';
import { createAccount } from '../src/accounts/service.ts';
import { insertHistoryContacts, type HistoryContact } from '../src/contacts/repository.ts';
import { insertConversations, insertHistoryMessages, type ConversationRow, type HistoryMessage } from '../src/conversations/repository.ts';
import { insertSession } from '../src/visitors/repository.ts';
import { replay } from '../src/demo/replay.ts';

/** What the narrow case needs of one visitor: its token and the id of its conversation. */
export interface BenchVisitor {
  token: string;
  conversationId: string;
}

export type ServerCommand = 'memory' | 'cpu' | 'stop' | { visitors: { accountId: string; count: number } };

/** Visitors written per transaction. */
const VISITOR_BATCH = 1000;
/**
 * The visitors started an hour ago: a visitor's request over a minute after its last one writes its session's
 * last_seen_at (src/visitors/service.ts), so every stream's open writes it, as a returning visitor's does. Visitors
 * written just now would be written so only by the sizes opened a minute or more later, and open costs would differ.
 */
const VISITORS_STARTED_MS_AGO = 3_600_000;

const config = loadConfig(process.env);
const server = await startServer(config, () => undefined);
const accounts = [];
for (let i = 0; i < Number(process.env.BENCH_ACCOUNTS ?? 10); i++) {
  const account = await createAccount({ db: server.db, now: () => new Date() }, { name: `Bench ${i}` });
  accounts.push({ id: account.account_id, token: account.token });
}
process.send?.({ ready: { url: server.url, accounts } });

/**
 * `count` visitors of the account, each an anonymous contact with a visitor session and a conversation its first
 * message opened: the rows POST /widget/v1/session and POST /widget/v1/conversations store (15,000 of those over
 * HTTP take minutes), written in bulk through the tables' owners as `chat-service demo-data` writes its history,
 * the conversation's columns derived by the service's own steps (src/demo/replay.ts). Records no event: the
 * visitors' streams open after them.
 */
async function writeVisitors(db: Db, accountId: string, count: number): Promise<BenchVisitor[]> {
  const visitors: BenchVisitor[] = [];
  for (let first = 0; first < count; first += VISITOR_BATCH) {
    const at = new Date(Date.now() - VISITORS_STARTED_MS_AGO);
    const contacts: HistoryContact[] = [];
    const conversations: ConversationRow[] = [];
    const messages: HistoryMessage[] = [];
    const sessions: { contactId: string; token: string }[] = [];
    for (let i = first; i < Math.min(count, first + VISITOR_BATCH); i++) {
      const contactId = newId('ct');
      const conversationId = newId('co');
      // No agent is online in the benchmark: the service stores a visitor's first message as offline.
      const stored = replay([{ kind: 'contact', at: at.getTime(), text: 'Hello', offline: true }], {
        conversationId,
        groupId: null,
        nowMs: at.getTime(),
        inactivityMs: config.inactivityTimeoutSeconds * 1000,
        newMessageId: () => newId('ms'),
      });
      contacts.push({ id: contactId, email: null, identityId: null, name: null, phone: null, createdAt: at });
      conversations.push({
        ...stored.conversation,
        id: conversationId,
        ext_id: null,
        contact_id: contactId,
        group_id: null,
        domain: null,
        tags: [],
        variables: {},
      });
      messages.push(...stored.messages);
      const token = `vt_${randomString(43)}`;
      sessions.push({ contactId, token });
      visitors.push({ token, conversationId });
    }
    await db.transaction(async (tx) => {
      await insertHistoryContacts(tx, accountId, contacts);
      await insertConversations(tx, accountId, conversations);
      await insertHistoryMessages(tx, accountId, messages);
      for (const { contactId, token } of sessions) {
        await insertSession(tx, { accountId, id: randomString(16), contactId, tokenHash: sha256(token), at });
      }
    });
  }
  return visitors;
}

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', async (message: ServerCommand) => {
  if (message === 'memory') {
    const before = process.memoryUsage();
    gc?.();
    const after = process.memoryUsage();
    process.send?.({ memory: { rss: before.rss, heap: before.heapUsed, rssAfterGc: after.rss, heapAfterGc: after.heapUsed } });
  } else if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: (user + system) / 1000 });
  } else if (message === 'stop') {
    await server.stop();
    process.exit(0);
  } else {
    process.send?.({ visitors: await writeVisitors(server.db, message.visitors.accountId, message.visitors.count) });
  }
});

import type { ConversationForChange } from './repository.ts';

/**
 * The conversations this instance last wrote a message to, as written, with their versions: the next message to one
 * is written conditional on that version (and on what else its read would have checked: repository `WriteCondition`)
 * without reading it first, one statement instead of two. An entry another writer overtook (another instance, or any
 * other change) writes nothing, and the message is read and written as before, so an entry only ever saves a read,
 * never decides anything. Entries are bounded in number, and one older than a minute is never used and is dropped at
 * the next write, so a conversation's data does not stay in memory long after its last message on a busy instance.
 */
export interface RecentConversations {
  /** The entry for the conversation, removed (a message in flight uses it once), if there is one younger than the age. */
  take(accountId: string, id: string): ConversationForChange | undefined;
  put(accountId: string, id: string, entry: ConversationForChange): void;
}

const MAX_ENTRIES = 4096;
const MAX_AGE_MS = 60_000;

/** One set per database: the apps of one process that share a database (tests) share its entries. */
const byDatabase = new WeakMap<object, RecentConversations>();

export function recentConversations(db: object): RecentConversations {
  let recent = byDatabase.get(db);
  if (!recent) {
    recent = createRecentConversations();
    byDatabase.set(db, recent);
  }
  return recent;
}

/** `clock`: milliseconds from any fixed start, never going back (tests pass their own). */
export function createRecentConversations(clock: () => number = () => performance.now()): RecentConversations {
  // Insertion order is age order: an entry is put again (not updated) after each write.
  const entries = new Map<string, { entry: ConversationForChange; at: number }>();
  return {
    take(accountId, id) {
      const key = `${accountId}/${id}`;
      const found = entries.get(key);
      if (!found) return undefined;
      entries.delete(key);
      return clock() - found.at <= MAX_AGE_MS ? found.entry : undefined;
    },
    put(accountId, id, entry) {
      const key = `${accountId}/${id}`;
      entries.delete(key);
      const now = clock();
      entries.set(key, { entry, at: now });
      for (const [oldKey, old] of entries) {
        if (entries.size <= MAX_ENTRIES && now - old.at <= MAX_AGE_MS) break;
        entries.delete(oldKey);
      }
    },
  };
}

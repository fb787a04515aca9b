import type { ConversationForChange } from './repository.ts';

/**
 * What this instance last wrote or judged, by account and key, so the next write can go without reading it first: it is
 * written conditional on what it assumes (repository `WriteCondition`), and when that no longer holds (another instance
 * wrote, anything changed) nothing is written and the write is made again after a read. So an entry only ever saves a
 * read, never decides anything. Entries are bounded in number, and one older than a minute is never used and is dropped
 * at the next put, so nothing stays in memory long after its last use on a busy instance.
 */
export interface Recent<T> {
  /** The entry, removed (a write in flight uses it once), if there is one younger than the age. */
  take(accountId: string, key: string): T | undefined;
  /** The entry, kept for the next, if there is one younger than the age. */
  get(accountId: string, key: string): T | undefined;
  put(accountId: string, key: string, entry: T): void;
}

const MAX_ENTRIES = 4096;
const MAX_AGE_MS = 60_000;

/** `clock`: milliseconds from any fixed start, never going back (tests pass their own). */
export function createRecent<T>(clock: () => number = () => performance.now()): Recent<T> {
  // Insertion order is age order: an entry is put again (not updated) after each write.
  const entries = new Map<string, { entry: T; at: number }>();
  const young = (accountId: string, key: string, remove: boolean) => {
    const id = `${accountId}/${key}`;
    const found = entries.get(id);
    if (!found) return undefined;
    if (remove) entries.delete(id);
    return clock() - found.at <= MAX_AGE_MS ? found.entry : undefined;
  };
  return {
    take: (accountId, key) => young(accountId, key, true),
    get: (accountId, key) => young(accountId, key, false),
    put(accountId, key, entry) {
      const id = `${accountId}/${key}`;
      entries.delete(id);
      const now = clock();
      entries.set(id, { entry, at: now });
      for (const [oldId, old] of entries) {
        if (entries.size <= MAX_ENTRIES && now - old.at <= MAX_AGE_MS) break;
        entries.delete(oldId);
      }
    },
  };
}

/** One set per database: the apps of one process that share a database (tests) share its entries. */
function perDatabase<T>(): (db: object) => Recent<T> {
  const byDatabase = new WeakMap<object, Recent<T>>();
  return (db) => {
    let recent = byDatabase.get(db);
    if (!recent) {
      recent = createRecent<T>();
      byDatabase.set(db, recent);
    }
    return recent;
  };
}

/**
 * The conversations this instance last created or wrote a message to, by id, as written, with their versions: the
 * next message to one is written conditional on that version, one statement instead of two.
 */
export const recentConversations = perDatabase<ConversationForChange>();

/**
 * Whether an agent was available when this instance last judged a live contact message of a new conversation, by group
 * (`''` for none): the next create is written assuming the same, one statement instead of two.
 */
export const recentAvailability = perDatabase<boolean>();

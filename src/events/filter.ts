/**
 * What one event stream reads: the events of one account, or of some of its
 * conversations, of some types. The hub indexes its streams by these fields
 * (src/events/hub.ts), so an event costs work only for the streams it matches.
 */
export interface EventFilter {
  accountId: string;
  /**
   * Only the events of these conversations: events that belong to no conversation
   * (`contact.created`, `agent.updated`) are then left out. Absent: every event of the account.
   * A stream keeps them as a set it can grow (StreamOptions.onSubscribed, Subscription.addConversation).
   */
  conversationIds?: ReadonlySet<string> | readonly string[];
  /** Only events of these types. Absent: every type. */
  types?: ReadonlySet<string>;
}

/** The fields of an event a filter looks at. */
export interface FilteredFields {
  account_id: string;
  conversation_id: string | null;
  type: string;
}

export function matchesFilter(filter: EventFilter, event: FilteredFields): boolean {
  if (event.account_id !== filter.accountId) return false;
  if (filter.types && !filter.types.has(event.type)) return false;
  if (!filter.conversationIds) return true;
  if (event.conversation_id === null) return false;
  const ids = filter.conversationIds;
  return 'has' in ids ? ids.has(event.conversation_id) : ids.includes(event.conversation_id);
}

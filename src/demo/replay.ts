/**
 * Derives every stored column of a conversation and its messages from what
 * happened in it, by the rules the service applies when it stores each change
 * (docs/behaviour.md §5 and §7). Messages go through the service's own step
 * (conversationAfterMessage: flags, status, unread, last message, reply state);
 * assignments, closes and ratings follow the service's rules for them.
 */
import {
  conversationAfterAssign,
  conversationAfterClose,
  conversationAfterMessage,
  newConversationState,
  type StoredMessage,
} from '../conversations/flags.ts';
import type { ConversationRow, HistoryMessage } from '../conversations/repository.ts';
import { itemAt } from '../arrays.ts';

export type Action =
  | { kind: 'contact'; at: number; text: string; offline: boolean }
  | { kind: 'agent'; at: number; text: string; agentId: string }
  | { kind: 'bot'; at: number; text: string }
  | { kind: 'trigger'; at: number; text: string; triggerId: string }
  | { kind: 'note'; at: number; text: string; agentId: string }
  | { kind: 'assign'; at: number; agentId: string }
  | { kind: 'close'; at: number }
  | { kind: 'rate'; at: number; value: 1 | 3 | 5; text: string | null };

/** The conversation columns replay derives; the generator adds the ones its plan fixes (contact, group, tags...). */
export type ReplayedConversation = Omit<ConversationRow, 'id' | 'ext_id' | 'contact_id' | 'group_id' | 'domain' | 'tags' | 'variables'>;

export interface ReplayContext {
  conversationId: string;
  groupId: string | null;
  /** Actions after this instant have not happened yet and are dropped. */
  nowMs: number;
  inactivityMs: number;
  newMessageId: () => string;
}

/** `actions` must be in time order, the first one a message. */
export function replay(
  actions: readonly Action[],
  context: ReplayContext,
): { conversation: ReplayedConversation; messages: HistoryMessage[] } {
  const messages: HistoryMessage[] = [];
  const createdAt = new Date(itemAt(actions, 0).at);
  let state: ReplayedConversation = {
    ...newConversationState(createdAt),
    assigned_ids: [],
    rating_value: null,
    rating_text: null,
    rated_at: null,
    created_at: createdAt,
  };

  const close = (at: number, type: 'agent' | 'inactivity') => {
    state = { ...conversationAfterClose(state, new Date(at), type), updated_at: new Date(at) };
  };
  // The inactivity job closes a conversation idle longer than the timeout, at
  // its last message's time plus the timeout.
  const closeIfIdleAt = (instant: number) => {
    const lastAt = state.last_message_at?.getTime();
    if (state.status !== 'closed' && lastAt !== undefined && instant - lastAt > context.inactivityMs) {
      close(lastAt + context.inactivityMs, 'inactivity');
    }
  };
  /** Stores a message as the service does when it happens live (src/conversations/flags.ts). */
  const store = (
    message: StoredMessage & { type: HistoryMessage['type']; sub_type: HistoryMessage['subType'] },
    content: string,
    triggerId: string | null = null,
  ) => {
    const { flags, conversation } = conversationAfterMessage(state, message, message.created_at);
    state = conversation;
    messages.push({
      id: context.newMessageId(),
      conversationId: context.conversationId,
      type: message.type,
      subType: message.sub_type,
      agentId: message.agent_id,
      triggerId,
      content,
      text: message.text,
      isReply: flags.is_reply,
      isFirstReply: flags.is_first_reply,
      isOffline: flags.is_offline,
      isOfflineReply: flags.is_offline_reply,
      responseTime: flags.response_time,
      groupId: context.groupId,
      createdAt: message.created_at,
    });
  };
  const said = (
    type: 'message' | 'note',
    subType: 'contact' | 'agent' | 'bot' | 'trigger',
    agentId: string | null,
    action: { at: number; text: string },
    offline = false,
  ) => ({ type, sub_type: subType, agent_id: agentId, text: action.text, created_at: new Date(action.at), offline }) as const;
  const textContent = (text: string) => JSON.stringify({ type: 'text', text, html: null });

  for (const action of actions) {
    if (action.at > context.nowMs) break;
    closeIfIdleAt(action.at);
    switch (action.kind) {
      case 'contact':
        store(said('message', 'contact', null, action, action.offline), textContent(action.text));
        break;
      case 'agent':
        store(said('message', 'agent', action.agentId, action), textContent(action.text));
        break;
      case 'bot':
        store(said('message', 'bot', null, action), textContent(action.text));
        break;
      case 'trigger':
        store(said('message', 'trigger', null, action), textContent(action.text), action.triggerId);
        break;
      case 'note':
        store(said('note', 'agent', action.agentId, action), textContent(action.text));
        break;
      case 'assign':
        // The service refuses to assign on a closed conversation (docs/behaviour.md §5).
        if (state.status === 'closed' || state.assigned_ids.includes(action.agentId)) break;
        state = conversationAfterAssign(state, action.agentId);
        store(
          { type: 'event', sub_type: 'system', agent_id: action.agentId, text: null, created_at: new Date(action.at), offline: false },
          JSON.stringify({ type: 'agent_assigned', text: null, data: { agent_id: action.agentId } }),
        );
        break;
      case 'close':
        if (state.status !== 'closed') close(action.at, 'agent');
        break;
      case 'rate':
        state.rating_value = action.value;
        state.rating_text = action.text;
        state.rated_at = new Date(action.at);
        state.updated_at = new Date(action.at);
        break;
    }
  }
  closeIfIdleAt(context.nowMs);
  return { conversation: state, messages };
}

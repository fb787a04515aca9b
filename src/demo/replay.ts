/**
 * Derives every stored column of a conversation and its messages from what
 * happened in it, by the rules the service applies when it stores each change
 * (docs/behaviour.md §5 and §7): message flags and response times, status transitions,
 * reopening, inactivity closes, unread, last message.
 */

export type Action =
  | { kind: 'contact'; at: number; text: string; offline: boolean }
  | { kind: 'agent'; at: number; text: string; agentId: string }
  | { kind: 'bot'; at: number; text: string }
  | { kind: 'trigger'; at: number; text: string; triggerId: string }
  | { kind: 'note'; at: number; text: string; agentId: string }
  | { kind: 'assign'; at: number; agentId: string }
  | { kind: 'close'; at: number }
  | { kind: 'rate'; at: number; value: 1 | 3 | 5; text: string | null };

export interface MessageRow {
  id: string;
  conversationId: string;
  type: 'message' | 'note' | 'event';
  subType: 'contact' | 'agent' | 'bot' | 'trigger' | 'system';
  agentId: string | null;
  triggerId: string | null;
  /** The `content` jsonb, serialised. */
  content: string;
  text: string | null;
  isReply: boolean;
  isFirstReply: boolean;
  isOffline: boolean;
  isOfflineReply: boolean;
  responseTime: number | null;
  groupId: string | null;
  createdAt: number;
}

export interface ConversationState {
  status: 'pending' | 'open' | 'served' | 'closed';
  assignedIds: string[];
  agentIds: string[];
  ratingValue: 1 | 3 | 5 | null;
  ratingText: string | null;
  ratedAt: number | null;
  isOffline: boolean;
  isServed: boolean;
  /** Contact messages since the last agent message. */
  unread: number;
  lastMessageText: string | null;
  lastMessageAt: number | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  closeType: 'agent' | 'inactivity' | null;
}

export interface ReplayContext {
  conversationId: string;
  groupId: string | null;
  /** Actions after this instant have not happened yet and are dropped. */
  nowMs: number;
  inactivityMs: number;
  newMessageId: () => string;
}

/** `actions` must be in time order, the first one a message. */
export function replay(actions: readonly Action[], context: ReplayContext): { conversation: ConversationState; messages: MessageRow[] } {
  const messages: MessageRow[] = [];
  const state: ConversationState = {
    status: 'pending',
    assignedIds: [],
    agentIds: [],
    ratingValue: null,
    ratingText: null,
    ratedAt: null,
    isOffline: false,
    isServed: false,
    unread: 0,
    lastMessageText: null,
    lastMessageAt: null,
    createdAt: actions[0].at,
    updatedAt: actions[0].at,
    finishedAt: null,
    closeType: null,
  };
  let unanswered: { at: number; offline: boolean }[] = [];
  let answeredBefore = false;
  let contactMessages = 0;

  const close = (at: number, type: 'agent' | 'inactivity') => {
    state.status = 'closed';
    state.finishedAt = at;
    state.closeType = type;
    state.updatedAt = at;
  };
  // The inactivity job closes a conversation idle longer than the timeout, at
  // its last message's time plus the timeout.
  const closeIfIdleAt = (instant: number) => {
    if (state.status !== 'closed' && state.lastMessageAt !== null && instant - state.lastMessageAt > context.inactivityMs) {
      close(state.lastMessageAt + context.inactivityMs, 'inactivity');
    }
  };
  const store = (row: Omit<MessageRow, 'id' | 'conversationId' | 'groupId' | 'isReply' | 'isFirstReply' | 'isOffline' | 'isOfflineReply' | 'responseTime'> & Partial<MessageRow>) => {
    const message: MessageRow = {
      id: context.newMessageId(),
      conversationId: context.conversationId,
      groupId: context.groupId,
      isReply: false,
      isFirstReply: false,
      isOffline: false,
      isOfflineReply: false,
      responseTime: null,
      ...row,
    };
    messages.push(message);
    if (message.type === 'message') {
      state.lastMessageAt = message.createdAt;
      state.lastMessageText = message.text;
    }
    state.updatedAt = message.createdAt;
    return message;
  };
  const textContent = (text: string) => JSON.stringify({ type: 'text', text, html: null });

  for (const action of actions) {
    if (action.at > context.nowMs) break;
    closeIfIdleAt(action.at);
    switch (action.kind) {
      case 'contact': {
        if (state.status === 'closed') {
          state.status = 'open';
          state.finishedAt = null;
          state.closeType = null;
        } else if (state.status === 'pending') {
          state.status = 'open';
        }
        if (contactMessages++ === 0) state.isOffline = action.offline;
        unanswered.push({ at: action.at, offline: action.offline });
        state.unread++;
        store({ type: 'message', subType: 'contact', agentId: null, triggerId: null, content: textContent(action.text), text: action.text, isOffline: action.offline, createdAt: action.at });
        break;
      }
      case 'agent': {
        const reply = unanswered.length > 0;
        store({
          type: 'message',
          subType: 'agent',
          agentId: action.agentId,
          triggerId: null,
          content: textContent(action.text),
          text: action.text,
          isReply: reply,
          isFirstReply: reply && !answeredBefore,
          isOfflineReply: reply && unanswered.some((message) => message.offline),
          responseTime: reply ? (action.at - unanswered[0].at) / 1000 : null,
          createdAt: action.at,
        });
        if (reply) answeredBefore = true;
        unanswered = [];
        state.unread = 0;
        if (!state.agentIds.includes(action.agentId)) state.agentIds.push(action.agentId);
        state.isServed = true;
        if (state.status !== 'closed') state.status = 'served';
        break;
      }
      case 'bot':
        store({ type: 'message', subType: 'bot', agentId: null, triggerId: null, content: textContent(action.text), text: action.text, createdAt: action.at });
        break;
      case 'trigger':
        store({ type: 'message', subType: 'trigger', agentId: null, triggerId: action.triggerId, content: textContent(action.text), text: action.text, createdAt: action.at });
        break;
      case 'note':
        store({ type: 'note', subType: 'agent', agentId: action.agentId, triggerId: null, content: textContent(action.text), text: action.text, createdAt: action.at });
        break;
      case 'assign':
        // The service refuses to assign on a closed conversation (docs/behaviour.md §5).
        if (state.status === 'closed' || state.assignedIds.includes(action.agentId)) break;
        state.assignedIds.push(action.agentId);
        state.isServed = true;
        state.status = 'served';
        store({
          type: 'event',
          subType: 'system',
          agentId: action.agentId,
          triggerId: null,
          content: JSON.stringify({ type: 'agent_assigned', text: null, data: { agent_id: action.agentId } }),
          text: null,
          createdAt: action.at,
        });
        break;
      case 'close':
        if (state.status !== 'closed') close(action.at, 'agent');
        break;
      case 'rate':
        state.ratingValue = action.value;
        state.ratingText = action.text;
        state.ratedAt = action.at;
        state.updatedAt = action.at;
        break;
    }
  }
  closeIfIdleAt(context.nowMs);
  return { conversation: state, messages };
}

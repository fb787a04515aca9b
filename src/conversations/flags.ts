/**
 * Message flags and the conversation columns a message decides (docs/behaviour.md §5), as pure steps
 * over a conversation's reply state, so one rule serves imported history (applied in memory, message by
 * message), single messages (state read from the conversation's row under its lock) and the demo history
 * (src/demo/replay.ts).
 */

export interface ReplyState {
  /** created_at of the earliest contact message after the last agent reply; null when none is waiting. */
  unansweredSince: Date | null;
  /** Whether one of the waiting contact messages is offline. */
  unansweredOffline: boolean;
  /** Contact messages after the last agent message (the conversation's `unread`). */
  unanswered: number;
  /** Whether an agent reply has already been stored (so the next one is not the first). */
  hasReply: boolean;
  /** Whether a contact message has already been stored (the first one decides `conversations.is_offline`). */
  hasContactMessage: boolean;
}

export const EMPTY_REPLY_STATE: ReplyState = {
  unansweredSince: null,
  unansweredOffline: false,
  unanswered: 0,
  hasReply: false,
  hasContactMessage: false,
};

export interface FlaggedMessage {
  type: 'message' | 'note' | 'event';
  sub_type: 'contact' | 'agent' | 'bot' | 'trigger' | 'system';
  created_at: Date;
  /** For contact messages: no agent was available when it arrived (always false for imported ones). */
  offline: boolean;
}

export interface MessageFlags {
  is_reply: boolean;
  is_first_reply: boolean;
  is_offline: boolean;
  is_offline_reply: boolean;
  response_time: number | null;
}

/** The flags of every message that is not a contact message or an agent reply. */
export const NO_FLAGS: MessageFlags = {
  is_reply: false,
  is_first_reply: false,
  is_offline: false,
  is_offline_reply: false,
  response_time: null,
};

/** Flags of `message` stored after `state`, and the state after it. Notes and events neither ask nor answer. */
export function applyMessage(state: ReplyState, message: FlaggedMessage): { flags: MessageFlags; state: ReplyState } {
  if (message.type !== 'message') return { flags: NO_FLAGS, state };
  if (message.sub_type === 'contact') {
    return {
      flags: { ...NO_FLAGS, is_offline: message.offline },
      state: {
        ...state,
        unansweredSince: state.unansweredSince ?? message.created_at,
        unansweredOffline: state.unansweredOffline || message.offline,
        unanswered: state.unanswered + 1,
        hasContactMessage: true,
      },
    };
  }
  if (message.sub_type !== 'agent') return { flags: NO_FLAGS, state };
  const answered = { ...state, unansweredSince: null, unansweredOffline: false, unanswered: 0 };
  if (state.unansweredSince === null) return { flags: NO_FLAGS, state: answered };
  return {
    flags: {
      is_reply: true,
      is_first_reply: !state.hasReply,
      is_offline: false,
      is_offline_reply: state.unansweredOffline,
      response_time: (message.created_at.getTime() - state.unansweredSince.getTime()) / 1000,
    },
    state: { ...answered, hasReply: true },
  };
}

/**
 * The columns of a conversation that storing a message decides (docs/behaviour.md §5): its status, agents,
 * unread count, last message and times, and the reply state kept on the row (migration 120).
 */
export interface ConversationMessageState {
  status: 'pending' | 'open' | 'served' | 'closed';
  agent_ids: string[];
  is_offline: boolean;
  is_served: boolean;
  /** Contact messages after the last agent message: the reply state's `unanswered`. */
  unread: number;
  last_message_text: string | null;
  last_message_at: Date | null;
  updated_at: Date;
  finished_at: Date | null;
  close_type: 'agent' | 'contact' | 'inactivity' | null;
  unanswered_since: Date | null;
  unanswered_offline: boolean;
  has_reply: boolean;
  has_contact_message: boolean;
  /** created_at of its latest message of any type: a live message is never stored before it. */
  latest_message_at: Date | null;
}

export interface StoredMessage extends FlaggedMessage {
  agent_id: string | null;
  /** Its plain text, the conversation's last message when it is a `message`. */
  text: string | null;
}

/** A conversation's reply state, as kept on its row. */
export function replyStateOf(conv: ConversationMessageState): ReplyState {
  return {
    unansweredSince: conv.unanswered_since,
    unansweredOffline: conv.unanswered_offline,
    unanswered: conv.unread,
    hasReply: conv.has_reply,
    hasContactMessage: conv.has_contact_message,
  };
}

/**
 * Stores `message` after the conversation's current ones, at `now`: its flags, and the conversation after it
 * (a copy; `conv` is left as it was). The one definition of these rules, for live writes and generated history.
 */
export function conversationAfterMessage<C extends ConversationMessageState>(
  conv: C,
  message: StoredMessage,
  now: Date,
): { flags: MessageFlags; conversation: C } {
  const before = replyStateOf(conv);
  const { flags, state } = applyMessage(before, message);
  const next: C = {
    ...conv,
    unanswered_since: state.unansweredSince,
    unanswered_offline: state.unansweredOffline,
    has_reply: state.hasReply,
    has_contact_message: state.hasContactMessage,
    latest_message_at: message.created_at,
    updated_at: now,
  };
  if (message.type !== 'message') return { flags, conversation: next };
  next.last_message_text = message.text;
  next.last_message_at = message.created_at;
  next.unread = state.unanswered;
  if (message.sub_type === 'contact') {
    if (!before.hasContactMessage) next.is_offline = message.offline;
    if (next.status === 'closed') {
      next.finished_at = null;
      next.close_type = null;
      next.status = 'open';
    } else if (next.status === 'pending') {
      next.status = 'open';
    }
  } else if (message.sub_type === 'agent' && message.agent_id !== null) {
    if (!next.agent_ids.includes(message.agent_id)) next.agent_ids = [...next.agent_ids, message.agent_id];
    next.is_served = true;
    if (next.status !== 'closed') next.status = 'served';
  }
  return { flags, conversation: next };
}

/** The message state of a conversation created at `at`, before any message. */
export function newConversationState(at: Date): ConversationMessageState {
  return {
    status: 'pending',
    agent_ids: [],
    is_offline: false,
    is_served: false,
    unread: 0,
    last_message_text: null,
    last_message_at: null,
    updated_at: at,
    finished_at: null,
    close_type: null,
    unanswered_since: null,
    unanswered_offline: false,
    has_reply: false,
    has_contact_message: false,
    latest_message_at: null,
  };
}

/** The conversation after `agentId` is assigned (docs/behaviour.md §5; the caller checks it may be). */
export function conversationAfterAssign<C extends ConversationMessageState & { assigned_ids: string[] }>(conv: C, agentId: string): C {
  return { ...conv, assigned_ids: [...conv.assigned_ids, agentId], is_served: true, status: 'served' };
}

/**
 * The conversation after `agentId` is unassigned (the caller checks it was assigned): served only while someone
 * is assigned or an agent has replied, so the last assignee leaving a conversation no agent answered takes it
 * back to open, or to pending when the contact has not written yet.
 */
export function conversationAfterUnassign<C extends ConversationMessageState & { assigned_ids: string[] }>(conv: C, agentId: string): C {
  const assigned_ids = conv.assigned_ids.filter((id) => id !== agentId);
  const unserved = conv.status === 'served' && assigned_ids.length === 0 && conv.agent_ids.length === 0;
  return { ...conv, assigned_ids, status: unserved ? (conv.has_contact_message ? 'open' : 'pending') : conv.status };
}

/** The conversation closed at `at` by an agent or by the inactivity timeout (docs/behaviour.md §5 and §7). */
export function conversationAfterClose<C extends ConversationMessageState>(conv: C, at: Date, closeType: 'agent' | 'inactivity'): C {
  return { ...conv, status: 'closed', finished_at: at, close_type: closeType };
}

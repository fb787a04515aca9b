/**
 * Message flags (docs/behaviour.md §5), as a pure step over a conversation's reply state,
 * so one rule serves imported history (applied in memory, message by message)
 * and single messages (state loaded from the database under the row lock).
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
export const NO_FLAGS: MessageFlags = { is_reply: false, is_first_reply: false, is_offline: false, is_offline_reply: false, response_time: null };

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

import type { ConversationRow, ConversationStatisticsRow, Page, PathRow, StoredMessageRow } from './repository.ts';
import type { Conversation, ConversationStatistics, Message, Path } from './schema.ts';

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    ext_id: row.ext_id,
    status: row.status,
    channel: { type: 'default', id: null },
    contact_id: row.contact_id,
    group_id: row.group_id,
    domain: row.domain,
    assigned_ids: row.assigned_ids,
    agent_ids: row.agent_ids,
    tags: row.tags,
    variables: row.variables,
    rating_value: row.rating_value,
    rating_text: row.rating_text,
    rated_at: row.rated_at?.toISOString() ?? null,
    is_offline: row.is_offline,
    is_served: row.is_served,
    unread: row.unread,
    last_message: row.last_message_at ? { text: row.last_message_text, created_at: row.last_message_at.toISOString() } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    close_type: row.close_type,
  };
}

export function toMessage(row: StoredMessageRow): Message {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    type: row.type,
    sub_type: row.sub_type,
    agent_id: row.agent_id,
    trigger_id: row.trigger_id,
    content: row.content,
    attachments: row.attachments,
    is_reply: row.is_reply,
    is_first_reply: row.is_first_reply,
    is_offline: row.is_offline,
    is_offline_reply: row.is_offline_reply,
    response_time: row.response_time,
    created_at: row.created_at.toISOString(),
  };
}

export function toPath(row: PathRow): Path {
  return { url: row.url, title: row.title, created_at: row.created_at.toISOString() };
}

export function toConversationStatistics(row: ConversationStatisticsRow): ConversationStatistics {
  return {
    messages_count: row.messages_count,
    contact_messages_count: row.contact_messages_count,
    agent_messages_count: row.agent_messages_count,
    first_response_time: row.first_response_time,
    avg_response_time: row.avg_response_time,
    duration: row.duration,
  };
}

/** A page of rows as a page of what `present` makes of each. */
export function toPage<R, T>(page: Page<R>, present: (row: R) => T): Page<T> {
  return { items: page.items.map(present), after: page.after, total: page.total };
}

import type { StoredAttachment } from '../content/attachments.ts';
import type { Conversation, Message } from '../conversations/schema.ts';
import { uploadIdOfPath } from '../uploads/service.ts';
import type { EventRow } from '../events/repository.ts';
import type { VisitorConversation, VisitorMessage } from './schema.ts';

/**
 * What a visitor may see (docs/widget.md "What a visitor sees"): of a conversation its state, rating and times,
 * never the agents' fields (assignees, group, tags, variables, ext_id, unread, offline flags); of its messages
 * the messages themselves and whether each was sent while no agent was available (the widget's offline notice),
 * never internal notes or system records, nor the agents' ids or reply statistics.
 */
export function toVisitorConversation(conversation: Conversation): VisitorConversation {
  return {
    id: conversation.id,
    status: conversation.status,
    rating_value: conversation.rating_value,
    rating_text: conversation.rating_text,
    last_message: conversation.last_message,
    created_at: conversation.created_at,
    updated_at: conversation.updated_at,
    finished_at: conversation.finished_at,
  };
}

/** Where a visitor downloads a file attached to a message it can read (its token, never an API token's /v2 path). */
const visitorUploadPath = (id: string) => `/widget/v1/uploads/${id}/content`;

function toVisitorAttachment(attachment: StoredAttachment): StoredAttachment {
  const uploadId = attachment.type === 'upload' && attachment.url !== undefined ? uploadIdOfPath(attachment.url) : null;
  return uploadId === null ? attachment : { ...attachment, url: visitorUploadPath(uploadId) };
}

/** A message for the visitor, or null for what it never sees (notes, system records). */
export function toVisitorMessage(message: Message): VisitorMessage | null {
  if (message.type !== 'message' || message.sub_type === 'system') return null;
  return {
    id: message.id,
    conversation_id: message.conversation_id,
    sub_type: message.sub_type,
    text: message.content.text,
    html: message.content.html ?? null,
    attachments: message.attachments.map(toVisitorAttachment),
    is_offline: message.is_offline,
    created_at: message.created_at,
  };
}

/** The event types a visitor's stream carries; every other event of its conversations is left out. */
export const VISITOR_EVENT_TYPES = [
  'conversation.opened',
  'conversation.closed',
  'conversation.rated',
  'conversation.contact_replied',
  'conversation.agent_replied',
  'conversation.bot_replied',
  'conversation.agent_typing',
] as const;

/** The `data` a visitor gets of an event, or null when it gets none of it. */
function visitorData(row: EventRow): Record<string, unknown> | null {
  if (!(VISITOR_EVENT_TYPES as readonly string[]).includes(row.type)) return null;
  // An agent typing, without saying which (the visitor's own typing is another type, not echoed to it).
  if (row.type === 'conversation.agent_typing') return { conversation_id: row.conversation_id, is_typing: row.data.is_typing };
  if ('message' in row.data) {
    const message = toVisitorMessage(row.data.message as Message);
    return message && { conversation_id: message.conversation_id, message };
  }
  return { conversation: toVisitorConversation(row.data.conversation as Conversation) };
}

/** What the visitor's stream sends of an event (`{id, event, timestamp, data}`), or null to leave the event out. */
export function visitorEventBody(row: EventRow): object | null {
  const data = visitorData(row);
  return data && { id: row.id, event: row.type, timestamp: row.created_at.toISOString(), data };
}

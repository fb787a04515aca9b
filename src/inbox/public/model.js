// The inbox's rules without the page: which tab a conversation belongs in, the search body of a tab, a
// conversation after a live event, message order and safe rendering of message HTML, and the text a reply sends.

export const TABS = [
  { id: 'unassigned', label: 'Unassigned' },
  { id: 'mine', label: 'Mine' },
  { id: 'open', label: 'All open' },
  { id: 'closed', label: 'Closed' },
];
const NOT_CLOSED = ['pending', 'open', 'served'];

/** The POST /v2/conversations/search body of a tab with the filters (group, tag, words). */
export function searchBody(view, me) {
  const body = { size: 50 };
  if (view.tab === 'closed') body.status = ['closed'];
  else body.status = NOT_CLOSED;
  if (view.tab === 'unassigned') body.assigned = null;
  if (view.tab === 'mine') body.assigned = [me];
  if (view.group) body.group_id = view.group;
  if (view.tag) body.tags = [view.tag];
  if (view.query) body.query = view.query;
  return body;
}

/**
 * Whether a conversation belongs in the tab with these filters, as the search would answer; `undefined` when that
 * cannot be told here (words to search for: only the service knows what matches).
 */
export function belongsIn(conversation, view, me) {
  if (view.query) return undefined;
  const closed = conversation.status === 'closed';
  if (view.tab === 'closed' ? !closed : closed) return false;
  if (view.tab === 'unassigned' && conversation.assigned_ids.length > 0) return false;
  if (view.tab === 'mine' && !conversation.assigned_ids.includes(me)) return false;
  if (view.group && conversation.group_id !== view.group) return false;
  if (view.tag && !conversation.tags.includes(view.tag)) return false;
  return true;
}

/**
 * The ids a tab lists once a page of its search is in, given what live events changed while the search ran: the
 * page was read from a snapshot that may predate those events (and a search may run on a replica), so a conversation
 * an event moved into the tab stays, one an event moved out (or whose contact was erased) goes, and the rest keep the
 * page's order. `changed` holds the ids events touched since the search was sent; `known` is every conversation held.
 */
export function listAfterPage(pageIds, changed, known, view, me) {
  const ids = pageIds.filter((id) => {
    const conversation = known.get(id);
    return conversation !== undefined && !(changed.has(id) && belongsIn(conversation, view, me) === false);
  });
  for (const id of changed) {
    const conversation = known.get(id);
    if (conversation && !ids.includes(id) && belongsIn(conversation, view, me) === true) ids.push(id);
  }
  if (view.query) return ids;
  return ids.sort((a, b) => byUpdatedDesc(known.get(a), known.get(b)));
}

/** Newest change first, as the search sorts. */
export function byUpdatedDesc(a, b) {
  return b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id);
}

/** The newer of two versions of a conversation (by updated_at; the later-arriving one on a tie). */
export function newer(known, incoming) {
  if (!known) return incoming;
  return incoming.updated_at >= known.updated_at ? incoming : known;
}

/**
 * A conversation after one of its messages arrived live, until its record is read again: the last message, and the
 * unread count and status as the service's rules set them (docs/api.md "Status").
 */
export function afterMessage(conversation, message) {
  if (message.type !== 'message') return conversation;
  const next = {
    ...conversation,
    updated_at: message.created_at > conversation.updated_at ? message.created_at : conversation.updated_at,
    last_message: { text: message.content?.text ?? '', created_at: message.created_at },
  };
  if (message.sub_type === 'contact') {
    next.unread = conversation.unread + 1;
    if (conversation.status !== 'served') next.status = 'open';
  } else if (message.sub_type === 'agent') {
    next.unread = 0;
    if (conversation.status !== 'closed') next.status = 'served';
  }
  return next;
}

/** Messages in the order they were written (equal times: 0, the order they came in decides). */
export function byCreated(a, b) {
  return a.created_at.localeCompare(b.created_at);
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** The body of a reply typed as text: links made clickable (as html) when it has any, the text as typed. */
export function replyContent(text) {
  const trimmed = text.trim();
  if (!URL_PATTERN.test(trimmed)) return { text: trimmed };
  URL_PATTERN.lastIndex = 0;
  let html = '';
  let at = 0;
  for (const match of trimmed.matchAll(URL_PATTERN)) {
    html += escapeHtml(trimmed.slice(at, match.index));
    html += `<a href="${escapeHtml(match[0])}">${escapeHtml(match[0])}</a>`;
    at = match.index + match[0].length;
  }
  html += escapeHtml(trimmed.slice(at));
  return { text: trimmed, html: html.replace(/\n/g, '<br>') };
}

const SAFE_HREF = /^(https?:|mailto:)/i;

/** Appends `text` to `parent` with its URLs as links. */
function appendLinkified(parent, text) {
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    parent.append(text.slice(at, match.index), link(match[0], match[0]));
    at = match.index + match[0].length;
  }
  parent.append(text.slice(at));
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  a.target = '_blank';
  a.rel = 'nofollow noopener noreferrer';
  return a;
}

/**
 * A message's content as DOM nodes: its html rebuilt from links and line breaks only (the service sanitised it
 * already; this never trusts it), else its text with URLs made links.
 */
export function renderContent(content, into) {
  if (content?.html) {
    const parsed = new DOMParser().parseFromString(content.html, 'text/html');
    const walk = (from, to) => {
      for (const node of from.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) appendLinkified(to, node.textContent);
        else if (node.nodeName === 'BR') to.append(document.createElement('br'));
        else if (node.nodeName === 'A' && SAFE_HREF.test(node.getAttribute('href') ?? '')) {
          to.append(link(node.getAttribute('href'), node.textContent));
        } else if (node.nodeType === Node.ELEMENT_NODE) walk(node, to);
      }
    };
    walk(parsed.body, into);
  } else {
    appendLinkified(into, content?.text ?? '');
  }
}

/** "14:05" today, "3 Mar" this year, else "3 Mar 2025". */
export function shortTime(iso, now = new Date()) {
  const at = new Date(iso);
  if (at.toDateString() === now.toDateString()) return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const options = { day: 'numeric', month: 'short' };
  if (at.getFullYear() !== now.getFullYear()) options.year = 'numeric';
  return at.toLocaleDateString([], options);
}

/** How a contact is named: name, e-mail, phone, else "Visitor" and the end of its id. */
export function contactName(contact, contactId) {
  return contact?.name || contact?.email || contact?.phone || `Visitor ${contactId.slice(-4)}`;
}

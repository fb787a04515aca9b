// The agent inbox: sign-in (token kept for the tab) and agent choice, presence, the conversation list by tab and
// filter, the thread, replies, notes, attachments, typing both ways, and everything kept live from the event stream.
import { ApiFailure, call, download, openEventStream } from './api.js';
import {
  afterMessage,
  belongsIn,
  byCreated,
  byUpdatedDesc,
  contactName,
  listAfterPage,
  newer,
  renderContent,
  replyContent,
  searchBody,
  shortTime,
} from './model.js';

const TOKEN_KEY = 'chat-service.inbox.token';
const AGENT_KEY = 'chat-service.inbox.agent';
const NOTIFY_KEY = 'chat-service.inbox.notify';
const readKey = (agentId) => `chat-service.inbox.read.${agentId}`;
/** A ping keeps an agent connected for PRESENCE_TTL_SECONDS (120 by default): ping well within it. */
const PING_EVERY_MS = 45000;
const TYPING_REPEAT_MS = 3000;
const TYPING_IDLE_MS = 4000;
/** A typing signal not renewed within this long has stopped (the other side closed the tab mid-word). */
const TYPING_SHOWN_MS = 6000;
const PAGE_SIZE = 30;

const $ = (id) => document.getElementById(id);

let token = null;
let me = null;
const agents = new Map();
let view = { tab: 'unassigned', group: '', tag: '', query: '' };
const conversations = new Map();
let listIds = [];
let listAfter = null;
let listSequence = 0;
/** Ids live events touched while the newest list search was on its way (see listAfterPage). */
let listChanges = new Set();
const contacts = new Map();
const refreshing = new Map();
let current = null;
let stream = null;
let pingTimer = null;
let typing = { active: false, sentAt: 0, idleTimer: null };
let typingShownTimer = null;
let pendingFiles = [];
let audio = null;
let renderQueued = false;

// ---------------------------------------------------------------- calls

/** The API with the tab's token; a 401 (token revoked) sends the person back to the sign-in screen. */
async function api(method, path, body, headers) {
  try {
    return await call(token, method, path, body, headers);
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 401) signOut('The token is unknown or has been revoked. Sign in again.');
    throw error;
  }
}

function announce(text) {
  const region = $('announcer');
  region.textContent = '';
  // A fresh node each time, so a screen reader reads a repeated text again.
  requestAnimationFrame(() => (region.textContent = text));
}

function agentName(id) {
  const agent = agents.get(id);
  return agent ? agent.nickname || agent.full_name || agent.email : `Agent ${id}`;
}

function nameOf(conversation) {
  const contact = contacts.get(conversation.contact_id);
  return contactName(contact instanceof Promise ? null : contact, conversation.contact_id);
}

/** The contact, read once per page (its details do not change in a chat). */
function loadContact(contactId) {
  if (!contacts.has(contactId)) {
    const loading = api('GET', `/v2/contacts/${contactId}`)
      .then((contact) => {
        contacts.set(contactId, contact);
        queueRender();
        if (current && conversations.get(current.id)?.contact_id === contactId) renderThreadHead();
        return contact;
      })
      .catch(() => {
        contacts.set(contactId, null);
        return null;
      });
    contacts.set(contactId, loading);
  }
  return Promise.resolve(contacts.get(contactId));
}

// ---------------------------------------------------------------- sign-in, agent, presence

function showSignIn(message = '') {
  $('main').hidden = true;
  $('session').hidden = true;
  $('banner').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-form').hidden = false;
  $('agent-form').hidden = true;
  $('sign-in-error').textContent = message;
  $('token').value = '';
  $('token').focus();
}

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const candidate = $('token').value.trim();
  if (!candidate) return ($('sign-in-error').textContent = 'Paste an API token.');
  try {
    const { agents: list } = await call(candidate, 'GET', '/v2/agents');
    if (list.length === 0) return ($('sign-in-error').textContent = 'This account has no agents yet: create one first (POST /v2/agents).');
    token = candidate;
    sessionStorage.setItem(TOKEN_KEY, token);
    fillAgents(list);
    const choice = $('agent');
    choice.replaceChildren(...list.map((agent) => new Option(`${agentName(agent.id)} (${agent.email})`, agent.id)));
    $('sign-in-form').hidden = true;
    $('agent-form').hidden = false;
    $('sign-in-error').textContent = '';
    choice.focus();
  } catch (error) {
    $('sign-in-error').textContent =
      error.status === 401
        ? 'This token is unknown or has been revoked.'
        : error.status === 403
          ? `This token cannot read the agents (${error.message}).`
          : error.message;
  }
});

$('agent-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(AGENT_KEY, $('agent').value);
  enter();
});

function fillAgents(list) {
  agents.clear();
  for (const agent of list) agents.set(agent.id, agent);
  const options = [...agents.values()].filter((agent) => agent.id !== me).map((agent) => new Option(agentName(agent.id), agent.id));
  $('transfer-agent').replaceChildren(new Option('Assign to…', ''), ...options);
}

async function enter() {
  token = sessionStorage.getItem(TOKEN_KEY);
  me = sessionStorage.getItem(AGENT_KEY);
  let list;
  try {
    ({ agents: list } = await api('GET', '/v2/agents'));
  } catch (error) {
    if (error.status !== 401) showSignIn(error.message);
    return;
  }
  if (!list.some((agent) => agent.id === me)) return signOut('That agent no longer exists. Choose again.');
  fillAgents(list);
  $('sign-in').hidden = true;
  $('main').hidden = false;
  $('session').hidden = false;
  $('me').textContent = `Signed in as ${agentName(me)}`;
  $('status').value = agents.get(me).status;
  $('notify').checked = localStorage.getItem(NOTIFY_KEY) === '1' && 'Notification' in window && Notification.permission === 'granted';
  ping();
  pingTimer = setInterval(ping, PING_EVERY_MS);
  loadFacets();
  selectTab(view.tab, false);
  let first = true;
  stream = openEventStream({
    token,
    onEvent: handleEvent,
    onUnauthorized: () => signOut('The token is unknown or has been revoked. Sign in again.'),
    onState: (state, detail) => {
      if (first) {
        first = false;
        loadList();
        const fromHash = /^#conversation=(\w+)$/.exec(location.hash)?.[1];
        if (fromHash) openConversation(fromHash);
      }
      showConnection(state, detail);
    },
  });
}

function ping() {
  api('POST', `/v2/agents/${me}/ping`).catch(() => undefined);
}

$('status').addEventListener('change', async () => {
  try {
    const agent = await api('PATCH', `/v2/agents/${me}`, { status: $('status').value });
    agents.set(me, agent);
    announce(`Your status is ${agent.status}.`);
  } catch (error) {
    $('status').value = agents.get(me).status;
    announce(`The status could not be changed: ${error.message}`);
  }
});

/** Ends the session: the agent offline (when the token still works), the token forgotten, the sign-in screen. */
async function signOut(message = '') {
  const leaving = token;
  const agent = me;
  stream?.close();
  stream = null;
  clearInterval(pingTimer);
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(AGENT_KEY);
  token = null;
  me = null;
  current = null;
  conversations.clear();
  listIds = [];
  contacts.clear();
  $('conversations').replaceChildren();
  closeThreadView();
  if (leaving && agent && !message) await call(leaving, 'PATCH', `/v2/agents/${agent}`, { status: 'offline' }).catch(() => undefined);
  showSignIn(message);
}
$('sign-out').addEventListener('click', () => signOut());

async function loadFacets() {
  const fill = async (path, select, all) => {
    try {
      const { [path.split('/').pop()]: items } = await api('GET', path);
      select.replaceChildren(new Option(all, ''), ...items.map((item) => new Option(item.name, item.id)));
      return items;
    } catch {
      select.hidden = true;
      return [];
    }
  };
  const groups = await fill('/v2/groups', $('group-filter'), 'All groups');
  await fill('/v2/tags', $('tag-filter'), 'All tags');
  $('transfer-group').replaceChildren(new Option('Transfer to group…', ''), ...groups.map((group) => new Option(group.name, group.id)));
  $('transfer-group').hidden = groups.length === 0;
}

// ---------------------------------------------------------------- connection, notifications

function showConnection(state, detail) {
  const banner = $('banner');
  if (state === 'connected') {
    $('connection').textContent = 'Live';
    $('connection').dataset.state = 'live';
    if (!banner.hidden) announce(detail.resumed ? 'Reconnected; caught up with what happened meanwhile.' : 'Connected.');
    banner.hidden = true;
  } else {
    $('connection').textContent = 'Disconnected';
    $('connection').dataset.state = 'down';
    banner.textContent = `${detail.reason} Reconnecting in ${Math.ceil(detail.retryInMs / 1000)} s; nothing will be lost.`;
    banner.hidden = false;
  }
}

$('notify').addEventListener('change', async () => {
  const box = $('notify');
  if (!box.checked) return localStorage.removeItem(NOTIFY_KEY);
  // Created on this click: browsers let a page make sounds only after a gesture.
  audio ??= new AudioContext();
  const permission = 'Notification' in window ? await Notification.requestPermission() : 'denied';
  if (permission === 'granted') {
    localStorage.setItem(NOTIFY_KEY, '1');
    announce('You will be notified of new chats and messages while this tab is hidden.');
  } else {
    box.checked = false;
    announce('The browser refused notifications for this page; allow them in its site settings.');
  }
});

function beep() {
  if (!audio) return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.2, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + 0.3);
}

/** A desktop notification and a sound, only when opted in and the tab is hidden. */
function notifyHidden(title, body, conversationId) {
  if (!$('notify').checked || document.visibilityState !== 'hidden' || Notification.permission !== 'granted') return;
  const notification = new Notification(title, { body, tag: conversationId });
  notification.onclick = () => {
    window.focus();
    openConversation(conversationId);
  };
  beep();
}

// ---------------------------------------------------------------- read marks (this browser, per agent)

function readMarks() {
  try {
    return JSON.parse(localStorage.getItem(readKey(me)) ?? '{}');
  } catch {
    return {};
  }
}

function isNew(conversation) {
  const last = conversation.last_message?.created_at;
  return Boolean(last) && conversation.unread > 0 && (readMarks()[conversation.id] ?? '') < last;
}

function markRead(conversationId) {
  const conversation = conversations.get(conversationId);
  const last = conversation?.last_message?.created_at;
  if (!last || document.visibilityState !== 'visible') return;
  const marks = readMarks();
  if (marks[conversationId] === last) return;
  marks[conversationId] = last;
  // The newest 500 marks are plenty for one agent's open chats.
  const kept = Object.entries(marks)
    .sort((a, b) => b[1].localeCompare(a[1]))
    .slice(0, 500);
  localStorage.setItem(readKey(me), JSON.stringify(Object.fromEntries(kept)));
  queueRender();
}
document.addEventListener('visibilitychange', () => current && markRead(current.id));

// ---------------------------------------------------------------- the list

function selectTab(tab, reload = true) {
  view = { ...view, tab };
  for (const button of document.querySelectorAll('[role=tab]')) {
    const selected = button.dataset.tab === tab;
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
  }
  $('conversations').setAttribute('aria-labelledby', `tab-${tab}`);
  if (reload) loadList();
}

for (const button of document.querySelectorAll('[role=tab]')) {
  button.addEventListener('click', () => selectTab(button.dataset.tab));
  button.addEventListener('keydown', (event) => {
    const tabs = [...document.querySelectorAll('[role=tab]')];
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const next = tabs[(tabs.indexOf(button) + step + tabs.length) % tabs.length];
    next.focus();
    selectTab(next.dataset.tab);
  });
}

let searchTimer = null;
$('search').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    view = { ...view, query: $('search').value.trim() };
    loadList();
  }, 250);
});
$('filters').addEventListener('submit', (event) => event.preventDefault());
$('group-filter').addEventListener('change', () => {
  view = { ...view, group: $('group-filter').value };
  loadList();
});
$('tag-filter').addEventListener('change', () => {
  view = { ...view, tag: $('tag-filter').value };
  loadList();
});
$('more').addEventListener('click', () => loadList(true));

/** The tab's conversations from the search (a first page, or the next with `more`). */
async function loadList(more = false) {
  const sequence = ++listSequence;
  const changed = new Set();
  listChanges = changed;
  const body = searchBody(view, me);
  if (more) body.after = listAfter;
  $('conversations').setAttribute('aria-busy', 'true');
  try {
    const page = await api('POST', '/v2/conversations/search', body);
    if (sequence !== listSequence) return;
    for (const item of page.items) {
      const { snippet: _snippet, ...record } = item;
      // A conversation an event removed (its contact erased) while the search ran is not brought back.
      if (changed.has(record.id) && !conversations.has(record.id)) continue;
      conversations.set(record.id, newer(conversations.get(record.id), record));
      loadContact(record.contact_id);
    }
    const ids = page.items.map((item) => item.id);
    const pageIds = more ? [...listIds, ...ids.filter((id) => !listIds.includes(id))] : ids;
    listIds = listAfterPage(pageIds, changed, conversations, view, me);
    listAfter = page.after;
    renderList();
  } catch (error) {
    if (sequence === listSequence) announce(`The conversations could not be loaded: ${error.message}`);
  } finally {
    if (sequence === listSequence) $('conversations').setAttribute('aria-busy', 'false');
  }
}

function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderList();
  });
}

function renderList() {
  const list = $('conversations');
  const focused = document.activeElement?.closest?.('.conversations [data-id]')?.dataset.id;
  const rows = listIds
    .map((id) => conversations.get(id))
    .filter(Boolean)
    .map((conversation) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'row';
      button.dataset.id = conversation.id;
      if (isNew(conversation)) button.classList.add('new');
      if (current?.id === conversation.id) button.setAttribute('aria-current', 'true');
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = nameOf(conversation);
      const time = document.createElement('time');
      time.dateTime = conversation.last_message?.created_at ?? conversation.updated_at;
      time.textContent = shortTime(time.dateTime);
      const last = document.createElement('span');
      last.className = 'last';
      last.textContent = conversation.last_message?.text || 'No messages yet';
      button.append(name, time, last);
      const labels = [nameOf(conversation), conversation.last_message?.text ?? '', `at ${time.textContent}`];
      if (conversation.unread > 0) {
        const badge = document.createElement('span');
        badge.className = 'badge';
        badge.textContent = String(conversation.unread);
        badge.title = `${conversation.unread} unanswered`;
        button.append(badge);
        labels.push(`${conversation.unread} unanswered`);
      }
      if (isNew(conversation)) labels.unshift('New:');
      button.setAttribute('aria-label', labels.join(', '));
      button.addEventListener('click', () => openConversation(conversation.id));
      item.append(button);
      return item;
    });
  list.replaceChildren(...rows);
  $('list-empty').hidden = rows.length > 0;
  $('more').hidden = !listAfter;
  if (focused) list.querySelector(`[data-id="${focused}"]`)?.focus();
}

/** A newer version of a conversation: kept, and moved into, out of or within the list as the tab's rules say. */
function upsertConversation(record) {
  const kept = newer(conversations.get(record.id), record);
  conversations.set(record.id, kept);
  listChanges.add(kept.id);
  loadContact(kept.contact_id);
  const belongs = belongsIn(kept, view, me);
  const shown = listIds.includes(kept.id);
  if (belongs === true && !shown) listIds.push(kept.id);
  if (belongs === false && shown) listIds = listIds.filter((id) => id !== kept.id);
  if (belongs !== undefined) {
    listIds.sort((a, b) => byUpdatedDesc(conversations.get(a), conversations.get(b)));
  }
  queueRender();
  if (current?.id === kept.id) renderThreadHead();
  return kept;
}

/** Reads a conversation's record again (after an event that carries only ids), one read at a time per id. */
function refreshConversation(id) {
  if (refreshing.has(id)) {
    refreshing.set(id, true);
    return;
  }
  refreshing.set(id, false);
  api('GET', `/v2/conversations/${id}`)
    .then(upsertConversation)
    .catch(() => undefined)
    .finally(() => {
      const again = refreshing.get(id);
      refreshing.delete(id);
      if (again) refreshConversation(id);
    });
}

// ---------------------------------------------------------------- live events

function handleEvent({ event, data }) {
  switch (event) {
    case 'conversation.opened':
      upsertConversation(data.conversation);
      loadContact(data.conversation.contact_id).then(() => {
        const name = nameOf(data.conversation);
        announce(`New chat from ${name}.`);
        notifyHidden(`New chat from ${name}`, data.conversation.last_message?.text ?? '', data.conversation.id);
      });
      return;
    case 'conversation.updated':
    case 'conversation.closed':
    case 'conversation.rated':
      upsertConversation(data.conversation);
      return;
    case 'conversation.agent_assigned':
    case 'conversation.agent_unassigned':
      refreshConversation(data.conversation_id);
      if (current?.id === data.conversation_id) loadNewest();
      return;
    case 'conversation.contact_replied':
    case 'conversation.agent_replied':
    case 'conversation.bot_replied':
      return messageArrived(data.conversation_id, data.message);
    case 'contact.deleted':
      for (const conversation of conversations.values()) {
        if (conversation.contact_id !== data.contact_id) continue;
        conversations.delete(conversation.id);
        listChanges.add(conversation.id);
        listIds = listIds.filter((id) => id !== conversation.id);
        if (current?.id === conversation.id) closeThreadView();
      }
      queueRender();
      return;
    case 'agent.updated':
      agents.set(data.agent.id, data.agent);
      if (data.agent.id === me) $('status').value = data.agent.status;
      return;
    default:
      if (event.endsWith('typing')) typingArrived(event, data);
  }
}

function messageArrived(conversationId, message) {
  const known = conversations.get(conversationId);
  if (known) upsertConversation(afterMessage(known, message));
  refreshConversation(conversationId);
  if (current?.id === conversationId) {
    addMessages([message]);
    if (message.sub_type === 'contact') showTyping('');
    markRead(conversationId);
  }
  if (message.sub_type === 'contact') {
    (known ? loadContact(known.contact_id) : Promise.resolve()).then(() => {
      const name = known ? nameOf(known) : 'a visitor';
      if (current?.id === conversationId) announce(`${name}: ${message.content?.text ?? 'an attachment'}`);
      notifyHidden(`Message from ${name}`, message.content?.text ?? '', conversationId);
    });
  }
}

/** The other side's typing signal (the visitor's, or another agent's `conversation.agent_typing`). */
function typingArrived(event, data) {
  if (!current || data.conversation_id !== current.id) return;
  if (event === 'conversation.agent_typing' && data.agent_id === me) return;
  const who = event === 'conversation.agent_typing' ? agentName(data.agent_id) : nameOf(conversations.get(current.id));
  showTyping((data.is_typing ?? data.typing ?? true) ? `${who} is typing…` : '');
}

function showTyping(text) {
  clearTimeout(typingShownTimer);
  $('typing').textContent = text;
  if (text) typingShownTimer = setTimeout(() => ($('typing').textContent = ''), TYPING_SHOWN_MS);
}

// ---------------------------------------------------------------- the thread

function closeThreadView() {
  current = null;
  $('thread-body').hidden = true;
  $('no-thread').hidden = false;
  $('details').hidden = true;
  for (const id of ['contact', 'variables', 'history']) $(id).replaceChildren();
}

async function openConversation(id) {
  if (current?.id === id) return;
  stopTyping();
  // `waiting` holds messages the stream brings before the first page is in: they are merged with it, not before it.
  current = { id, messages: new Map(), order: [], after: null, loadingOlder: false, waiting: [] };
  history.replaceState(null, '', `#conversation=${id}`);
  $('no-thread').hidden = true;
  $('thread-body').hidden = false;
  $('details').hidden = false;
  $('messages').replaceChildren();
  $('composer-error').textContent = '';
  showTyping('');
  pendingFiles = [];
  renderPendingFiles();
  queueRender();
  try {
    const [record, page] = await Promise.all([
      api('GET', `/v2/conversations/${id}`),
      api('GET', `/v2/conversations/${id}/messages?size=${PAGE_SIZE}`),
    ]);
    if (current?.id !== id) return;
    upsertConversation(record);
    current.after = page.after;
    addMessages(page.items.reverse());
    const waiting = current.waiting;
    current.waiting = null;
    addMessages(waiting);
    scrollToEnd();
    markRead(id);
    renderDetails(record);
  } catch (error) {
    if (current?.id === id) $('thread-meta').textContent = `This conversation could not be loaded: ${error.message}`;
  }
}

/** The newest page again (after an assignment, whose system message no event carries): merged, nothing doubled. */
async function loadNewest() {
  const id = current.id;
  const page = await api('GET', `/v2/conversations/${id}/messages?size=${PAGE_SIZE}`).catch(() => null);
  if (page && current?.id === id) addMessages(page.items.reverse());
}

async function loadOlder() {
  if (!current?.after || current.loadingOlder) return;
  const id = current.id;
  current.loadingOlder = true;
  try {
    const page = await api('GET', `/v2/conversations/${id}/messages?size=${PAGE_SIZE}&after=${encodeURIComponent(current.after)}`);
    if (current?.id !== id) return;
    const list = $('messages');
    const fromBottom = list.scrollHeight - list.scrollTop;
    current.after = page.after;
    addMessages(page.items.reverse(), true);
    list.scrollTop = list.scrollHeight - fromBottom;
  } finally {
    if (current?.id === id) current.loadingOlder = false;
  }
}
$('messages').addEventListener('scroll', () => {
  if ($('messages').scrollTop < 80) loadOlder();
});

function scrollToEnd() {
  const list = $('messages');
  list.scrollTop = list.scrollHeight;
}

/**
 * Adds messages (oldest first) to the open thread; one already shown (by id) is not added again. An older page goes
 * before everything shown, as the service ordered it; a newer message after every message not written later (equal
 * times keep the order they arrived in, which is the service's).
 */
function addMessages(messages, older = false) {
  if (!older && current.waiting) {
    current.waiting.push(...messages);
    return;
  }
  const list = $('messages');
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
  // While older pages remain, a message older than the oldest shown belongs to one of them: paging brings it in its
  // place (showing it now would leave a gap before it).
  const oldest = current.after && current.order.length > 0 ? current.messages.get(current.order[0]) : null;
  const fresh = messages.filter((message) => !current.messages.has(message.id) && (older || !oldest || byCreated(message, oldest) >= 0));
  for (const message of fresh) current.messages.set(message.id, message);
  if (older) {
    list.prepend(...fresh.map(renderMessage));
    current.order.unshift(...fresh.map((message) => message.id));
    return;
  }
  for (const message of fresh) {
    const node = renderMessage(message);
    const before = current.order.findIndex((other) => byCreated(current.messages.get(other), message) > 0);
    if (before < 0) {
      current.order.push(message.id);
      list.append(node);
    } else {
      list.insertBefore(node, list.querySelector(`[data-message-id="${current.order[before]}"]`));
      current.order.splice(before, 0, message.id);
    }
  }
  if (fresh.length && atEnd) scrollToEnd();
}

function eventText(message) {
  const who = agentName(message.agent_id);
  const subject = message.content?.data?.agent_id;
  if (message.content?.type === 'agent_assigned')
    return subject === message.agent_id ? `${who} took the chat` : `${who} assigned ${agentName(subject)}`;
  if (message.content?.type === 'agent_unassigned')
    return subject === message.agent_id ? `${who} left the chat` : `${who} unassigned ${agentName(subject)}`;
  return message.content?.text ?? message.content?.type ?? 'Event';
}

function renderMessage(message) {
  const item = document.createElement('li');
  item.dataset.messageId = message.id;
  const time = document.createElement('time');
  time.dateTime = message.created_at;
  time.textContent = shortTime(message.created_at);
  if (message.type === 'event') {
    item.className = 'event';
    item.append(`${eventText(message)} · `, time);
    return item;
  }
  item.className = `message ${message.sub_type}${message.type === 'note' ? ' note' : ''}`;
  const author = document.createElement('span');
  author.className = 'author';
  const conversation = conversations.get(current.id);
  const by =
    message.sub_type === 'agent'
      ? agentName(message.agent_id)
      : message.sub_type === 'bot'
        ? 'Bot'
        : conversation
          ? nameOf(conversation)
          : 'Visitor';
  author.textContent = message.type === 'note' ? `Internal note by ${by}` : by;
  const head = document.createElement('p');
  head.className = 'head';
  head.append(author, ' · ', time);
  const body = document.createElement('p');
  body.className = 'body';
  renderContent(message.content, body);
  item.append(head, body);
  for (const attachment of message.attachments ?? []) item.append(renderAttachment(attachment));
  return item;
}

function renderAttachment(attachment) {
  const box = document.createElement('p');
  box.className = 'attachment';
  if (attachment.type === 'template') {
    box.textContent = `Cards: ${attachment.items.map((card) => card.title).join(', ')}`;
    return box;
  }
  const name = attachment.file_name ?? attachment.url;
  if (attachment.type !== 'upload') {
    const anchor = document.createElement('a');
    anchor.href = attachment.url;
    anchor.target = '_blank';
    anchor.rel = 'nofollow noopener noreferrer';
    anchor.textContent = `↗ ${name}`;
    box.append(anchor);
    return box;
  }
  // Uploads need the token: downloaded with it, then shown (images) or saved from a blob: URL.
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'file';
  button.textContent = `↓ ${name}`;
  button.setAttribute('aria-label', `Download ${name}`);
  button.addEventListener('click', async () => {
    const url = await download(token, attachment.url);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = name;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  });
  box.append(button);
  if (/^image\/(png|jpeg|gif|webp)/.test(attachment.file_type ?? '')) {
    const image = document.createElement('img');
    image.alt = name;
    download(token, attachment.url)
      .then((url) => (image.src = url))
      .catch(() => image.remove());
    box.append(image);
  }
  return box;
}

function renderThreadHead() {
  const conversation = conversations.get(current.id);
  if (!conversation) return;
  $('thread-title').textContent = nameOf(conversation);
  const assigned = conversation.assigned_ids.map(agentName).join(', ') || 'nobody';
  const group = conversation.group_id
    ? ` · group ${$('transfer-group').querySelector(`option[value="${conversation.group_id}"]`)?.textContent ?? conversation.group_id}`
    : '';
  $('thread-meta').textContent = `${conversation.status} · assigned to ${assigned}${group}`;
  const closed = conversation.status === 'closed';
  const mine = conversation.assigned_ids.includes(me);
  $('assign-me').hidden = mine || closed;
  $('unassign-me').hidden = !mine;
  $('transfer-agent').disabled = closed;
  $('close-conversation').disabled = closed;
  renderVariables(conversation);
}

function definitionList(target, entries) {
  target.replaceChildren(
    ...entries.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = String(value);
      return [dt, dd];
    }),
  );
}

function renderVariables(conversation) {
  const entries = Object.entries(conversation.variables ?? {});
  definitionList($('variables'), entries.length ? entries : [['', 'None']]);
}

async function renderDetails(conversation) {
  const contact = await loadContact(conversation.contact_id);
  if (current?.id !== conversation.id) return;
  const fields = [
    ['Name', contact?.name],
    ['E-mail', contact?.email],
    ['Phone', contact?.phone],
    ['Your id', contact?.identity_id],
    ['Since', contact ? new Date(contact.created_at).toLocaleDateString() : null],
    ['Site', conversation.domain],
  ].filter(([, value]) => value);
  definitionList($('contact'), fields);
  const earlier = await api('POST', '/v2/conversations/search', { contact_id: conversation.contact_id, size: 10 }).catch(() => ({
    items: [],
  }));
  if (current?.id !== conversation.id) return;
  const items = earlier.items.filter((item) => item.id !== conversation.id);
  $('history').replaceChildren(
    ...(items.length
      ? items.map((item) => {
          const li = document.createElement('li');
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = `${shortTime(item.created_at)} · ${item.status} · ${item.last_message?.text ?? 'no messages'}`;
          button.addEventListener('click', () => openConversation(item.id));
          li.append(button);
          return li;
        })
      : [Object.assign(document.createElement('li'), { textContent: 'None' })]),
  );
}

// ---------------------------------------------------------------- actions

async function act(description, request) {
  const id = current?.id;
  if (!id) return;
  try {
    const answer = await request(id);
    if (answer?.id) upsertConversation(answer);
    announce(description);
  } catch (error) {
    announce(`${description} failed: ${error.message}`);
    $('composer-error').textContent = error.message;
  }
}

$('assign-me').addEventListener('click', () =>
  act('Assigned to you.', (id) => api('PATCH', `/v2/conversations/${id}/assign`, { agent_id: me, assignee_id: me })),
);
$('unassign-me').addEventListener('click', () =>
  act('Unassigned.', (id) => api('PATCH', `/v2/conversations/${id}/unassign`, { agent_id: me, unassignee_id: me })),
);
$('transfer-agent').addEventListener('change', () => {
  const assignee = $('transfer-agent').value;
  $('transfer-agent').value = '';
  if (assignee)
    act(`Assigned to ${agentName(assignee)}.`, (id) =>
      api('PATCH', `/v2/conversations/${id}/assign`, { agent_id: me, assignee_id: assignee }),
    );
});
$('transfer-group').addEventListener('change', () => {
  const group = $('transfer-group').value;
  $('transfer-group').value = '';
  if (group) act('Transferred to the group.', (id) => api('PATCH', `/v2/conversations/${id}`, { group_id: group }));
});
function closeCurrent() {
  act('Conversation closed.', async (id) => {
    await api('PATCH', `/v2/conversations/${id}/close`);
    return api('GET', `/v2/conversations/${id}`);
  });
}
$('close-conversation').addEventListener('click', closeCurrent);
$('details-toggle').addEventListener('click', () => {
  const shown = $('main').classList.toggle('show-details');
  $('details-toggle').setAttribute('aria-expanded', String(shown));
});

// ---------------------------------------------------------------- replying, typing, files

function sendTyping(isTyping) {
  if (!current) return;
  api('POST', `/v2/conversations/${current.id}/typing`, { agent_id: me, is_typing: isTyping }).catch(() => undefined);
}

function stopTyping() {
  clearTimeout(typing.idleTimer);
  if (typing.active) sendTyping(false);
  typing = { active: false, sentAt: 0, idleTimer: null };
}

$('reply').addEventListener('input', () => {
  if ($('note').checked || !$('reply').value.trim()) return stopTyping();
  const now = Date.now();
  if (now - typing.sentAt > TYPING_REPEAT_MS) {
    sendTyping(true);
    typing.active = true;
    typing.sentAt = now;
  }
  clearTimeout(typing.idleTimer);
  typing.idleTimer = setTimeout(stopTyping, TYPING_IDLE_MS);
});
$('reply').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $('composer').requestSubmit();
  }
});

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('reply').value;
  if (!current || (!text.trim() && pendingFiles.length === 0)) return;
  const note = $('note').checked;
  const body = { sub_type: 'agent', agent_id: me, type: note ? 'note' : 'message' };
  if (text.trim()) Object.assign(body, replyContent(text));
  if (pendingFiles.length) body.attachments = pendingFiles.map((file) => ({ type: 'upload', token: file.token }));
  const id = current.id;
  $('send').disabled = true;
  try {
    stopTyping();
    const message = await api('POST', `/v2/conversations/${id}/messages`, body);
    $('reply').value = '';
    $('composer-error').textContent = '';
    pendingFiles = [];
    renderPendingFiles();
    if (current?.id === id) {
      addMessages([message]);
      scrollToEnd();
    }
    if (!note) upsertConversation(afterMessage(conversations.get(id), message));
  } catch (error) {
    $('composer-error').textContent = `Not sent: ${error.message}`;
  } finally {
    $('send').disabled = false;
  }
});

$('file').addEventListener('change', async () => {
  const files = [...$('file').files];
  $('file').value = '';
  for (const file of files) {
    try {
      const upload = await api('POST', `/v2/uploads?file_name=${encodeURIComponent(file.name)}`, file, {
        'content-type': file.type || 'application/octet-stream',
      });
      pendingFiles.push({ name: upload.file_name, token: upload.token });
      renderPendingFiles();
    } catch (error) {
      $('composer-error').textContent = `${file.name} was not uploaded: ${error.message}`;
    }
  }
});

function renderPendingFiles() {
  $('pending-files').replaceChildren(
    ...pendingFiles.map((file, index) => {
      const item = document.createElement('li');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = '×';
      remove.setAttribute('aria-label', `Remove ${file.name}`);
      remove.addEventListener('click', () => {
        pendingFiles.splice(index, 1);
        renderPendingFiles();
      });
      item.append(`${file.name} `, remove);
      return item;
    }),
  );
}

// ---------------------------------------------------------------- keyboard

function move(step) {
  if (listIds.length === 0) return;
  const at = current ? listIds.indexOf(current.id) : -1;
  const next = listIds[Math.min(listIds.length - 1, Math.max(0, at < 0 ? 0 : at + step))];
  openConversation(next);
  requestAnimationFrame(() => $('conversations').querySelector(`[data-id="${next}"]`)?.focus());
}

document.addEventListener('keydown', (event) => {
  if ($('main').hidden || $('shortcuts').open) return;
  if (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
    event.preventDefault();
    return move(event.key === 'ArrowDown' ? 1 : -1);
  }
  const target = event.target;
  if (target.matches('input, textarea, select')) {
    if (event.key === 'Escape' && target.id === 'reply') {
      (current && $('conversations').querySelector(`[data-id="${current.id}"]`))?.focus();
    }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const actions = {
    j: () => move(1),
    k: () => move(-1),
    r: () => current && $('reply').focus(),
    c: () => current && closeCurrent(),
    '?': () => $('shortcuts').showModal(),
  };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
});
$('shortcuts-button').addEventListener('click', () => $('shortcuts').showModal());
$('shortcuts-close').addEventListener('click', () => $('shortcuts').close());

if (sessionStorage.getItem(TOKEN_KEY) && sessionStorage.getItem(AGENT_KEY)) enter();
else showSignIn();

/*
 * The chat widget (docs/widget.md): one tag on the host page,
 *   <script src="https://chat.example.com/widget.js" data-key="wk..." async></script>
 * adds a launcher and a chat panel inside a Shadow DOM, styled through a constructable stylesheet (no inline
 * style, so a strict CSP works), talking only to the service that served this file (its /widget/v1 visitor API).
 * Nothing runs before the page is idle, nothing is stored before the visitor first sends something, and no
 * request is made for a visitor who only looks. Hand-written, no build step: served as is.
 */
(() => {
  const script = document.currentScript;
  if (!script || window.chatWidget?.version) return;
  const BASE = new URL(script.src).origin;
  const API = `${BASE}/widget/v1`;
  const KEY = script.dataset.key;
  const STORE = `chat-service:${KEY}`;

  /** Every string the widget shows, by language: a translator adds a block here. */
  const STRINGS = {
    en: {
      title: 'Chat with us',
      open: 'Open chat',
      unread: (n) => `${n} unread`,
      close: 'Close chat',
      input: 'Your message',
      placeholder: 'Write a message…',
      send: 'Send',
      log: 'Messages',
      you: 'You',
      agent: 'Agent',
      welcome: 'Hi! How can we help?',
      offline: 'Nobody is online right now. Leave a message and we will reply here as soon as we can.',
      reconnecting: 'Connection lost, reconnecting…',
      failed: 'Not sent yet: will retry when the connection is back.',
      typing: 'Agent is typing…',
      closed: 'This chat has ended. How did we do?',
      rate: ['Bad', 'OK', 'Good'],
      thanks: 'Thank you for your rating!',
      error: 'Something went wrong. Please try again.',
      attach: 'Attach a file',
      remove: (name) => `Remove ${name}`,
      tooLarge: 'The file is too large: at most 20 MB.',
      badType: 'This type of file cannot be sent.',
    },
    cs: {
      title: 'Napište nám',
      open: 'Otevřít chat',
      unread: (n) => `${n} nepřečtené`,
      close: 'Zavřít chat',
      input: 'Vaše zpráva',
      placeholder: 'Napište zprávu…',
      send: 'Odeslat',
      log: 'Zprávy',
      you: 'Vy',
      agent: 'Operátor',
      welcome: 'Dobrý den! S čím vám můžeme pomoci?',
      offline: 'Nikdo teď není online. Nechte nám zprávu a odpovíme tady, jakmile to půjde.',
      reconnecting: 'Spojení přerušeno, připojuji znovu…',
      failed: 'Zatím neodesláno: odešleme, až se spojení obnoví.',
      typing: 'Operátor píše…',
      closed: 'Chat skončil. Jak jsme si vedli?',
      rate: ['Špatně', 'Dobře', 'Výborně'],
      thanks: 'Děkujeme za hodnocení!',
      error: 'Něco se pokazilo. Zkuste to prosím znovu.',
      attach: 'Přiložit soubor',
      remove: (name) => `Odebrat ${name}`,
      tooLarge: 'Soubor je příliš velký: nejvýše 20 MB.',
      badType: 'Tento typ souboru nelze poslat.',
    },
  };
  const lang = (script.dataset.lang || document.documentElement.lang || 'en').slice(0, 2).toLowerCase();
  const T = STRINGS[lang] || STRINGS.en;
  /** The service's upload limit (docs/api.md): a larger file is refused here, before a byte is sent. */
  const MAX_FILE_BYTES = 20 * 1024 * 1024;

  // ---------------------------------------------------------------- state

  let token = null;
  let conversation = null;
  let identity = null;
  let variables = {};
  let lastEventId = null;
  let stream = null;
  let retries = 0;
  let retryTimer = 0;
  let lastByteAt = 0;
  let starting = null;
  let sessionStarting = null;
  let unread = 0;
  let isOpen = false;
  let ui = null;
  let lastTypingSent = 0;
  let typingTimer = 0;
  /** The file picked for the next message, `{name, upload}`: its upload starts at once, `upload` resolves to its token. */
  let picked = null;
  /** Messages shown, by id (a message is shown once, however many times it arrives). */
  const shown = new Map();
  /** Messages typed but not yet accepted by the service, retried with the same key when the network is back. */
  const outbox = [];
  const listeners = { ready: [], message: [], unread: [] };

  /** The visitor's saved session: read any time, written only once the visitor has sent something. */
  const storage = {
    read() {
      try {
        return JSON.parse(localStorage.getItem(STORE)) || null;
      } catch {
        return null; // storage blocked (Safari private mode, a partitioned iframe): the chat lasts the page
      }
    },
    write(value) {
      try {
        if (value) localStorage.setItem(STORE, JSON.stringify(value));
        else localStorage.removeItem(STORE);
      } catch {
        /* as above */
      }
    },
  };

  function emit(type, detail) {
    for (const listener of listeners[type]) {
      try {
        listener(detail);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  }

  // ---------------------------------------------------------------- the visitor API

  async function call(method, path, body) {
    const init = { method, headers: {}, credentials: 'omit' };
    if (token) init.headers.Authorization = `Bearer ${token}`;
    if (body instanceof Blob) {
      init.headers['Content-Type'] = body.type || 'application/octet-stream';
      init.body = body;
    } else if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(API + path, init);
    if (res.status === 401 && token) forget();
    if (!res.ok) {
      const error = new Error(`${method} ${path}: ${res.status}`);
      error.status = res.status;
      error.body = await res.json().catch(() => ({}));
      throw error;
    }
    return res.status === 204 ? null : res.json();
  }

  /**
   * A visitor token: the one in memory, else a session from the service (resuming the saved one, if any). Callers
   * at once (a file picked, then sent) share one request, so one visitor never becomes two contacts.
   */
  function session() {
    if (token) return Promise.resolve();
    sessionStarting ??= (async () => {
      const saved = storage.read();
      const body = { widget_key: KEY };
      if (saved?.token) body.token = saved.token;
      if (identity) body.identity = identity;
      const answer = await call('POST', '/session', body);
      token = answer.token;
      if (saved) storage.write({ token });
    })().finally(() => (sessionStarting = null));
    return sessionStarting;
  }

  /** The token is refused (expired, revoked, key rotated): start over as a new visitor. */
  function forget() {
    token = null;
    conversation = null;
    lastEventId = null;
    stream?.abort();
    stream = null;
    storage.write(null);
  }

  /** Picks up the visitor's latest conversation after a reload. */
  async function resume() {
    const list = await call('GET', '/conversations');
    // Newest first: the latest one is the chat to show.
    if (list.items[0]) setConversation(list.items[0]);
    await connect();
  }

  async function loadHistory() {
    if (!conversation) return;
    const page = await call('GET', `/conversations/${conversation.id}/messages?size=50`);
    for (const message of page.items.slice().reverse()) showMessage(message, false);
  }

  // ---------------------------------------------------------------- live events (SSE over fetch, resumable)

  /** (Re)opens the event stream, resuming after the last event seen; history fills any gap before the first one. */
  async function connect() {
    clearTimeout(retryTimer);
    stream?.abort();
    if (!token || !conversation) return;
    const controller = new AbortController();
    stream = controller;
    const query = lastEventId ? `?last_event_id=${encodeURIComponent(lastEventId)}` : '';
    try {
      const res = await fetch(`${API}/events${query}`, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        credentials: 'omit',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (res.status === 401) return forget();
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      lastByteAt = Date.now();
      setNotice('connection', null);
      retries = 0;
      await loadHistory();
      await read(res.body.getReader(), controller);
    } catch {
      // a network error or an abort: handled below
    }
    if (stream !== controller) return; // replaced by a newer connection
    setNotice('connection', T.reconnecting);
    // Exponential back-off with full jitter, so thousands of widgets do not come back at once.
    const delay = Math.random() * Math.min(30_000, 1000 * 2 ** retries++);
    retryTimer = setTimeout(connect, delay);
  }

  async function read(reader, controller) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done || stream !== controller) return;
      lastByteAt = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = { id: null, type: 'message', data: '' };
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon === 0) continue; // a keep-alive comment
          const field = colon < 0 ? line : line.slice(0, colon);
          const content = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') event.id = content;
          else if (field === 'event') event.type = content;
          else if (field === 'data') event.data += (event.data ? '\n' : '') + content;
        }
        if (event.id) lastEventId = event.id;
        if (event.data) handleEvent(event.type, JSON.parse(event.data).data || {});
      }
    }
  }

  function handleEvent(type, data) {
    const forThis = (id) => conversation && id === conversation.id;
    if (data.message && forThis(data.message.conversation_id)) {
      if (data.message.sub_type !== 'contact') setTyping(false);
      showMessage(data.message, true);
    } else if (data.conversation && forThis(data.conversation.id)) {
      setConversation(data.conversation);
    } else if (type === 'conversation.agent_typing' && forThis(data.conversation_id)) {
      // Shown until the agent stops, writes, or 6 s pass.
      setTyping(data.is_typing);
    }
  }

  /** Back at once after the network returns or the tab shows again (a laptop that slept, a phone's background tab). */
  function wake() {
    if (!token || document.visibilityState === 'hidden') return;
    flushOutbox();
    if (Date.now() - lastByteAt > 20_000 || !stream || ui?.notices.connection) {
      retries = 0;
      connect();
    }
  }

  // ---------------------------------------------------------------- sending

  async function send(text, file) {
    const item = { key: `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`, text, file };
    outbox.push(item);
    item.el = addBubble({ sub_type: 'contact', text, attachments: file ? [{ file_name: file.name }] : [] });
    item.el.classList.add('pending');
    await deliver(item);
  }

  /**
   * Sends one outbox item; a network failure keeps it for flushOutbox(). Every write carries the item's client id,
   * so a retried one stores nothing new (a start answers the first conversation, a message the first message).
   */
  async function deliver(item) {
    if (item.sending) return;
    item.sending = true;
    try {
      await session();
      const attachments = item.file ? [{ type: 'upload', token: await item.file.upload }] : undefined;
      if (!conversation || conversation.status === 'closed') {
        // One start at a time: a second message before the first start answers waits for it and joins that
        // conversation. A start takes text only: a file goes in the message after it, named by the start when alone.
        if (starting) {
          await starting;
          item.sending = false;
          return deliver(item);
        }
        const text = item.text || item.file.name;
        starting = call('POST', '/conversations', { text, client_id: item.key, variables }).finally(() => (starting = null));
        setConversation(await starting);
        storage.write({ token });
        await loadHistory();
        connect();
        if (attachments) await post({ attachments, client_id: item.key });
      } else {
        await post({ ...(item.text ? { text: item.text } : {}), attachments, client_id: item.key });
      }
      outbox.splice(outbox.indexOf(item), 1);
      item.el.remove();
    } catch (error) {
      if (error.status) {
        outbox.splice(outbox.indexOf(item), 1);
        item.el.classList.add('failed');
        setNotice('error', failure(error));
      } else {
        item.el.dataset.note = T.failed;
        item.el.classList.add('failed');
      }
    } finally {
      item.sending = false;
    }
  }

  async function post(body) {
    showMessage(await call('POST', `/conversations/${conversation.id}/messages`, body), false);
  }

  /** What the panel says of a refused request: the visitor's own words for a file refused, else the service's. */
  function failure(error) {
    if (error.body?.code === 'payload_too_large') return T.tooLarge;
    if (error.body?.code === 'invalid_attachment_data') return T.badType;
    return error.body?.message || T.error;
  }

  /** A file picked: uploaded at once, so a refusal (too large, a type no message may carry) shows before sending. */
  function pick() {
    const file = ui.file.files[0];
    ui.file.value = '';
    if (!file) return;
    setNotice('error', null);
    if (file.size > MAX_FILE_BYTES) return setNotice('error', T.tooLarge);
    const chosen = { name: file.name };
    chosen.upload = session()
      .then(() => call('POST', `/uploads?file_name=${encodeURIComponent(file.name)}`, file))
      .then((answer) => answer.token);
    chosen.upload.catch((error) => {
      if (picked === chosen) setPicked(null);
      setNotice('error', error.status ? failure(error) : T.error);
    });
    setPicked(chosen);
  }

  function setPicked(chosen) {
    picked = chosen;
    ui.chip.hidden = !chosen;
    ui.chip.replaceChildren();
    if (chosen) {
      ui.chip.append(
        icon(CLIP),
        h('span', {}, chosen.name),
        h('button', { type: 'button', 'aria-label': T.remove(chosen.name), onclick: () => setPicked(null) }, '×'),
      );
    }
  }

  /** Downloads a file of the conversation with the visitor's token (a link alone cannot send it). */
  async function download(event, attachment) {
    event.preventDefault();
    try {
      const res = await fetch(BASE + attachment.url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'omit' });
      if (!res.ok) throw new Error(`download: ${res.status}`);
      const href = URL.createObjectURL(await res.blob());
      const link = h('a', { href, download: attachment.file_name, hidden: true });
      ui.root.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch {
      setNotice('error', T.error);
    }
  }

  function flushOutbox() {
    for (const item of outbox.slice()) deliver(item);
  }

  function typed() {
    if (!conversation || conversation.status === 'closed' || Date.now() - lastTypingSent < 3000) return;
    lastTypingSent = Date.now();
    call('POST', `/conversations/${conversation.id}/typing`, { is_typing: true }).catch(() => {});
  }

  async function rate(value) {
    const rated = await call('POST', `/conversations/${conversation.id}/rating`, { value });
    setConversation(rated.conversation || rated);
  }

  // ---------------------------------------------------------------- the user interface

  function h(tag, props = {}, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(props)) {
      if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
      else if (name in el && !name.startsWith('aria')) el[name] = value;
      else el.setAttribute(name, value);
    }
    el.append(...children);
    return el;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  const BUBBLE = 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z';
  const CLIP = 'M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5';

  /** An icon of one path; the class `clip` draws it as a line (CSS). */
  function icon(d, className = 'clip') {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('class', className);
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
    return svg;
  }

  const CSS = `
:host{all:initial}
*{box-sizing:border-box;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0}
.launcher,.panel{position:fixed;bottom:20px;z-index:var(--z,2147483000)}
.launcher{width:56px;height:56px;border:0;border-radius:50%;background:var(--accent,#1d4ed8);color:#fff;cursor:pointer;
box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}
.launcher svg{width:28px;height:28px;fill:currentColor}
.badge{position:absolute;top:-4px;right:-4px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#dc2626;
color:#fff;font-size:12px;font-weight:700;line-height:22px;text-align:center}
.panel{bottom:88px;width:370px;height:min(580px,calc(100vh - 110px));background:#fff;color:#111827;border-radius:14px;
box-shadow:0 8px 40px rgba(0,0,0,.25);display:flex;flex-direction:column;overflow:hidden}
.right{right:20px}.left{left:20px}
[hidden]{display:none!important}
header{display:flex;align-items:center;justify-content:space-between;padding:14px 16px;background:var(--accent,#1d4ed8);color:#fff}
h2{font-weight:600;font-size:17px;color:inherit}
button{cursor:pointer;font:inherit}
.x{border:0;background:none;color:inherit;font-size:24px;line-height:1;padding:2px 8px;border-radius:6px}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px;background:#f3f4f6}
.msg{max-width:80%;padding:8px 12px;border-radius:14px;white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;
align-self:flex-start;border:1px solid #e5e7eb}
.contact{align-self:flex-end;background:var(--accent,#1d4ed8);color:#fff;border:0}
.pending{opacity:.6}.failed{opacity:1;outline:2px dashed #dc2626}
.failed[data-note]::after{content:attr(data-note);display:block;font-size:12px}
.note{font-size:13px;color:#374151;padding:8px 14px;background:#fef3c7;border-top:1px solid #fde68a}
.typing{font-size:13px;color:#4b5563;padding:2px 14px 6px;background:#f3f4f6}
.rating{display:flex;gap:8px;padding:0 14px 12px;background:#fef3c7}
.rating button{flex:1;padding:8px;border:1px solid #d97706;border-radius:8px;background:#fff;color:#92400e}
form{display:flex;gap:6px;padding:10px;border-top:1px solid #e5e7eb;align-items:flex-end}
textarea{flex:1;resize:none;border:1px solid #9ca3af;border-radius:10px;padding:9px 10px;font-size:16px;max-height:120px;
color:#111827;background:#fff}
.send{border:0;border-radius:10px;padding:10px 14px;background:var(--accent,#1d4ed8);color:#fff}
.attach{border:0;border-radius:10px;padding:9px 6px;background:none;color:#374151;display:grid}
.clip{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.msg .clip,.chip .clip{width:15px;height:15px;vertical-align:-2px;margin-right:3px}
.msg a{color:inherit}
.chip{display:flex;align-items:center;gap:4px;padding:6px 12px;font-size:13px;color:#374151;border-top:1px solid #e5e7eb}
.chip span{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.chip button{border:0;background:none;font-size:18px;line-height:1;padding:0 6px;border-radius:6px;color:inherit}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:480px){
.panel{inset:0;width:100%;height:var(--vh,100dvh);border-radius:0}
.open .launcher{display:none}
}
@media (prefers-reduced-motion:no-preference){.panel{transition:opacity .15s}}
`;

  function build() {
    const host = document.createElement('chat-service-widget');
    const z = Number.parseInt(script.dataset.zIndex, 10);
    if (Number.isFinite(z)) host.style.setProperty('--z', String(z));
    if (/^#[0-9a-f]{3,8}$/i.test(script.dataset.color || '')) host.style.setProperty('--accent', script.dataset.color);
    const side = script.dataset.position === 'left' ? 'left' : 'right';
    const root = host.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];

    const badge = h('span', { className: 'badge', hidden: true, 'aria-hidden': 'true' });
    const launcher = h(
      'button',
      { className: `launcher ${side}`, type: 'button', 'aria-expanded': 'false', onclick: toggle },
      icon(BUBBLE, ''),
      badge,
    );

    const log = h('div', { className: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': T.log, tabIndex: 0 });
    log.append(h('p', { className: 'msg' }, T.welcome));
    const notices = {};
    const noticeBox = h('div', { role: 'status' });
    const typing = h('p', { className: 'typing', hidden: true }, T.typing);
    const rating = h(
      'div',
      { className: 'rating', hidden: true },
      ...T.rate.map((label, i) =>
        h('button', { type: 'button', onclick: () => rate([1, 3, 5][i]).catch(() => setNotice('error', T.error)) }, label),
      ),
    );
    const input = h('textarea', { rows: 1, placeholder: T.placeholder, 'aria-label': T.input, maxLength: 5000 });
    const file = h('input', { type: 'file', hidden: true, onchange: pick });
    const attach = h('button', {
      type: 'button',
      className: 'attach',
      'aria-label': T.attach,
      title: T.attach,
      onclick: () => file.click(),
    });
    attach.append(icon(CLIP));
    const chip = h('p', { className: 'chip', hidden: true });
    const form = h('form', { onsubmit: submit }, file, attach, input, h('button', { type: 'submit', className: 'send' }, T.send));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
    });
    input.addEventListener('input', typed);
    const panel = h(
      'div',
      { className: `panel ${side}`, id: 'panel', role: 'dialog', 'aria-label': T.title, hidden: true, onkeydown: trapFocus },
      h('header', {}, h('h2', {}, T.title), h('button', { type: 'button', className: 'x', 'aria-label': T.close, onclick: close }, '×')),
      log,
      noticeBox,
      typing,
      rating,
      chip,
      form,
    );
    launcher.setAttribute('aria-controls', 'panel');
    const wrap = h('div', {}, launcher, panel);
    root.append(wrap);
    document.body.append(host);
    ui = { root, wrap, launcher, badge, panel, log, input, file, chip, rating, typing, notices, noticeBox };
    setUnread(0);
    // Keeps the input above an on-screen keyboard: the full-screen panel follows the visual viewport.
    window.visualViewport?.addEventListener('resize', () => host.style.setProperty('--vh', `${window.visualViewport.height}px`));
  }

  function submit(event) {
    event.preventDefault();
    const text = ui.input.value.trim();
    if (!text && !picked) return;
    const file = picked;
    ui.input.value = '';
    setPicked(null);
    send(text, file);
  }

  /** Tab and Shift+Tab stay inside the open panel; Escape closes it. */
  function trapFocus(event) {
    if (event.key === 'Escape') return close();
    if (event.key !== 'Tab') return;
    const focusable = [...ui.panel.querySelectorAll('button,textarea,[tabindex="0"]')].filter(
      (el) => !el.closest('[hidden]') && !el.disabled,
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    const active = ui.root.activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  /**
   * A message's bubble, in the order the service stored the messages (whichever way each arrived: history, the
   * stream or a send's answer), before the visitor's messages still on their way (no `created_at` yet).
   */
  function addBubble(message) {
    const own = message.sub_type === 'contact';
    const text = message.text ?? '';
    const files = (message.attachments || []).filter((a) => a.file_name).map(fileLink);
    const el = h('p', { className: `msg ${own ? 'contact' : ''}` }, h('span', { className: 'sr' }, `${own ? T.you : T.agent}: `), text);
    files.forEach((link, i) => el.append(text || i ? '\n' : '', link));
    const at = message.created_at;
    if (at) el.dataset.at = at;
    const later = at && [...ui.log.children].find((other) => other.dataset.at > at || other.classList.contains('pending'));
    ui.log.insertBefore(el, later || null);
    ui.log.scrollTop = ui.log.scrollHeight;
    return el;
  }

  /**
   * An attachment's name as a link: a file sent in the chat is fetched with the visitor's token (download()), a link
   * an agent sent opens in a new tab; a file still on its way is its name alone.
   */
  function fileLink(attachment) {
    const own = attachment.url?.startsWith('/widget/v1/');
    const props = own
      ? { href: BASE + attachment.url, onclick: (event) => download(event, attachment) }
      : { href: attachment.url, target: '_blank', rel: 'noopener noreferrer' };
    const el = h(attachment.url ? 'a' : 'span', attachment.url ? props : {}, attachment.file_name);
    el.prepend(icon(CLIP));
    return el;
  }

  function showMessage(message, live) {
    if (shown.has(message.id)) return;
    shown.set(message.id, addBubble(message));
    if (message.sub_type !== 'contact' && live && (!isOpen || document.hidden)) setUnread(unread + 1);
    if (message.sub_type === 'contact' && message.is_offline) setNotice('offline', T.offline);
    const { id, conversation_id, text, sub_type: from, created_at } = message;
    emit('message', { id, conversation_id, text, from, created_at });
  }

  function setConversation(next) {
    conversation = next;
    const closed = next.status === 'closed';
    ui.rating.hidden = !closed || next.rating_value != null;
    setNotice('closed', closed ? (next.rating_value != null ? T.thanks : T.closed) : null);
    if (closed) setNotice('offline', null);
  }

  function setNotice(name, text) {
    if (!ui) return;
    ui.notices[name]?.remove();
    delete ui.notices[name];
    if (text) ui.noticeBox.append((ui.notices[name] = h('p', { className: 'note' }, text)));
  }

  function setTyping(on) {
    clearTimeout(typingTimer);
    ui.typing.hidden = !on;
    if (on) typingTimer = setTimeout(() => setTyping(false), 6000);
  }

  function setUnread(count) {
    const changed = count !== unread;
    unread = count;
    ui.badge.textContent = String(count);
    ui.badge.hidden = count === 0;
    ui.launcher.setAttribute('aria-label', count ? `${T.open} (${T.unread(count)})` : T.open);
    if (changed) emit('unread', count);
  }

  // ---------------------------------------------------------------- the host page's API

  function open() {
    if (!ui || isOpen) return;
    isOpen = true;
    ui.panel.hidden = false;
    ui.wrap.classList.add('open');
    ui.launcher.setAttribute('aria-expanded', 'true');
    setUnread(0);
    ui.log.scrollTop = ui.log.scrollHeight;
    ui.input.focus();
  }

  function close() {
    if (!ui || !isOpen) return;
    isOpen = false;
    ui.panel.hidden = true;
    ui.wrap.classList.remove('open');
    ui.launcher.setAttribute('aria-expanded', 'false');
    ui.launcher.focus();
  }

  function toggle() {
    (isOpen ? close : open)();
  }

  let ready = false;
  const pending = [];
  const whenReady =
    (fn) =>
    (...args) =>
      ready ? fn(...args) : pending.push(() => fn(...args));

  const chatWidget = {
    version: 1,
    open: whenReady(open),
    close: whenReady(close),
    toggle: whenReady(toggle),
    /** The signed identity the site's server computed (docs/widget.md); the chat then belongs to that contact. */
    identify: whenReady(async (signed) => {
      identity = signed;
      if (!token) return;
      token = null;
      await session();
      await resume();
    }),
    /** Conversation variables, sent with the conversation the visitor starts. */
    setVariables(values) {
      variables = { ...variables, ...values };
    },
    on(type, listener) {
      listeners[type]?.push(listener);
      if (type === 'ready' && ready) listener();
      return () => chatWidget.off(type, listener);
    },
    off(type, listener) {
      const list = listeners[type] || [];
      if (list.includes(listener)) list.splice(list.indexOf(listener), 1);
    },
    get unread() {
      return unread;
    },
  };
  // Calls queued before this script ran: window.chatWidget = [['on', 'ready', fn], ['open']].
  const queued = Array.isArray(window.chatWidget) ? window.chatWidget : [];
  window.chatWidget = chatWidget;
  for (const [method, ...args] of queued) chatWidget[method]?.(...args);

  async function start() {
    const began = performance.now();
    build();
    ready = true;
    for (const fn of pending.splice(0)) fn();
    emit('ready');
    // Its one task on the host's main thread, in the page's User Timing (DevTools' Performance panel, bench:widget).
    performance.measure('chat-widget:start', { start: began });
    window.addEventListener('online', wake);
    // A connection open when the network went away is dead even if the browser has not noticed: resume from scratch.
    window.addEventListener('offline', () => stream?.abort());
    document.addEventListener('visibilitychange', wake);
    setInterval(() => Date.now() - lastByteAt > 45_000 && stream && connect(), 15_000);
    // Only a visitor who has written before costs a request at load.
    if (storage.read()?.token) await session().then(resume, () => {});
  }

  if (!KEY) return console.warn('chat widget: the script tag has no data-key');
  // Nothing runs before the page has loaded and is idle.
  const idle = () => (window.requestIdleCallback || setTimeout)(start, { timeout: 3000 });
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
})();

// The inbox's two ways to the service: one JSON call with the tab's token, and the event stream read with fetch
// (EventSource cannot send an Authorization header), resumed with Last-Event-ID after any drop.

export class ApiFailure extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the /v2 API with `token`; answers the parsed body, throws ApiFailure with the service's message. */
export async function call(token, method, path, body, extraHeaders = {}) {
  const headers = { authorization: `Bearer ${token}`, ...extraHeaders };
  let payload = body;
  if (body !== undefined && !(body instanceof Blob)) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, 'The service cannot be reached; check the connection.');
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new ApiFailure(response.status, answer?.message ?? `The service answered HTTP ${response.status}.`);
  return answer;
}

/** Downloads an attachment with the token (an <img> or a link cannot send it): a blob: URL for it. */
export async function download(token, path) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  if (!response.ok) throw new ApiFailure(response.status, `The file could not be downloaded (HTTP ${response.status}).`);
  return URL.createObjectURL(await response.blob());
}

/**
 * Splits SSE text into complete messages ({id, event, data}); answers them and the unfinished rest. Comment lines
 * (`: keep-alive`, `: connected`) come back as {comment}.
 */
export function parseSse(buffer) {
  const messages = [];
  let rest = buffer.replace(/\r\n?/g, '\n');
  for (let end = rest.indexOf('\n\n'); end >= 0; end = rest.indexOf('\n\n')) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const message = { id: null, event: 'message', data: '' };
    let comment = null;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comment = line.slice(1).trim();
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') message.data += (message.data ? '\n' : '') + value;
    }
    if (message.id !== null || message.data) messages.push(message);
    else if (comment !== null) messages.push({ comment });
  }
  return { messages, rest };
}

/**
 * The account's live events: calls `onEvent(body)` once per event, in order, across reconnections (each resumes
 * after the last id handled, so nothing is lost or repeated). `onState('connected'|'disconnected', detail)` reports
 * the connection; `onUnauthorized()` ends it for good. Reconnects after 1, 2, 4… (at most 15) seconds plus jitter,
 * and at once when the browser comes back online or the tab becomes visible.
 */
export function openEventStream({ token, onEvent, onState, onUnauthorized }) {
  let lastEventId = null;
  let controller = null;
  let stopped = false;
  let failures = 0;
  let timer = null;
  let connected = false;

  const retryNow = () => {
    if (stopped || connected) return;
    clearTimeout(timer);
    connect();
  };
  const scheduleRetry = (reason) => {
    if (stopped) return;
    connected = false;
    failures += 1;
    const delay = Math.min(15000, 1000 * 2 ** (failures - 1)) + Math.random() * 500;
    onState('disconnected', { reason, retryInMs: delay });
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  };

  async function connect() {
    if (stopped) return;
    controller = new AbortController();
    const headers = { authorization: `Bearer ${token}` };
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    let response;
    try {
      response = await fetch('/v2/events', { headers, signal: controller.signal, cache: 'no-store' });
    } catch {
      return scheduleRetry('The connection to the service was lost.');
    }
    if (response.status === 401) {
      stopped = true;
      return onUnauthorized();
    }
    if (!response.ok) return scheduleRetry(`The event stream answered HTTP ${response.status}.`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseSse(buffer + decoder.decode(value, { stream: true }));
        buffer = parsed.rest;
        for (const message of parsed.messages) {
          if (message.comment !== undefined) {
            if (message.comment === 'connected' && !connected) {
              connected = true;
              failures = 0;
              onState('connected', { resumed: lastEventId !== null });
            }
            continue;
          }
          lastEventId = message.id;
          onEvent(JSON.parse(message.data));
        }
      }
    } catch {
      // A dropped connection: retried below.
    }
    if (!stopped) scheduleRetry('The connection to the service was lost.');
  }

  window.addEventListener('online', retryNow);
  const onVisible = () => document.visibilityState === 'visible' && retryNow();
  document.addEventListener('visibilitychange', onVisible);
  connect();
  return {
    close() {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      window.removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

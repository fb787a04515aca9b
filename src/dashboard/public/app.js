// The dashboard page: sign-in, controls mirrored in the URL hash, and one refresh =
// one batched POST /v2/statistics plus the legacy totals (per-agent figures), drawn
// into every view. The token lives in sessionStorage only.
import {
  RANGES,
  agentsTable,
  cardsTable,
  conversationsTable,
  hashOf,
  heatmapTable,
  legacyParameters,
  overviewCards,
  rangeOf,
  ratingsTable,
  responseTimesTable,
  stateFromHash,
  statisticsBody,
  timeToCloseTable,
  todayIn,
} from './model.js';
import { formatValue } from './format.js';
import { chartWidth, COLORS, downloadCsv, drawLines, renderHeatmap, renderTable } from './charts.js';

const TOKEN_KEY = 'chat-service.dashboard.token';
/** The filter selects and their "no filter" options. */
const ALL = { group: 'All groups', agent: 'All agents', tag: 'All tags' };
const $ = (id) => document.getElementById(id);
const main = $('main');
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let state = stateFromHash(location.hash, browserZone);
/** The agents table's order: a column index and its direction. */
let agentSort = { column: 1, descending: true };
/** What the last refresh drew from: the CSV downloads and the agents table's re-sorting use it. */
let last = { range: null, result: null, totals: null };
let refreshes = 0;
let inFlight = null;
const charts = new Map();
const tables = new Map();

class ApiFailure extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** One call to the service with the session's token; failures as ApiFailure with the service's message. */
async function call(method, path, body, signal) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY)}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiFailure(0, 'The service cannot be reached; check the connection and refresh.');
  }
  const payload = await response.json().catch(() => null);
  if (!response.ok) {
    // error_payload on /v2, {success:false, error} on the legacy export.
    const message = payload?.message ?? payload?.error?.message ?? `The service answered HTTP ${response.status}.`;
    throw new ApiFailure(response.status, message);
  }
  return payload;
}

/** The sign-in message for a failure that means the token cannot be used, or null. */
function tokenProblem(failure) {
  if (failure?.status === 401) return 'This token is unknown or has been revoked. Sign in with a valid token.';
  if (failure?.status === 403) return `This token cannot read statistics (${failure.message}). Use a token with the statistics:read scope.`;
  return null;
}

// Sign-in

function showSignIn(message = '') {
  inFlight?.abort();
  sessionStorage.removeItem(TOKEN_KEY);
  // The next token may be another account's: forget this one's names.
  for (const [id, label] of Object.entries(ALL)) setOptions($(id), label, [], '');
  main.hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message;
  $('token').value = '';
  $('token').focus();
}

async function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  $('sign-in').hidden = true;
  $('sign-out').hidden = false;
  main.hidden = false;
  syncControls();
  // The filter lists once the token has proved itself, so a bad one gets one message.
  if ((await refresh()) !== 'signed out') await loadFilterLists();
}

/** The group and tag filters' options, once per sign-in. */
async function loadFilterLists() {
  if (!sessionStorage.getItem(TOKEN_KEY)) return;
  for (const [id, kind] of [
    ['group', 'groups'],
    ['tag', 'tags'],
  ]) {
    try {
      const list = (await call('GET', `/v2/${kind}`))[kind];
      setOptions(
        $(id),
        ALL[id],
        list.map((item) => [item.id, item.name]),
        state[id],
      );
    } catch (failure) {
      const problem = tokenProblem(failure);
      if (problem) return showSignIn(problem);
      setStatus(`The ${kind} could not be listed: ${failure.message}`);
    }
  }
}

// Controls and the URL

/** Replaces a select's options, keeping `selected` (shown by its id when the list does not name it). */
function setOptions(select, allLabel, entries, selected) {
  const options = [['', allLabel], ...entries];
  if (selected && !entries.some(([value]) => value === selected)) options.push([selected, selected]);
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value, false, value === selected)));
}

function syncControls() {
  $('range').value = state.range;
  $('custom-range').hidden = state.range !== 'custom';
  $('from').value = state.from;
  $('to').value = state.to;
  if (![...$('tz').options].some((option) => option.value === state.tz)) $('tz').append(new Option(state.tz, state.tz));
  $('tz').value = state.tz;
  $('interval').value = state.interval;
  for (const name of ['group', 'agent', 'tag']) {
    const select = $(name);
    if (![...select.options].some((option) => option.value === state[name])) select.append(new Option(state[name], state[name]));
    select.value = state[name];
  }
}

/** Applies a change of the controls: the hash records it (so the view can be shared) and the view follows. */
function update(changes) {
  const next = { ...state, ...changes };
  if (next.range === 'custom' && (!next.from || !next.to)) {
    const shown = last.range ?? rangeOf({ ...state, range: '30d' }, todayIn(state.tz));
    next.from ||= shown.from;
    next.to ||= shown.to;
  }
  const hash = hashOf(next);
  if (hash === location.hash) return refresh();
  location.hash = hash; // the hashchange handler refreshes
}

function setupControls() {
  $('range').replaceChildren(...RANGES.map((range) => new Option(range.label, range.id)));
  const zones = new Set(Intl.supportedValuesOf?.('timeZone') ?? []);
  zones.add('UTC');
  zones.add(browserZone);
  $('tz').replaceChildren(...[...zones].sort().map((zone) => new Option(zone, zone)));
  $('range').addEventListener('change', (event) => update({ range: event.target.value }));
  for (const name of ['from', 'to']) {
    $(name).addEventListener('change', (event) => {
      if (event.target.value) update({ range: 'custom', [name]: event.target.value });
    });
  }
  for (const name of ['tz', 'interval', 'group', 'agent', 'tag']) {
    $(name).addEventListener('change', (event) => update({ [name]: event.target.value }));
  }
  $('controls').addEventListener('submit', (event) => {
    event.preventDefault();
    refresh();
  });
  window.addEventListener('hashchange', () => {
    state = stateFromHash(location.hash, browserZone);
    syncControls();
    if (sessionStorage.getItem(TOKEN_KEY)) refresh();
  });
  $('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('token').value.trim();
    if (!token) {
      $('sign-in-error').textContent = 'Enter a token.';
      return;
    }
    $('token').value = '';
    signIn(token);
  });
  $('sign-out').addEventListener('click', () => showSignIn('Signed out.'));
  for (const section of document.querySelectorAll('.panel')) {
    section.querySelector('.csv').addEventListener('click', () => {
      const id = section.id.replace(/^panel-/, '');
      const table = tables.get(id);
      if (table) downloadCsv(`chat-service-${id}-${last.range.from}-to-${last.range.to}.csv`, table);
    });
  }
  new ResizeObserver(() => {
    for (const [id, chart] of charts) chart.setSize({ width: chartWidth(panel(id).chart), height: chart.height });
  }).observe($('views'));
}

// Views

function panel(id) {
  const section = $(`panel-${id}`);
  return {
    section,
    status: section.querySelector('.panel-status'),
    chart: section.querySelector('.chart'),
    legend: section.querySelector('.legend'),
    table: section.querySelector('table.numbers'),
    csv: section.querySelector('.csv'),
  };
}

function setStatus(text) {
  $('status').textContent = text;
}

/** A view's state: busy while loading, a message (error or explanation) instead of numbers, or its numbers. */
function showPanel(id, { busy = false, message = '', error = false, table = null }) {
  const p = panel(id);
  p.section.setAttribute('aria-busy', String(busy));
  p.section.classList.toggle('failed', error);
  p.status.textContent = busy ? 'Loading…' : message;
  p.status.setAttribute('role', error ? 'alert' : 'none');
  p.csv.disabled = busy || !table;
  if (busy) return;
  tables.set(id, table);
  if (!table) {
    charts.get(id)?.destroy();
    charts.delete(id);
    p.chart?.replaceChildren();
    p.legend?.replaceChildren();
    p.table?.replaceChildren();
  }
}

const intervalCaption = () => `per ${state.interval}, ${state.tz}`;

function drawChart(id, table, series, caption, colors) {
  const p = panel(id);
  charts.get(id)?.destroy();
  charts.set(id, drawLines(p.chart, p.legend, table, series, colors));
  renderTable(p.table, table, `${caption} (${intervalCaption()})`);
}

function drawStatistics(result) {
  const conversations = conversationsTable(result);
  showPanel('conversations', { table: conversations });
  drawChart('conversations', conversations, [1, 2], 'Conversations started and closed');

  const responseTimes = responseTimesTable(result);
  if (responseTimes) {
    showPanel('response-times', { table: responseTimes });
    drawChart('response-times', responseTimes, [1, 3], 'Median first response and response time');
  } else {
    showPanel('response-times', {
      message: 'Not available with a tag filter: response times are measured on replies, and messages carry no tags.',
    });
  }

  const timeToClose = timeToCloseTable(result);
  showPanel('time-to-close', { table: timeToClose });
  drawChart('time-to-close', timeToClose, [1], 'Median time to close');

  const ratings = ratingsTable(result);
  showPanel('ratings', { table: ratings });
  drawChart('ratings', ratings, [1, 2, 3], 'Ratings', [COLORS[2], COLORS[3], COLORS[4]]);

  const heatmap = heatmapTable(result);
  showPanel('heatmap', { table: heatmap });
  renderHeatmap(panel('heatmap').table, heatmap, `New conversations by day of week and hour of day (${state.tz})`);
}

function drawCards(result, totals) {
  const cards = overviewCards(result, totals);
  showPanel('overview', { table: cardsTable(cards), message: totals ? '' : 'The legacy export’s figures are missing: see Agents.' });
  $('cards').replaceChildren(
    ...cards.map((card) => {
      const item = document.createElement('li');
      item.className = card.legacy ? 'card legacy' : 'card';
      item.dataset.card = card.id;
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = card.label;
      const value = document.createElement('span');
      value.className = 'value';
      value.dataset.value = card.value === null ? '' : String(card.value);
      value.textContent = formatValue(card.unit, card.value);
      item.append(label, value);
      return item;
    }),
  );
}

function drawAgents() {
  const table = agentsTable(last.totals, state, agentSort);
  showPanel('agents', { table, message: table.rows.length === 0 ? 'No agents to show.' : '' });
  renderTable(panel('agents').table, table, `Agents, ${last.range.from} to ${last.range.to}`, {
    ...agentSort,
    onSort: (column) => {
      agentSort = { column, descending: agentSort.column === column ? !agentSort.descending : column !== 0 };
      drawAgents();
      panel('agents').table.querySelectorAll('thead button')[column].focus();
    },
  });
}

/** The agent filter's options: the agents the legacy export lists (userId, nickname). */
function setAgentOptions(totals) {
  const agents = [...totals.agents].sort((a, b) => a.nickname.localeCompare(b.nickname));
  setOptions(
    $('agent'),
    ALL.agent,
    agents.map((agent) => [String(agent.userId), agent.nickname]),
    state.agent,
  );
}

const V2_PANELS = ['conversations', 'response-times', 'time-to-close', 'ratings', 'heatmap'];
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/**
 * One refresh: the batched statistics request and the legacy totals, in parallel, then
 * every view. Resolves to how it ended: done, invalid (a bad custom range), signed out
 * (the token was refused) or superseded (a newer refresh started).
 */
async function refresh() {
  const number = ++refreshes;
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const started = performance.now();
  // The URL always names the view shown (a first visit's defaults too), without a history entry of its own.
  if (location.hash !== hashOf(state)) history.replaceState(null, '', hashOf(state));
  const range = rangeOf(state, todayIn(state.tz));
  if (range.error) {
    main.dataset.state = 'invalid';
    setStatus(range.error);
    return 'invalid';
  }
  main.dataset.state = 'loading';
  setStatus('Loading statistics…');
  for (const id of ['overview', ...V2_PANELS, 'agents']) showPanel(id, { busy: true });

  const query = new URLSearchParams({ timezone: state.tz });
  const [statistics, totals] = await Promise.allSettled([
    call('POST', `/v2/statistics?${query}`, statisticsBody(state, range), controller.signal),
    call('GET', `/stats/totals?${new URLSearchParams(legacyParameters(state, range))}`, undefined, controller.signal),
  ]);
  if (controller.signal.aborted || number !== refreshes) return 'superseded';
  const problem = tokenProblem(statistics.reason) ?? tokenProblem(totals.reason);
  if (problem) {
    showSignIn(problem);
    return 'signed out';
  }

  last = { range, result: statistics.value ?? null, totals: totals.value ?? null };
  const empty = statistics.status === 'fulfilled' && statistics.value.everything.count === 0;
  $('empty').hidden = !empty;
  $('views').hidden = empty;
  if (statistics.status === 'fulfilled') {
    drawStatistics(statistics.value);
    drawCards(statistics.value, last.totals);
  } else {
    for (const id of ['overview', ...V2_PANELS]) showPanel(id, { error: true, message: `Statistics failed: ${statistics.reason.message}` });
  }
  if (totals.status === 'fulfilled') {
    setAgentOptions(totals.value);
    drawAgents();
  } else {
    showPanel('agents', { error: true, message: `The legacy export failed: ${totals.reason.message}` });
  }

  await nextFrame();
  const seconds = (performance.now() - started) / 1000;
  const failed = statistics.status === 'rejected' || totals.status === 'rejected';
  main.dataset.refresh = String(number);
  main.dataset.refreshMs = String(Math.round(seconds * 1000));
  // Since the navigation started: the whole page's time to its numbers (npm run bench:dashboard reads both).
  main.dataset.readyAt = String(Math.round(performance.now()));
  main.dataset.state = empty ? 'empty' : failed ? 'error' : 'ready';
  setStatus(
    `${failed ? 'Updated with errors' : 'Updated'} at ${new Date().toLocaleTimeString('en-GB')} in ${seconds.toFixed(2)} s: ` +
      `${range.from} to ${range.to}, ${state.tz}.`,
  );
  return 'done';
}

setupControls();
syncControls();
if (sessionStorage.getItem(TOKEN_KEY)) signIn(sessionStorage.getItem(TOKEN_KEY));
else showSignIn();

/**
 * Made-up but plausible conversations: when they start (weekly and daily
 * seasonality, slow growth over the period) and what happens in them (who
 * writes when, with reply delays of seconds to minutes, offline messages
 * answered in the next office hours, assignments, notes, closes, ratings).
 * Everything comes from one seeded Random, so a seed gives the same history.
 */
import { itemAt } from '../arrays.ts';
import type { Random } from './random.ts';
import { DAY_MS, isoWeekday, type LocalCalendar } from './local-time.ts';
import type { Action } from './replay.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Relative traffic by local ISO weekday (index 0 = Monday). */
const WEEKDAY_WEIGHTS = [1.0, 1.05, 1.0, 0.95, 0.85, 0.4, 0.3];
/** Relative traffic by local hour: quiet nights, a peak mid-morning and mid-afternoon. */
const HOUR_WEIGHTS = [
  0.15, 0.1, 0.08, 0.07, 0.07, 0.1, 0.25, 0.6, 1.2, 1.8, 2.0, 1.9, 1.5, 1.7, 1.9, 1.8, 1.5, 1.1, 0.8, 0.65, 0.55, 0.45, 0.35, 0.25,
];
const OFFICE_START_HOUR = 8;
const OFFICE_END_HOUR = 18;

export interface DemoWorld {
  /** Agents by group id; the empty string holds every agent (for conversations without a group). */
  agentsByGroup: Map<string, string[]>;
  groupIds: string[];
  groupWeights: number[];
  tagIds: string[];
  botIds: string[];
}

export interface PlannedPath {
  url: string;
  title: string;
  at: number;
}

export interface PlannedConversation {
  groupId: string | null;
  tags: string[];
  variables: Record<string, string | number | boolean>;
  paths: PlannedPath[];
  /** In time order. */
  actions: Action[];
}

/**
 * How many conversations start on each local day of [firstDay, lastDay]: `total`
 * split by weekday, a growth trend and some day-to-day noise, rounded so the
 * counts add up exactly (largest remainder).
 */
export function conversationsPerDay(random: Random, firstDay: number, lastDay: number, total: number): number[] {
  const days = lastDay - firstDay + 1;
  const weights = Array.from({ length: days }, (_, i) => {
    const trend = 0.75 + (0.5 * i) / Math.max(1, days - 1);
    return itemAt(WEEKDAY_WEIGHTS, isoWeekday(firstDay + i) - 1) * trend * (0.85 + 0.3 * random.next());
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (weight / sum) * total);
  const counts = exact.map(Math.floor);
  let missing = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((value, day) => ({ remainder: value - Math.floor(value), day })).sort((a, b) => b.remainder - a.remainder);
  for (let k = 0; missing > 0; k++, missing--) {
    const { day } = itemAt(byRemainder, k % days);
    counts[day] = itemAt(counts, day) + 1;
  }
  return counts;
}

/** Start instants (UTC ms, ascending, before `nowMs`) of `count` conversations on local day `day`. */
export function startsOnDay(random: Random, calendar: LocalCalendar, day: number, count: number, nowMs: number): number[] {
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const hour = random.weightedIndex(HOUR_WEIGHTS);
    let at = calendar.toUtc(day, hour * HOUR + Math.floor(random.next() * HOUR));
    // Today's later hours have not happened yet: move them into the last hour.
    if (at >= nowMs) at = nowMs - 1 - Math.floor(random.next() * HOUR);
    starts.push(at);
  }
  return starts.sort((a, b) => a - b);
}

function isOfficeHours(calendar: LocalCalendar, at: number): boolean {
  const wall = calendar.wallClock(at);
  const day = Math.floor(wall / DAY_MS);
  const hour = Math.floor((wall - day * DAY_MS) / HOUR);
  return isoWeekday(day) <= 5 && hour >= OFFICE_START_HOUR && hour < OFFICE_END_HOUR;
}

/** The start of the next office hours after `at` (weekdays 08:00 local). */
function nextOfficeStart(calendar: LocalCalendar, at: number): number {
  const wall = calendar.wallClock(at);
  let day = Math.floor(wall / DAY_MS);
  if (wall - day * DAY_MS >= OFFICE_START_HOUR * HOUR) day++;
  while (isoWeekday(day) > 5) day++;
  return calendar.toUtc(day, OFFICE_START_HOUR * HOUR);
}

/** A log-normal delay in milliseconds, kept within [min, max] seconds. */
function delay(random: Random, medianSeconds: number, sigma: number, minSeconds: number, maxSeconds: number): number {
  const seconds = Math.min(maxSeconds, Math.max(minSeconds, random.logNormal(medianSeconds, sigma)));
  return Math.round(seconds * SECOND);
}

const CONTACT_OPENERS = [
  'Hi, I have a question about my order',
  'Hello, my payment did not go through',
  'Can I change the delivery address?',
  'Is the pro plan billed monthly?',
  'I cannot log in to my account',
  'Do you ship to Canada?',
  'How do I reset my password?',
  'The app crashes when I upload a photo',
  'Is there a discount for students?',
  'Where can I download my invoice?',
];
const CONTACT_FOLLOW_UPS = [
  'Thanks, that helps',
  'Order number is 48213',
  'I tried that already',
  'It says the card was declined',
  'Ok, one more thing',
  'Sure, the email is the same as on the account',
  'Great, thank you!',
  'When will it arrive?',
  'Let me check',
  'Perfect',
];
const AGENT_REPLIES = [
  'Hi! Let me look into that for you.',
  'Thanks for waiting. I can see your order here.',
  'Could you send me your order number?',
  'I have updated it for you.',
  'Please try clearing the cache and log in again.',
  'Yes, we ship there within 5 working days.',
  'I have sent you a reset link by email.',
  'Anything else I can help with?',
  'Sorry for the trouble, I have refunded the charge.',
  'You will find invoices under Settings > Billing.',
];
const AGENT_NOTES = ['Customer is on the legacy plan', 'Escalated to billing', 'Check again tomorrow', 'VIP customer'];
const BOT_TEXTS = ['Thanks! An agent will be with you shortly.', 'We usually reply within a few minutes.'];
const TRIGGER_TEXTS = ['Hi there! Need any help?', 'Looking for something? Ask us!', 'Questions about pricing? We are here.'];
const RATING_TEXTS = ['Very helpful', 'Quick and friendly', 'Took too long', 'Solved my problem', 'Not what I needed'];
const DOMAINS = ['shop.example.com', 'www.example.com', 'help.example.com'];
const PAGES: [path: string, title: string][] = [
  ['/', 'Home'],
  ['/pricing', 'Pricing'],
  ['/checkout', 'Checkout'],
  ['/account', 'My account'],
  ['/products/42', 'Product 42'],
  ['/faq', 'FAQ'],
];
const PLANS = ['free', 'pro', 'enterprise'];

/**
 * What happens in one conversation whose contact first writes at `start`:
 * contact and agent turns alternate until it ends, then an agent may close it
 * (otherwise the inactivity timeout will) and the contact may rate it.
 */
export function planConversation(random: Random, world: DemoWorld, calendar: LocalCalendar, start: number): PlannedConversation {
  const groupId = random.chance(0.85) ? itemAt(world.groupIds, random.weightedIndex(world.groupWeights)) : null;
  const agents = world.agentsByGroup.get(groupId ?? '')!;
  const officeHours = isOfficeHours(calendar, start);
  const offline = !random.chance(officeHours ? 0.96 : 0.45);
  const actions: Action[] = [];
  let t = start;
  let agentId = random.pick(agents);
  let agentTurns = 0;
  let noteDue = false;

  const contactTurn = (messagesOffline: boolean, opening: boolean) => {
    if (noteDue) {
      t += delay(random, 20, 0.8, 2, 300);
      actions.push({ kind: 'note', at: t, text: random.pick(AGENT_NOTES), agentId });
      noteDue = false;
    }
    if (!opening) t += delay(random, 45, 1.0, 3, 40 * 60);
    actions.push({ kind: 'contact', at: t, text: random.pick(opening ? CONTACT_OPENERS : CONTACT_FOLLOW_UPS), offline: messagesOffline });
    if (opening && random.chance(0.08)) {
      t += delay(random, 2, 0.5, 1, 5);
      actions.push({ kind: 'bot', at: t, text: random.pick(BOT_TEXTS) });
    }
    if (random.chance(0.35)) {
      t += delay(random, 15, 0.8, 2, 300);
      actions.push({ kind: 'contact', at: t, text: random.pick(CONTACT_FOLLOW_UPS), offline: messagesOffline });
    }
  };
  const agentTurn = (wait: number, mayAssign: boolean) => {
    if (agentTurns === 2 && agents.length > 1 && random.chance(0.05)) agentId = random.pick(agents.filter((id) => id !== agentId));
    if (mayAssign && agentTurns === 0 && random.chance(0.55)) {
      actions.push({ kind: 'assign', at: t + Math.max(SECOND, Math.floor(wait / 3)), agentId });
    }
    t += wait;
    actions.push({ kind: 'agent', at: t, text: random.pick(AGENT_REPLIES), agentId });
    if (random.chance(0.3)) {
      t += delay(random, 12, 0.7, 2, 120);
      actions.push({ kind: 'agent', at: t, text: random.pick(AGENT_REPLIES), agentId });
    }
    noteDue = random.chance(0.03);
    agentTurns++;
  };

  if (random.chance(0.12)) {
    actions.push({
      kind: 'trigger',
      at: t - delay(random, 30, 0.8, 3, 600),
      text: random.pick(TRIGGER_TEXTS),
      triggerId: random.pick(world.botIds),
    });
  }
  contactTurn(offline, true);

  let exchanges = random.int(0, 6);
  if (offline) {
    // Nobody was available: some never get an answer, the others one in the
    // next office hours (long after the inactivity close), and now and then
    // the contact comes back to it.
    if (random.chance(0.25)) return finish();
    const answerAt = officeHours
      ? t + delay(random, 30 * 60, 0.8, 5 * 60, 3 * 3600)
      : nextOfficeStart(calendar, t) + delay(random, 25 * 60, 0.9, 60, 4 * 3600);
    agentTurn(answerAt - t, false);
    if (!random.chance(0.35)) return finish();
    t += delay(random, 3 * 3600, 1.2, 600, 2 * 86_400);
    contactTurn(false, false);
    exchanges = Math.min(exchanges, 2);
  } else if (random.chance(0.04)) {
    return finish(); // missed: nobody answered
  }
  agentTurn(delay(random, 35, 1.0, 3, 20 * 60), true);
  for (let i = 0; i < exchanges; i++) {
    contactTurn(false, false);
    agentTurn(delay(random, 25, 0.9, 2, 15 * 60), true);
  }
  if (random.chance(0.45)) contactTurn(false, false);
  return finish();

  function finish(): PlannedConversation {
    const last = t;
    const endedByAgent = actions.at(-1)?.kind === 'agent';
    if (endedByAgent && random.chance(0.65)) actions.push({ kind: 'close', at: last + delay(random, 60, 1.0, 5, 25 * 60) });
    if (agentTurns > 0 && random.chance(0.2)) {
      const value = itemAt([1, 3, 5] as const, random.weightedIndex([0.1, 0.2, 0.7]));
      actions.push({
        kind: 'rate',
        at: last + delay(random, 30, 1.0, 5, 20 * 60),
        value,
        text: random.chance(0.4) ? random.pick(RATING_TEXTS) : null,
      });
    }
    actions.sort((a, b) => a.at - b.at);
    const domain = random.pick(DOMAINS);
    // The pages visited before writing, the latest a few seconds before the first message.
    const paths: PlannedPath[] = [];
    let visitedAt = itemAt(actions, 0).at;
    for (let i = random.chance(0.75) ? random.int(1, 3) : 0; i > 0; i--) {
      visitedAt -= delay(random, 40, 0.8, 2, 600);
      const [page, title] = random.pick(PAGES);
      paths.unshift({ url: `https://${domain}${page}`, title, at: visitedAt });
    }
    const tags = random.chance(0.3) ? [...new Set([random.pick(world.tagIds), random.pick(world.tagIds)])].slice(0, random.int(1, 2)) : [];
    const variables: PlannedConversation['variables'] = random.chance(0.4)
      ? { plan: random.pick(PLANS), returning: random.chance(0.5) }
      : {};
    return { groupId, tags, variables, paths, actions };
  }
}

/**
 * A plain reference of the legacy export (docs/behaviour.md §7), computed from the
 * same chat specs the tests build through the API (src/test/chats.ts), to check
 * the export's SQL against.
 */
import type { ChatSpec, Said } from './chats.ts';

/** The tests' INACTIVITY_TIMEOUT_SECONDS. */
export const INACTIVITY_SECONDS = 1800;

const ms = (iso: string) => new Date(iso).getTime();

interface Classified {
  localDay: string;
  contact: number;
  group?: string;
  hasContact: boolean;
  isChat: boolean;
  offline: boolean;
  triggered: boolean;
  outcome: 'completed' | 'dropped' | null;
  lastSender: 'contact' | 'agent' | undefined;
  duration: number;
  writers: Set<number>;
  replies: { agent: number; seconds: number; first: boolean }[];
}

/** The date of `iso` in `timezone`, YYYY-MM-DD. */
export function localDay(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** docs/behaviour.md §5 reply flags: a reply answers every unanswered contact message, timed from the earliest. */
function replies(said: Said[]): Classified['replies'] {
  const out: Classified['replies'] = [];
  let unansweredSince: number | null = null;
  for (const m of said) {
    if (m.from === 'contact') unansweredSince ??= ms(m.at);
    else if (m.from === 'agent' && unansweredSince !== null) {
      out.push({ agent: m.agent ?? 0, seconds: (ms(m.at) - unansweredSince) / 1000, first: out.length === 0 });
      unansweredSince = null;
    }
  }
  return out;
}

export function classify(spec: ChatSpec, timezone: string): Classified {
  if (spec.contact === undefined) throw new Error('the legacy reference counts visitors: give every spec a contact');
  const createdAt = spec.said[0]?.at ?? (spec.at as string);
  const spoken = spec.said.filter((m) => m.from !== 'bot');
  const hasContact = spoken.some((m) => m.from === 'contact');
  const isChat = hasContact && spoken.some((m) => m.from === 'agent');
  const lastSender = spoken.at(-1)?.from as Classified['lastSender'];
  const finishedAt =
    spec.close?.by === 'agent'
      ? ms(spec.close.at)
      : spec.close?.by === 'inactivity'
        ? ms(spec.said.at(-1)!.at) + INACTIVITY_SECONDS * 1000
        : null;
  let outcome: Classified['outcome'] = null;
  if (isChat && spec.close?.by === 'agent' && lastSender === 'agent') outcome = 'completed';
  if (isChat && spec.close?.by === 'inactivity') outcome = 'dropped';
  return {
    localDay: localDay(createdAt, timezone),
    contact: spec.contact,
    group: spec.group ?? undefined,
    hasContact,
    isChat,
    offline: spec.said.find((m) => m.from === 'contact')?.live === true,
    triggered: spec.said.some((m) => m.from === 'bot'),
    outcome,
    lastSender,
    duration: finishedAt === null ? 0 : Math.max(0, Math.floor((finishedAt - ms(createdAt)) / 1000)),
    writers: new Set(spec.said.filter((m) => m.from === 'agent').map((m) => m.agent ?? 0)),
    replies: replies(spec.said),
  };
}

const mean = (values: number[]) => (values.length === 0 ? 0 : Math.round(values.reduce((a, b) => a + b, 0) / values.length));

/** The per-agent fields (docs/behaviour.md §7) over `chats`; response times over replies by `agent`, or everyone's. */
function chatCounters(chats: Classified[], agent?: number) {
  const completed = chats.filter((c) => c.outcome === 'completed');
  const dropped = chats.filter((c) => c.outcome === 'dropped');
  const timed = [...completed, ...dropped];
  const timedReplies = timed.flatMap((c) => c.replies).filter((r) => agent === undefined || r.agent === agent);
  return {
    completed: completed.length,
    completed1to3: completed.filter((c) => c.duration < 180).length,
    completed3to5: completed.filter((c) => c.duration >= 180 && c.duration < 300).length,
    completed5to10: completed.filter((c) => c.duration >= 300 && c.duration < 600).length,
    completed10toInf: completed.filter((c) => c.duration >= 600).length,
    dropped: dropped.length,
    droppedByVisitorInactivity: dropped.filter((c) => c.lastSender === 'agent').length,
    droppedByAgentInactivity: dropped.filter((c) => c.lastSender === 'contact').length,
    triggered: chats.filter((c) => c.triggered).length,
    avgDuration: mean(timed.map((c) => c.duration)),
    avgFirstResponse: mean(timedReplies.filter((r) => r.first).map((r) => r.seconds)),
    avgResponse: mean(timedReplies.map((r) => r.seconds)),
    totalDuration: timed.reduce((sum, c) => sum + c.duration, 0),
  };
}

export function referenceOverview(chats: Classified[]) {
  return {
    visitors: new Set(chats.map((c) => c.contact)).size,
    channels: chats.length,
    chats: chats.filter((c) => c.isChat).length,
    ...chatCounters(chats),
    missed: chats.filter((c) => c.hasContact && !c.isChat && !c.offline).length,
    offline: chats.filter((c) => c.offline).length,
  };
}

export function referenceAgent(chats: Classified[], agent: number) {
  return chatCounters(
    chats.filter((c) => c.isChat && c.writers.has(agent)),
    agent,
  );
}

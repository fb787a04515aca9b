import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';
import { buildChats, type ChatSpec, type Said, type World } from '../test/chats.ts';
import { INACTIVITY_SECONDS, classify, referenceAgent, referenceOverview } from '../test/legacy-reference.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ inactivityTimeoutSeconds: INACTIVITY_SECONDS });
});
after(() => t.close());

const TIMEZONE = 'Europe/Prague';
const NOW = '2024-06-01T12:00:00.000Z';
/** Conversations start on one of the 14 days from here: a DST change, a month end and two week ends. */
const FIRST_DAY = Date.parse('2024-03-25T00:00:00Z');
const DAY_MS = 86_400_000;
const AGENTS = 3;
const CONTACTS = 4;

const step = fc.record({
  from: fc.constantFrom<Said['from']>('contact', 'agent', 'agent', 'bot'),
  agent: fc.integer({ min: 0, max: AGENTS - 1 }),
  gap: fc.integer({ min: 1, max: 900 }),
});

/** A conversation: optionally a bot greeting, the contact's first message, then anything; some way of ending. */
const chatSpec = fc
  .record({
    startsAt: fc.integer({ min: 0, max: 14 * 86_400 - 1 }),
    contact: fc.integer({ min: 0, max: CONTACTS - 1 }),
    greeting: fc.boolean(),
    steps: fc.array(step, { maxLength: 6 }),
    close: fc.constantFrom('agent', 'inactivity', 'open'),
    closeGap: fc.integer({ min: 0, max: 1500 }),
  })
  .map(({ startsAt, contact, greeting, steps, close, closeGap }): ChatSpec => {
    let time = FIRST_DAY + startsAt * 1000;
    const said: Said[] = [];
    const say = (from: Said['from'], agent?: number) =>
      said.push({ from, ...(from === 'agent' ? { agent } : {}), at: new Date(time).toISOString() });
    if (greeting) {
      say('bot');
      time += 5000;
    }
    say('contact');
    for (const s of steps) {
      time += s.gap * 1000;
      say(s.from, s.agent);
    }
    const end: ChatSpec['close'] =
      close === 'agent'
        ? { by: 'agent', at: new Date(time + closeGap * 1000).toISOString() }
        : close === 'inactivity'
          ? { by: 'inactivity' }
          : undefined;
    return { contact, said, ...(end ? { close: end } : {}) };
  });

const dayRange = fc.record({ start: fc.integer({ min: -2, max: 12 }), days: fc.integer({ min: 1, max: 24 }) }).map(({ start, days }) => ({
  from: new Date(FIRST_DAY + start * DAY_MS).toISOString().slice(0, 10),
  to: new Date(FIRST_DAY + (start + days - 1) * DAY_MS).toISOString().slice(0, 10),
}));

const SUMMED_AGENT_FIELDS = [
  'completed',
  'completed1to3',
  'completed3to5',
  'completed5to10',
  'completed10toInf',
  'dropped',
  'droppedByVisitorInactivity',
  'droppedByAgentInactivity',
  'triggered',
  'totalDuration',
];
/** Every counter but visitors (distinct) and the averages adds up over units (docs/behaviour.md §7). */
const SUMMED_OVERVIEW_FIELDS = ['channels', 'chats', 'missed', 'offline', ...SUMMED_AGENT_FIELDS];

type Counters = Record<string, number>;
const pick = (record: Counters, fields: string[]) => Object.fromEntries(fields.map((f) => [f, record[f]]));
function sum(records: Counters[], fields: string[]): Counters {
  return Object.fromEntries(fields.map((f) => [f, records.reduce((total, r) => total + r[f]!, 0)]));
}
const unitFree = ({
  unitId: _id,
  unitName: _name,
  unitLongName: _long,
  ...rest
}: Counters & { unitId?: unknown; unitName?: unknown; unitLongName?: unknown }) => rest;

async function world(): Promise<World & { apiKey: string }> {
  const account = await t.account();
  assert.equal((await t.client(account.token).patch('/v2/account', { timezone: TIMEZONE })).status, 200);
  const factory = conversationFactory(t, account);
  const agentIds: string[] = [];
  for (let i = 0; i < AGENTS; i++) agentIds.push((await factory.agent({ nickname: `Agent ${i}` })).id);
  const contactIds: string[] = [];
  for (let i = 0; i < CONTACTS; i++) contactIds.push((await factory.contact()).id);
  return { factory, agentIds, contactIds, apiKey: account.apiKey };
}

async function stats(path: string, parameters: Record<string, string>) {
  const res = await t.client().get(`/stats/${path}?${new URLSearchParams(parameters)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

it('agrees with the reference and adds up across units and agents, on random conversations', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(chatSpec, { minLength: 1, maxLength: 7 }), dayRange, async (specs, range) => {
      const w = await world();
      await buildChats(t, w, specs, NOW);
      const inRange = specs.map((s) => classify(s, TIMEZONE)).filter((c) => c.localDay >= range.from && c.localDay <= range.to);
      const parameters = { apiKey: w.apiKey, ...range };

      const totals = await stats('totals', parameters);
      assert.deepEqual(totals.overview, referenceOverview(inRange));
      assert.deepEqual(
        totals.agents.map((a: Counters) => ({ ...a, userId: w.agentIds.indexOf(String(a.userId)) })),
        w.agentIds.map((_id, agent) => ({ userId: agent, nickname: `Agent ${agent}`, ...referenceAgent(inRange, agent) })),
      );

      for (const interval of ['day', 'week', 'month']) {
        const overview = await stats('overview', { ...parameters, interval });
        const records: Counters[] = Object.values(overview.records);
        assert.deepEqual(sum(records, SUMMED_OVERVIEW_FIELDS), pick(totals.overview, SUMMED_OVERVIEW_FIELDS), interval);
        if (interval === 'day') {
          for (const [day, record] of Object.entries(overview.records)) {
            assert.deepEqual(unitFree(record as Counters), referenceOverview(inRange.filter((c) => c.localDay === day)), day);
          }
        }

        const agents = await stats('agents', { ...parameters, interval });
        assert.equal(agents.records.length, records.length * AGENTS, `${interval}: every agent in every unit`);
        for (const total of totals.agents) {
          const own = agents.records.filter((r: Counters) => r.userId === total.userId);
          assert.deepEqual(sum(own, SUMMED_AGENT_FIELDS), pick(total, SUMMED_AGENT_FIELDS), `${interval} agent ${total.userId}`);
        }
      }
    }),
    { numRuns: 12 },
  );
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory, type Json } from '../test/conversations.ts';
import {
  applyMessage,
  conversationAfterAssign,
  conversationAfterUnassign,
  EMPTY_REPLY_STATE,
  newConversationState,
  type FlaggedMessage,
  type MessageFlags,
} from './flags.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ presenceTtlSeconds: 120 });
});
after(() => t.close());

/**
 * The flag rules of docs/behaviour.md §5 read literally over a whole history, as a
 * reference for the incremental computation: for each agent message, the
 * contact messages since the previous agent message are the unanswered ones.
 */
function referenceFlags(history: FlaggedMessage[]): MessageFlags[] {
  const isContact = (m: FlaggedMessage) => m.type === 'message' && m.sub_type === 'contact';
  const isAgent = (m: FlaggedMessage) => m.type === 'message' && m.sub_type === 'agent';
  const result: MessageFlags[] = [];
  history.forEach((message, i) => {
    const none = {
      is_reply: false,
      is_first_reply: false,
      is_offline: isContact(message) && message.offline,
      is_offline_reply: false,
      response_time: null,
    };
    if (!isAgent(message)) return result.push(none);
    let previousAgent = -1;
    for (let j = 0; j < i; j++) if (isAgent(history[j]!)) previousAgent = j;
    const unanswered = history.slice(previousAgent + 1, i).filter(isContact);
    if (unanswered.length === 0) return result.push(none);
    result.push({
      is_reply: true,
      is_first_reply: !result.some((flags) => flags.is_reply),
      is_offline: false,
      is_offline_reply: unanswered.some((m) => m.offline),
      response_time: (message.created_at.getTime() - Math.min(...unanswered.map((m) => m.created_at.getTime()))) / 1000,
    });
  });
  return result;
}

const arbitraryStep = fc.record({
  kind: fc.constantFrom('contact', 'agent', 'bot', 'note', 'contact', 'agent'),
  /** Milliseconds since the previous message. */
  gap: fc.integer({ min: 0, max: 300_000 }),
  /** For contact messages: whether an agent is available when it arrives. */
  available: fc.boolean(),
});
type Step = { kind: string; gap: number; available: boolean };

function toHistory(steps: Step[], start: number): FlaggedMessage[] {
  let at = start;
  return steps.map((step) => {
    at += step.gap;
    return {
      type: step.kind === 'note' ? 'note' : 'message',
      sub_type: step.kind === 'note' ? 'agent' : (step.kind as FlaggedMessage['sub_type']),
      created_at: new Date(at),
      offline: step.kind === 'contact' && !step.available,
    };
  });
}

const flagsOf = (m: Json): MessageFlags => ({
  is_reply: m.is_reply,
  is_first_reply: m.is_first_reply,
  is_offline: m.is_offline,
  is_offline_reply: m.is_offline_reply,
  response_time: m.response_time,
});

describe('message flags', () => {
  it('applyMessage folded over any history equals the reference', () => {
    fc.assert(
      fc.property(fc.array(arbitraryStep, { maxLength: 30 }), (steps) => {
        const history = toHistory(steps, Date.UTC(2026, 0, 1));
        let state = EMPTY_REPLY_STATE;
        const flags = history.map((message) => {
          const next = applyMessage(state, message);
          state = next.state;
          return next.flags;
        });
        assert.deepEqual(flags, referenceFlags(history));
        let lastAgent = -1;
        history.forEach((m, i) => {
          if (m.type === 'message' && m.sub_type === 'agent') lastAgent = i;
        });
        assert.equal(state.unanswered, history.slice(lastAgent + 1).filter((m) => m.type === 'message' && m.sub_type === 'contact').length);
      }),
      { numRuns: 500 },
    );
  });

  it('stored through HTTP, with live availability, they equal the reference', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const writer = await f.agent();
    const watcher = await f.agent();
    const start = Date.UTC(2026, 1, 1, 9);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(arbitraryStep, { minLength: 1, maxLength: 8 }), async (steps) => {
          t.clock.set(new Date(start));
          const conv = await f.conversation();
          const history = toHistory(steps, start);
          for (const [i, step] of steps.entries()) {
            t.clock.set(history[i]!.created_at);
            if (step.kind === 'contact') {
              if (step.available) await f.makeAvailable(watcher.id);
              else await f.makeUnavailable(watcher.id);
              await f.contactSays(conv.id, `c${i}`);
            } else if (step.kind === 'agent') await f.agentSays(conv.id, writer.id, `a${i}`);
            else if (step.kind === 'note')
              await f.message(conv.id, { sub_type: 'agent', agent_id: writer.id, type: 'note', text: `n${i}` });
            else await f.botSays(conv.id, `b${i}`);
          }
          const stored = await f.get(conv.id);
          assert.deepEqual(stored.messages.map(flagsOf), referenceFlags(history));
          const contacts = history.filter((m) => m.type === 'message' && m.sub_type === 'contact');
          assert.equal(stored.is_offline, contacts.length > 0 && contacts[0]!.offline);
          const lastAgent = history.map((m) => m.type === 'message' && m.sub_type === 'agent').lastIndexOf(true);
          assert.equal(stored.unread, history.slice(lastAgent + 1).filter((m) => m.type === 'message' && m.sub_type === 'contact').length);
        }),
        { numRuns: 15 },
      );
    } finally {
      t.clock.reset();
    }
  });

  it('imported history gets the same reply flags and is never offline', async () => {
    const f = conversationFactory(t, await t.account());
    const writer = await f.agent();
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryStep, { minLength: 1, maxLength: 8 }), async (steps) => {
        const history = toHistory([{ kind: 'contact', gap: 0, available: true }, ...steps], Date.UTC(2025, 5, 1));
        const conv = await f.conversation({
          messages: [{ sub_type: 'contact', content: { type: 'text', text: 'first' }, created_at: history[0]!.created_at.toISOString() }],
        });
        for (const [i, step] of steps.entries()) {
          const created_at = history[i + 1]!.created_at.toISOString();
          if (step.kind === 'agent' || step.kind === 'note') {
            await f.message(conv.id, {
              sub_type: 'agent',
              agent_id: writer.id,
              type: step.kind === 'note' ? 'note' : 'message',
              text: 'x',
              created_at,
            });
          } else {
            await f.message(conv.id, { sub_type: step.kind, text: 'x', created_at });
          }
        }
        const imported = history.map((m) => ({ ...m, offline: false }));
        assert.deepEqual((await f.get(conv.id)).messages.map(flagsOf), referenceFlags(imported));
      }),
      { numRuns: 10 },
    );
  });

  it('counts only agents of the conversation group, pinged within the TTL', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const [sales, support] = [await f.group(), await f.group()];
    const salesAgent = await f.agent({ group_ids: [sales.id] });
    t.clock.set('2026-02-10T10:00:00.000Z');
    try {
      await f.makeAvailable(salesAgent.id);
      const inSupport = await f.conversation({ group_id: support.id, text: 'support?' });
      const inSales = await f.conversation({ group_id: sales.id, text: 'sales?' });
      const noGroup = await f.conversation({ text: 'anyone?' });
      assert.deepEqual([inSupport.is_offline, inSales.is_offline, noGroup.is_offline], [true, false, false]);
      t.clock.advance(119.999);
      assert.equal((await f.contactSays(inSales.id, 'still there?')).is_offline, false);
      t.clock.advance(0.001);
      assert.equal((await f.contactSays(inSales.id, 'hello?')).is_offline, true);
      // The conversation's is_offline is its first contact message's.
      assert.equal((await f.get(inSales.id)).is_offline, false);
      const { rows } = await t.db.query<{ group_id: string }>('select distinct group_id from messages where conversation_id = $1', [
        inSales.id,
      ]);
      assert.deepEqual(rows, [{ group_id: sales.id }]);
    } finally {
      t.clock.reset();
    }
  });

  it('times replies from the earliest unanswered contact message, with full precision', async () => {
    const f = conversationFactory(t, await t.account());
    const agent = await f.agent();
    t.clock.set('2026-02-11T10:00:00.000Z');
    try {
      const conv = await f.conversation({ text: 'one' });
      t.clock.advance(5.5);
      await f.contactSays(conv.id, 'two');
      t.clock.advance(7.123);
      const first = await f.agentSays(conv.id, agent.id, 'answer');
      assert.deepEqual(flagsOf(first), {
        is_reply: true,
        is_first_reply: true,
        is_offline: false,
        is_offline_reply: true,
        response_time: 12.623,
      });
      t.clock.advance(1);
      const followUp = await f.agentSays(conv.id, agent.id, 'more');
      assert.equal(followUp.is_reply, false);
      assert.equal(followUp.response_time, null);
      await f.makeAvailable(agent.id);
      t.clock.advance(0.001);
      await f.contactSays(conv.id, 'three');
      t.clock.advance(30);
      const second = await f.agentSays(conv.id, agent.id, 'again');
      assert.deepEqual(flagsOf(second), {
        is_reply: true,
        is_first_reply: false,
        is_offline: false,
        is_offline_reply: false,
        response_time: 30,
      });
    } finally {
      t.clock.reset();
    }
  });

  it('never stores a live message before the latest one when clocks step back (another instance, NTP)', async () => {
    const f = conversationFactory(t, await t.account());
    const agent = await f.agent();
    t.clock.set('2026-02-12T10:00:02.000Z');
    try {
      const conv = await f.conversation({ text: 'hello' });
      t.clock.set('2026-02-12T10:00:01.000Z');
      const reply = await f.agentSays(conv.id, agent.id, 'hi');
      assert.equal(reply.created_at, '2026-02-12T10:00:02.000Z');
      assert.deepEqual(flagsOf(reply), {
        is_reply: true,
        is_first_reply: true,
        is_offline: false,
        is_offline_reply: true,
        response_time: 0,
      });
      const full = await f.get(conv.id);
      assert.deepEqual(
        full.messages.map((m: Json) => m.content.text),
        ['hello', 'hi'],
      );
      assert.equal(full.unread, 0);
    } finally {
      t.clock.reset();
    }
  });
});

describe('conversation state steps', () => {
  const served = {
    ...newConversationState(new Date('2026-01-01T00:00:00Z')),
    status: 'served' as const,
    assigned_ids: ['agA', 'agB'],
    is_served: true,
  };

  it('keeps a conversation served while someone is assigned or an agent has replied, and never changes its input', () => {
    const before = structuredClone(served);
    const one = conversationAfterUnassign(served, 'agA');
    assert.deepEqual(one.assigned_ids, ['agB']);
    assert.equal(one.status, 'served');
    assert.deepEqual(served, before);
    assert.equal(conversationAfterUnassign({ ...served, assigned_ids: ['agA'], agent_ids: ['agC'] }, 'agA').status, 'served');
  });

  it('takes the last assignee away to open, or to pending before the contact wrote', () => {
    assert.equal(conversationAfterUnassign({ ...served, assigned_ids: ['agA'], has_contact_message: true }, 'agA').status, 'open');
    assert.equal(conversationAfterUnassign({ ...served, assigned_ids: ['agA'] }, 'agA').status, 'pending');
    assert.equal(conversationAfterUnassign({ ...served, status: 'closed', assigned_ids: ['agA'] }, 'agA').status, 'closed');
  });

  it('assigns without changing its input', () => {
    const pending = { ...served, status: 'pending' as const, assigned_ids: [], is_served: false };
    const assigned = conversationAfterAssign(pending, 'agA');
    assert.deepEqual([assigned.status, assigned.assigned_ids, assigned.is_served], ['served', ['agA'], true]);
    assert.deepEqual(pending.assigned_ids, []);
  });
});

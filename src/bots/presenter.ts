import type { BotRow, TriggerRow } from './repository.ts';
import type { Bot, BotTrigger } from './schema.ts';

export function toBot(row: BotRow): Bot {
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
}

export function toBotTrigger(row: TriggerRow): BotTrigger {
  return {
    bot_id: row.id,
    name: row.name,
    active: row.trigger_active,
    event: row.trigger_event,
    conditions: row.trigger_conditions,
    content: { text: row.trigger_text, html: row.trigger_html },
    updated_at: row.trigger_updated_at.toISOString(),
  };
}

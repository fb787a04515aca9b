import type { Queryable } from '../db/db.ts';
import { newId } from '../ids.ts';
import type { Bot, BotTrigger } from './schema.ts';

export interface NewBotRow {
  name: string;
  active: boolean;
  event: BotTrigger['event'];
  conditions: Record<string, unknown>;
  text: string | null;
  html: string | null;
  createdAt: Date;
}

const toBot = (row: { id: string; name: string; created_at: Date }): Bot => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
});

export async function insertBot(db: Queryable, accountId: string, bot: NewBotRow): Promise<Bot> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
    `insert into bots (account_id, id, name, trigger_active, trigger_event, trigger_conditions, trigger_text, trigger_html, trigger_updated_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     returning id, name, created_at`,
    [accountId, newId('bo'), bot.name, bot.active, bot.event, JSON.stringify(bot.conditions), bot.text, bot.html, bot.createdAt],
  );
  return toBot(rows[0]);
}

export async function listBots(db: Queryable, accountId: string): Promise<Bot[]> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
    'select id, name, created_at from bots where account_id = $1 order by created_at, id',
    [accountId],
  );
  return rows.map(toBot);
}

/** Returns whether the bot existed. Messages it sent keep its id as their trigger_id. */
export async function deleteBot(db: Queryable, accountId: string, botId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from bots where account_id = $1 and id = $2', [accountId, botId]);
  return rowCount === 1;
}

export async function findTrigger(db: Queryable, accountId: string, botId: string): Promise<BotTrigger | null> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    trigger_active: boolean;
    trigger_event: BotTrigger['event'];
    trigger_conditions: Record<string, unknown>;
    trigger_text: string | null;
    trigger_html: string | null;
    trigger_updated_at: Date;
  }>(
    `select id, name, trigger_active, trigger_event, trigger_conditions, trigger_text, trigger_html, trigger_updated_at
     from bots where account_id = $1 and id = $2`,
    [accountId, botId],
  );
  const row = rows[0];
  if (!row) return null;
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

/** Ids of the bots with these names, creating the missing ones with an empty trigger (`chat-service demo-data`). */
export async function ensureBots(
  db: Queryable,
  accountId: string,
  names: readonly string[],
  createdAt: Date,
): Promise<Map<string, string>> {
  const { rows: existing } = await db.query<{ id: string; name: string }>(
    'select min(id) as id, name from bots where account_id = $1 and name = any($2::text[]) group by name',
    [accountId, names],
  );
  const ids = new Map(existing.map((row) => [row.name, row.id]));
  const missing = names.filter((name) => !ids.has(name));
  for (const name of missing) ids.set(name, newId('bo'));
  if (missing.length > 0) {
    // A bot's trigger starts with the bot: both times are the set-up time.
    await db.query(
      `insert into bots (account_id, id, name, created_at, trigger_updated_at)
       select $1, n.id, n.name, $4, $4 from unnest($2::text[], $3::text[]) as n (id, name)`,
      [accountId, missing.map((name) => ids.get(name)), missing, createdAt],
    );
  }
  return ids;
}

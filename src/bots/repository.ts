import type { Queryable } from '../db/db.ts';
import { firstRow, type Row } from '../db/rows.ts';
import { newId } from '../ids.ts';

export interface NewBotRow {
  name: string;
  active: boolean;
  event: Row<'bots'>['trigger_event'];
  conditions: Record<string, unknown>;
  text: string | null;
  html: string | null;
  createdAt: Date;
}

export type BotRow = Pick<Row<'bots'>, 'id' | 'name' | 'created_at'>;

/** A bot's trigger: the columns of the bot named `trigger_*`, with the bot's id and name. */
export type TriggerRow = Pick<
  Row<'bots'>,
  'id' | 'name' | 'trigger_active' | 'trigger_event' | 'trigger_text' | 'trigger_html' | 'trigger_updated_at'
> & { trigger_conditions: Record<string, unknown> };

export async function insertBot(db: Queryable, accountId: string, bot: NewBotRow): Promise<BotRow> {
  const { rows } = await db.query<BotRow>(
    `insert into bots (account_id, id, name, trigger_active, trigger_event, trigger_conditions, trigger_text, trigger_html, trigger_updated_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     returning id, name, created_at`,
    [accountId, newId('bo'), bot.name, bot.active, bot.event, JSON.stringify(bot.conditions), bot.text, bot.html, bot.createdAt],
  );
  return firstRow(rows);
}

export async function listBots(db: Queryable, accountId: string): Promise<BotRow[]> {
  const { rows } = await db.query<BotRow>('select id, name, created_at from bots where account_id = $1 order by created_at, id', [
    accountId,
  ]);
  return rows;
}

/** Returns whether the bot existed. Messages it sent keep its id as their trigger_id. */
export async function deleteBot(db: Queryable, accountId: string, botId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from bots where account_id = $1 and id = $2', [accountId, botId]);
  return rowCount === 1;
}

export async function findTrigger(db: Queryable, accountId: string, botId: string): Promise<TriggerRow | null> {
  const { rows } = await db.query<TriggerRow>(
    `select id, name, trigger_active, trigger_event, trigger_conditions, trigger_text, trigger_html, trigger_updated_at
     from bots where account_id = $1 and id = $2`,
    [accountId, botId],
  );
  return rows[0] ?? null;
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

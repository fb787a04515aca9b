import type { Deps } from '../deps.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import { sanitizeHtml } from '../content/html.ts';
import type { Bot, BotTrigger, CreateBotBody } from './schema.ts';
import * as repo from './repository.ts';
import { toBot, toBotTrigger } from './presenter.ts';

type BotDeps = Pick<Deps, 'db' | 'now'>;

/**
 * Management: a bot with its one trigger. Trigger HTML is sanitised like message
 * HTML, since widgets render it; without `text`, its plain text stands in.
 */
export async function createBot(deps: BotDeps, accountId: string, input: CreateBotBody): Promise<Bot> {
  const trigger = input.trigger ?? {};
  if (trigger.content !== undefined && (trigger.text !== undefined || trigger.html !== undefined)) {
    throw invalidArgument('trigger.content', 'oneOf', 'cannot be combined with trigger.text or trigger.html');
  }
  const message = trigger.content ?? trigger;
  const clean = message.html == null ? null : sanitizeHtml(message.html);
  const row = await repo.insertBot(deps.db, accountId, {
    name: input.name,
    active: trigger.active ?? true,
    event: trigger.event ?? 'conversation_opened',
    conditions: trigger.conditions ?? {},
    text: message.text ?? clean?.text ?? null,
    html: clean?.html ?? null,
    createdAt: deps.now(),
  });
  return toBot(row);
}

export async function listBots(deps: BotDeps, accountId: string): Promise<Bot[]> {
  return (await repo.listBots(deps.db, accountId)).map(toBot);
}

export async function getTrigger(deps: BotDeps, accountId: string, botId: string): Promise<BotTrigger> {
  const row = await repo.findTrigger(deps.db, accountId, botId);
  if (!row) throw notFound(`Bot ${botId}`);
  return toBotTrigger(row);
}

/** Management: the bot and its trigger go; messages it sent keep naming it. */
export async function deleteBot(deps: BotDeps, accountId: string, botId: string): Promise<void> {
  if (!(await repo.deleteBot(deps.db, accountId, botId))) throw notFound(`Bot ${botId}`);
}

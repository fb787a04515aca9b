import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { TRIGGER_EVENTS } from './schema.ts';
import { given, parseJsonObject, print, withAccount } from '../cli/helpers.ts';

/** `chat-service bot ...`. */
export function registerBotCommands(program: Command, config: () => Config): void {
  program
    .command('bot')
    .description('manage bots')
    .command('add')
    .description('create a bot with its trigger (like POST /v2/bots)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'bot name')
    .option('--event <event>', `trigger event: ${TRIGGER_EVENTS.join(', ')} (default conversation_opened)`)
    .option('--text <text>', 'trigger message text')
    .option('--html <html>', 'trigger message HTML (only a and br kept)')
    .option('--conditions <json>', 'trigger conditions, a JSON object', parseJsonObject)
    .option('--inactive', 'create the trigger switched off')
    .option('--json', 'print the bot record as JSON')
    .action(
      async (options: {
        account: string;
        name: string;
        event?: string;
        text?: string;
        html?: string;
        conditions?: Record<string, unknown>;
        inactive?: boolean;
        json?: boolean;
      }) => {
        const trigger = given({
          active: options.inactive ? false : undefined,
          event: options.event,
          text: options.text,
          html: options.html,
          conditions: options.conditions,
        });
        const [{ validateBody }, { CreateBotBody }, { createBot }] = await Promise.all([
          import('../http/validation.ts'),
          import('./schema.ts'),
          import('./service.ts'),
        ]);
        const body = validateBody(CreateBotBody, { name: options.name, trigger });
        const bot = await withAccount(config(), options.account, (deps) => createBot(deps, options.account, body));
        print(bot, Boolean(options.json), `bot ${bot.id} ${bot.name}`);
      },
    );
}

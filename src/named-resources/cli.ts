import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { GROUPS, TAGS } from './kinds.ts';
import { print, withAccount } from '../cli/helpers.ts';

/** `chat-service group ...` and `tag ...`. */
export function registerNamedResourceCommands(program: Command, config: () => Config): void {
  for (const kind of [GROUPS, TAGS]) {
    program
      .command(kind.singular)
      .description(`manage ${kind.plural}`)
      .command('add')
      .description(`create a ${kind.singular} (like POST /v2/${kind.plural})`)
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--name <name>', `${kind.singular} name`)
      .option('--json', `print the ${kind.singular} record as JSON`)
      .action(async (options: { account: string; name: string; json?: boolean }) => {
        const [{ validateBody }, { CreateNamedResourceBody }, { createNamed }] = await Promise.all([
          import('../http/validation.ts'),
          import('./schema.ts'),
          import('./service.ts'),
        ]);
        const body = validateBody(CreateNamedResourceBody, { name: options.name });
        const created = await withAccount(config(), options.account, (deps) => createNamed(deps, kind, options.account, body));
        print(created, Boolean(options.json), `${kind.singular} ${created.id} ${created.name}`);
      });
  }
}

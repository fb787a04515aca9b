import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { print, withAccount, withDb } from '../cli/helpers.ts';

/** `chat-service account ...`: accounts (tenants). */
export function registerAccountCommands(program: Command, config: () => Config): void {
  const account = program.command('account').description('manage accounts (tenants)');
  account
    .command('create')
    .description('create an account with an owner token (every scope) and a legacy apiKey')
    .option('--name <name>', 'account name', 'My account')
    .option('--json', 'print {"account_id","token","api_key"} as JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const [{ validateBody }, { UpdateAccountBody }, { createAccount }] = await Promise.all([
        import('../http/validation.ts'),
        import('./schema.ts'),
        import('./service.ts'),
      ]);
      // The name rules of PATCH /v2/account, so the CLI cannot create an account the API would refuse to name.
      const { name } = validateBody(UpdateAccountBody, { name: options.name });
      const created = await withDb(config(), (db) => createAccount({ db, now: () => new Date() }, { name }));
      print(created, Boolean(options.json), `account ${created.account_id}\ntoken   ${created.token}\napiKey  ${created.api_key}`);
    });
  account
    .command('rotate-api-key')
    .description('replace the legacy apiKey of an account (like POST /v2/account/api-key/rotate); the old one stops working')
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print {"api_key"} as JSON')
    .action(async (options: { account: string; json?: boolean }) => {
      const { rotateApiKey } = await import('./service.ts');
      const rotated = await withAccount(config(), options.account, (deps) => rotateApiKey(deps, options.account));
      print(rotated, Boolean(options.json), rotated.api_key);
    });
}

import { InvalidArgumentError, type Command } from 'commander';
import type { Config } from '../config.ts';
import { isScope, SCOPES, type Scope } from '../auth/scopes.ts';
import { print, withAccount } from '../cli/helpers.ts';

function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none given)'}; scopes are: ${SCOPES.join(', ')}`);
  }
  return scopes as Scope[];
}

/** `chat-service token ...`: API tokens. */
export function registerTokenCommands(program: Command, config: () => Config): void {
  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('create a bearer token for an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--scopes <list>', `comma-separated scopes: ${SCOPES.join(',')}`, parseScopes)
    .option('--name <name>', 'token name', 'cli')
    .option('--json', 'print the token record as JSON')
    .action(async (options: { account: string; scopes: Scope[]; name: string; json?: boolean }) => {
      const { createToken } = await import('./service.ts');
      const created = await withAccount(config(), options.account, (deps) =>
        createToken(deps, options.account, { name: options.name, scopes: options.scopes }),
      );
      print(created, Boolean(options.json), created.token);
    });
}

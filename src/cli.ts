import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openDb, type Db } from './db/db.ts';
import { DirectoryLockedError } from './db/lock.ts';
import { migrate } from './db/migrate.ts';
import { startServer } from './server.ts';
import { createAccount, requireAccount } from './accounts/service.ts';
import { createToken } from './tokens/service.ts';
import { isScope, SCOPES, type Scope } from './auth/scopes.ts';
import { ApiError } from './http/errors.ts';
import { registerDemoCommands } from './demo/cli.ts';

/** Opens the configured database, migrated, runs fn, and closes it. */
async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

function print(value: unknown, json: boolean, text: string) {
  console.log(json ? JSON.stringify(value) : text);
}

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none given)'}; scopes are: ${SCOPES.join(', ')}`);
  }
  return scopes as Scope[];
}

export function buildCli(config: () => Config): Command {
  const program = new Command('chat-service').description('Self-hostable live-chat backend (Chat Service API v2.6.0)');
  program.showHelpAfterError();

  program
    .command('serve')
    .description('start the HTTP service (what `npm start` runs)')
    .action(async () => {
      const server = await startServer(config());
      server.app.log.info({ url: server.url }, 'chat-service listening');
      const shutdown = (signal: string) => {
        server.app.log.info({ signal }, 'shutting down');
        server
          .stop()
          .then(() => process.exit(0))
          .catch((error) => {
            console.error(error);
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const db = await openDb({ databaseUrl: config().databaseUrl, dataDir: config().dataDir });
      try {
        const applied = await migrate(db);
        console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Schema is up to date');
      } finally {
        await db.close();
      }
    });

  const account = program.command('account').description('manage accounts (tenants)');
  account
    .command('create')
    .description('create an account with an owner token (every scope) and a legacy apiKey')
    .option('--name <name>', 'account name', 'My account')
    .option('--json', 'print {"account_id","token","api_key"} as JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const created = await withDb(config(), (db) => createAccount(db, { name: options.name }));
      print(created, Boolean(options.json), `account ${created.account_id}\ntoken   ${created.token}\napiKey  ${created.api_key}`);
    });

  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('create a bearer token for an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--scopes <list>', `comma-separated scopes: ${SCOPES.join(',')}`, parseScopes)
    .option('--name <name>', 'token name', 'cli')
    .option('--json', 'print the token record as JSON')
    .action(async (options: { account: string; scopes: Scope[]; name: string; json?: boolean }) => {
      const created = await withDb(config(), async (db) => {
        await requireAccount(db, options.account);
        return createToken(db, options.account, { name: options.name, scopes: options.scopes });
      });
      print(created, Boolean(options.json), created.token);
    });

  registerDemoCommands(program, config);
  return program;
}

/** Entry point of bin/chat-service.js: clear messages and non-zero exits on failure. */
export async function main(argv: string[]): Promise<void> {
  const program = buildCli(() => loadConfig());
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const known = error as { code?: string; exitCode?: number };
    if (known.code?.startsWith('commander.')) process.exit(known.exitCode ?? 1);
    if (error instanceof DirectoryLockedError || error instanceof ConfigError) {
      console.error(`chat-service: ${error.message}`);
    } else if (error instanceof ApiError) {
      console.error(`chat-service: ${error.message}`);
    } else {
      console.error('chat-service:', error);
    }
    process.exit(1);
  }
}

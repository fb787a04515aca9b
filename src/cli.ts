import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { DatabaseUnavailableError, openDb, type Db } from './db/db.ts';
import { DirectoryLockedError } from './db/lock.ts';
import { migrate } from './db/migrate.ts';
import { startServer } from './server.ts';
import type { Deps } from './deps.ts';
import { createAccount, requireAccount } from './accounts/service.ts';
import { createToken } from './tokens/service.ts';
import { isScope, SCOPES, type Scope } from './auth/scopes.ts';
import { ApiError } from './http/errors.ts';
import { validateBody } from './http/validation.ts';
import { AGENT_ROLES, CreateAgentBody } from './agents/schema.ts';
import { createAgent } from './agents/service.ts';
import { CreateNamedResourceBody, GROUPS, TAGS } from './named-resources/schema.ts';
import { createNamed } from './named-resources/service.ts';
import { CreateBotBody, TRIGGER_EVENTS } from './bots/schema.ts';
import { createBot } from './bots/service.ts';
import { registerDemoCommands } from './demo/cli.ts';
import { API_VERSION } from './version.ts';

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

/** Like withDb, for a command acting on one existing account. */
function withAccount<T>(config: Config, accountId: string, fn: (deps: Deps) => Promise<T>): Promise<T> {
  return withDb(config, async (db) => {
    await requireAccount(db, accountId);
    return fn({ db, config, now: () => new Date() });
  });
}

/** Drops options not given, so the body holds what a JSON caller would have sent. */
function given(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function print(value: unknown, json: boolean, text: string) {
  console.log(json ? JSON.stringify(value) : text);
}

function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object');
  return parsed as Record<string, unknown>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`unknown scope ${unknown.join(', ') || '(none given)'}; scopes are: ${SCOPES.join(', ')}`);
  }
  return scopes as Scope[];
}

export function buildCli(config: () => Config): Command {
  const program = new Command('chat-service').description(`Self-hostable live-chat backend (Chat Service API v${API_VERSION})`);
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

  // Management commands: the same bodies, rules and errors as the management API.
  program
    .command('agent')
    .description('manage agents')
    .command('add')
    .description('add an agent to an account (like POST /v2/agents)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'e-mail, unique among the account agents')
    .option('--full-name <name>', 'full name')
    .option('--nickname <name>', 'nickname')
    .option('--role <role>', `one of ${AGENT_ROLES.join(', ')} (default agent)`)
    .option('--group <id>', 'a group of the account; repeat for several', collect)
    .option('--json', 'print the agent record as JSON')
    .action(
      async (options: {
        account: string;
        email: string;
        fullName?: string;
        nickname?: string;
        role?: string;
        group?: string[];
        json?: boolean;
      }) => {
        const body = validateBody(
          CreateAgentBody,
          given({ email: options.email, full_name: options.fullName, nickname: options.nickname, role: options.role, group_ids: options.group }),
        );
        const agent = await withAccount(config(), options.account, (deps) => createAgent(deps, options.account, body));
        print(agent, Boolean(options.json), `agent ${agent.id} ${agent.email}`);
      },
    );

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
        const body = validateBody(CreateNamedResourceBody, { name: options.name });
        const created = await withAccount(config(), options.account, (deps) => createNamed(deps, kind, options.account, body));
        print(created, Boolean(options.json), `${kind.singular} ${created.id} ${created.name}`);
      });
  }

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
        const body = validateBody(CreateBotBody, { name: options.name, trigger });
        const bot = await withAccount(config(), options.account, (deps) => createBot(deps, options.account, body));
        print(bot, Boolean(options.json), `bot ${bot.id} ${bot.name}`);
      },
    );

  registerDemoCommands(program, config);
  return program;
}

/** A failure of the environment (port in use, permission denied...): its message says it all. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
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
    const environmental =
      error instanceof DirectoryLockedError || error instanceof ConfigError || error instanceof DatabaseUnavailableError || isSystemError(error);
    if (environmental) {
      console.error(`chat-service: ${error.message}`);
    } else if (error instanceof ApiError) {
      console.error(`chat-service: ${error.message}`);
      if (error.errors && error.errors.length > 1) for (const item of error.errors) console.error(`  ${item.message}`);
    } else {
      console.error('chat-service:', error);
    }
    process.exit(1);
  }
}

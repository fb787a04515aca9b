// Only what building the command tree needs is imported here; each command loads its own
// modules when it runs (`await import`), so `chat-service --version` or `--help` answer at once.
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, ConfigError, type Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Deps } from './deps.ts';
import { isScope, SCOPES, type Scope } from './auth/scopes.ts';
import { AGENT_ROLES } from './agents/schema.ts';
import { GROUPS, TAGS } from './named-resources/schema.ts';
import { TRIGGER_EVENTS } from './bots/schema.ts';
import { registerDemoCommands } from './demo/cli.ts';
import { API_VERSION } from './version.ts';
import { createMetrics } from './metrics/metrics.ts';

/** Opens the configured database, migrated, runs fn, and closes it. */
export async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const [{ openDb }, { migrate }] = await Promise.all([import('./db/db.ts'), import('./db/migrate.ts')]);
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
    const { requireAccount } = await import('./accounts/service.ts');
    await requireAccount(db, accountId);
    return fn({ db, config, now: () => new Date(), metrics: createMetrics() });
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

export function buildCli(config: () => Config): Command {
  const program = new Command('chat-service')
    .description(`Self-hostable live-chat backend (Chat Service API v${API_VERSION})`)
    .version(API_VERSION, '-V, --version', 'print the version and exit');
  program.showHelpAfterError();

  program
    .command('serve')
    .description('start the HTTP service (what `npm start` runs)')
    .action(async () => {
      const { startServer } = await import('./server.ts');
      const settings = config();
      const server = await startServer(settings);
      const log = server.app.log;
      const shutdown = (signal: string) => {
        log.info({ signal }, 'shutting down');
        // Whatever still runs (a slow query, a stalled upload) cannot hold the process past the deadline:
        // orchestrators kill it a little later anyway (docker stop: 10 s), without this log line.
        setTimeout(() => {
          log.error({ timeoutMs: settings.shutdownTimeoutMs }, 'shutdown timed out (SHUTDOWN_TIMEOUT_MS): exiting with work still running');
          process.exit(1);
        }, settings.shutdownTimeoutMs);
        server
          .stop()
          .then(() => process.exit(0))
          .catch((error) => {
            log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
      // Announced once the signals are handled: a supervisor (or a test) that stops the service as soon as it
      // reads this line must not find Node's default action, which kills the process without shutting down.
      log.info({ url: server.url }, 'chat-service listening');
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--status', 'list the migrations, applied (with the time) or pending, and apply nothing')
    .action(async (options: { status?: boolean }) => {
      const [{ openDb }, { migrate, migrationStatus }] = await Promise.all([import('./db/db.ts'), import('./db/migrate.ts')]);
      const db = await openDb({ databaseUrl: config().databaseUrl, dataDir: config().dataDir });
      try {
        if (options.status) {
          const migrations = await migrationStatus(db);
          for (const { version, appliedAt } of migrations)
            console.log(`${appliedAt ? 'applied' : 'pending'}  ${version}${appliedAt ? `  ${appliedAt.toISOString()}` : ''}`);
          const pending = migrations.filter((migration) => !migration.appliedAt).length;
          console.log(
            pending ? `${pending} pending: run \`chat-service migrate\` (the server applies them on start)` : 'Schema is up to date',
          );
          return;
        }
        const applied = await migrate(db);
        console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Schema is up to date');
      } finally {
        await db.close();
      }
    });

  // PGlite only: with PostgreSQL the database is backed up by PostgreSQL's own tools.
  const pgliteDirectory = (command: string): string => {
    const { databaseUrl, dataDir } = config();
    if (databaseUrl)
      throw new ConfigError(`${command} copies PGlite's DATA_DIR; with DATABASE_URL use pg_dump and pg_restore (docs/operations.md)`);
    if (dataDir === 'memory') throw new ConfigError(`${command} needs a DATA_DIR on disk, not "memory"`);
    return dataDir;
  };

  program
    .command('backup')
    .description("write PGlite's data directory (DATA_DIR) to a file; stop the server first")
    .requiredOption('--out <file>', 'backup file to write (a gzipped tarball)')
    .action(async (options: { out: string }) => {
      const { backupPglite } = await import('./db/backup.ts');
      const dataDir = pgliteDirectory('backup');
      const bytes = await backupPglite(dataDir, options.out);
      console.log(`Backed up ${dataDir} to ${options.out} (${bytes} bytes)`);
    });

  program
    .command('restore')
    .description('unpack a backup into an empty or new DATA_DIR (PGlite); the server applies newer migrations on start')
    .requiredOption('--from <file>', 'backup file written by `chat-service backup`')
    .action(async (options: { from: string }) => {
      const { restorePglite } = await import('./db/backup.ts');
      const dataDir = pgliteDirectory('restore');
      await restorePglite(dataDir, options.from);
      console.log(`Restored ${options.from} into ${dataDir}`);
    });

  const account = program.command('account').description('manage accounts (tenants)');
  account
    .command('create')
    .description('create an account with an owner token (every scope) and a legacy apiKey')
    .option('--name <name>', 'account name', 'My account')
    .option('--json', 'print {"account_id","token","api_key"} as JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const [{ validateBody }, { UpdateAccountBody }, { createAccount }] = await Promise.all([
        import('./http/validation.ts'),
        import('./accounts/schema.ts'),
        import('./accounts/service.ts'),
      ]);
      // The name rules of PATCH /v2/account, so the CLI cannot create an account the API would refuse to name.
      const { name } = validateBody(UpdateAccountBody, { name: options.name });
      const created = await withDb(config(), (db) => createAccount({ db, now: () => new Date() }, { name }));
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
      const { createToken } = await import('./tokens/service.ts');
      const created = await withAccount(config(), options.account, (deps) =>
        createToken(deps, options.account, { name: options.name, scopes: options.scopes }),
      );
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
        const [{ validateBody }, { CreateAgentBody }, { createAgent }] = await Promise.all([
          import('./http/validation.ts'),
          import('./agents/schema.ts'),
          import('./agents/service.ts'),
        ]);
        const body = validateBody(
          CreateAgentBody,
          given({
            email: options.email,
            full_name: options.fullName,
            nickname: options.nickname,
            role: options.role,
            group_ids: options.group,
          }),
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
        const [{ validateBody }, { CreateNamedResourceBody }, { createNamed }] = await Promise.all([
          import('./http/validation.ts'),
          import('./named-resources/schema.ts'),
          import('./named-resources/service.ts'),
        ]);
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
        const [{ validateBody }, { CreateBotBody }, { createBot }] = await Promise.all([
          import('./http/validation.ts'),
          import('./bots/schema.ts'),
          import('./bots/service.ts'),
        ]);
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
    const [{ DirectoryLockedError }, { DatabaseUnavailableError }, { ApiError }, { BackupError }] = await Promise.all([
      import('./db/lock.ts'),
      import('./db/db.ts'),
      import('./http/errors.ts'),
      import('./db/backup.ts'),
    ]);
    const environmental =
      error instanceof DirectoryLockedError ||
      error instanceof ConfigError ||
      error instanceof DatabaseUnavailableError ||
      error instanceof BackupError ||
      isSystemError(error);
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

// The command tree. Only what building it needs is imported here; each command loads its own
// modules when it runs (`await import`), so `chat-service --version` or `--help` answer at once.
// Each command group lives with its feature, as the routes do.
import { Command } from 'commander';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { registerServeCommand } from './cli/serve.ts';
import { registerDatabaseCommands } from './db/cli.ts';
import { registerAccountCommands } from './accounts/cli.ts';
import { registerTokenCommands } from './tokens/cli.ts';
import { registerAgentCommands } from './agents/cli.ts';
import { registerNamedResourceCommands } from './named-resources/cli.ts';
import { registerBotCommands } from './bots/cli.ts';
import { registerDemoCommands } from './demo/cli.ts';
import { API_VERSION } from './version.ts';

export function buildCli(config: () => Config): Command {
  const program = new Command('chat-service')
    .description(`Self-hostable live-chat backend (Chat Service API v${API_VERSION})`)
    .version(API_VERSION, '-V, --version', 'print the version and exit');
  program.showHelpAfterError();
  for (const register of [
    registerServeCommand,
    registerDatabaseCommands,
    registerAccountCommands,
    registerTokenCommands,
    registerAgentCommands,
    registerNamedResourceCommands,
    registerBotCommands,
    registerDemoCommands,
  ])
    register(program, config);
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

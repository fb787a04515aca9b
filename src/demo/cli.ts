import { InvalidArgumentError, type Command } from 'commander';
import type { Config } from '../config.ts';

/** How often the progress line is printed when stderr is not a terminal. */
const PLAIN_PROGRESS_INTERVAL_MS = 5000;

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

interface DemoDataCliOptions {
  account?: string;
  conversations: number;
  days: number;
  seed: string;
}

/** `chat-service demo-data`: a year of realistic history in an account, for demos and benchmarks. */
export function registerDemoCommands(program: Command, config: () => Config): void {
  program
    .command('demo-data')
    .description('fill an account with realistic conversation history (agents, groups, tags, contacts, conversations, messages)')
    .option('--account <id>', 'account to fill (default: a new account, whose token is printed)')
    .requiredOption('--conversations <n>', 'number of conversations (about 10 messages each)', positiveInteger)
    .option('--days <n>', 'length of the history in days, ending now', positiveInteger, 365)
    .option('--seed <seed>', 'seed of the generator: the same seed gives the same history', 'demo')
    .action(async (options: DemoDataCliOptions) => {
      const settings = config();
      const [
        { default: cliProgress },
        { openDb, dbOptionsOf },
        { migrateDirect },
        { analyzeTablesWithRows },
        { createAccount, requireAccount },
        { generateDemoData },
      ] = await Promise.all([
        import('cli-progress'),
        import('../db/db.ts'),
        import('../db/migrate.ts'),
        import('../db/maintenance.ts'),
        import('../accounts/service.ts'),
        import('./service.ts'),
      ]);
      const dbOptions = dbOptionsOf(settings, false);
      const db = await openDb(dbOptions);
      // On a terminal a bar redrawn in place; otherwise (a log, CI, `2> file`) a plain line every few seconds.
      const terminal = process.stderr.isTTY === true;
      const progress = new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: `demo-data ${terminal ? '[{bar}] ' : ''}{percentage}% | {value}/{total} conversations | {duration_formatted}`,
          hideCursor: true,
          noTTYOutput: true,
          notTTYSchedule: PLAIN_PROGRESS_INTERVAL_MS,
        },
        cliProgress.Presets.shades_classic,
      );
      try {
        await migrateDirect(db, dbOptions);
        let accountId = options.account;
        if (accountId === undefined) {
          const created = await createAccount({ db, now: () => new Date() }, { name: 'Demo account' });
          accountId = created.account_id;
          console.log(`account ${created.account_id}\ntoken   ${created.token}\napiKey  ${created.api_key}`);
        } else {
          await requireAccount(db, accountId);
        }
        progress.start(options.conversations, 0);
        const summary = await generateDemoData(db, {
          accountId,
          conversations: options.conversations,
          days: options.days,
          seed: options.seed,
          now: new Date(),
          inactivityTimeoutSeconds: settings.inactivityTimeoutSeconds,
          onProgress: (written) => progress.update(written),
        });
        progress.stop();
        // Statistics over the new history are planned from fresh statistics, not from those of an empty database.
        await analyzeTablesWithRows(db);
        console.log(
          `Wrote ${summary.conversations} conversations, ${summary.messages} messages, ${summary.contacts} contacts (${summary.agents} agents) to account ${accountId}`,
        );
      } finally {
        progress.stop();
        await db.close();
      }
    });
}

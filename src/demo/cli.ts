import { InvalidArgumentError, type Command } from 'commander';
import cliProgress from 'cli-progress';
import type { Config } from '../config.ts';
import { openDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { createAccount, requireAccount } from '../accounts/service.ts';
import { generateDemoData } from './service.ts';

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
      const db = await openDb({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
      const progress = new cliProgress.SingleBar(
        { stream: process.stderr, format: 'demo-data [{bar}] {percentage}% | {value}/{total} conversations | {duration_formatted}', hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      try {
        await migrate(db);
        let accountId = options.account;
        if (accountId === undefined) {
          const created = await createAccount(db, { name: 'Demo account' });
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
        console.log(`Wrote ${summary.conversations} conversations, ${summary.messages} messages, ${summary.contacts} contacts (${summary.agents} agents) to account ${accountId}`);
      } finally {
        progress.stop();
        await db.close();
      }
    });
}

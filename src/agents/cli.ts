import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { AGENT_ROLES } from './schema.ts';
import { collect, given, print, withAccount } from '../cli/helpers.ts';

/** `chat-service agent ...`: the same bodies, rules and errors as the management API. */
export function registerAgentCommands(program: Command, config: () => Config): void {
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
          import('../http/validation.ts'),
          import('./schema.ts'),
          import('./service.ts'),
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
}

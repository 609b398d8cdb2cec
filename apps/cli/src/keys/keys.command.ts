import { type Command, Option } from 'commander';
import { z } from 'zod';
import { type CommandContext, jsonOption, pathParam } from '../command-context';

const ENVIRONMENTS = ['test', 'live'] as const;
const DEFAULT_KEY_NAME = 'created with cts';

const CreateOptions = z.object({ env: z.enum(ENVIRONMENTS), name: z.string() });

export function registerKeysCommands(program: Command, context: CommandContext): void {
  const keys = program
    .command('keys')
    .description('keys create <account_id>: another API key for an account');

  keys
    .command('create')
    .description('create another API key for an account (the secret is shown once)')
    .argument('<account_id>', 'the account, e.g. acct_…')
    .addOption(
      new Option('--env <environment>', 'key environment (required)')
        .choices(ENVIRONMENTS)
        .makeOptionMandatory(),
    )
    .option('--name <name>', 'a label for the key', DEFAULT_KEY_NAME)
    .addOption(jsonOption())
    .action(async (accountId: string, _options: unknown, command: Command) => {
      const { env, name } = CreateOptions.parse(command.opts());
      const response = await context.admin(command, {
        method: 'POST',
        path: `/admin/v1/accounts/${pathParam(accountId)}/api-keys`,
        body: { name, environment: env },
      });
      context.print(command, `${env} API key created for ${accountId}`, response);
    });
}

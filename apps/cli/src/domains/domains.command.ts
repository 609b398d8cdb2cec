import { type Command } from 'commander';
import { type CommandContext, jsonOption, pathParam } from '../command-context';

export function registerDomainsCommands(program: Command, context: CommandContext): void {
  const domains = program
    .command('domains')
    .description('domains add <account_id> <domain>: record a verified domain');

  domains
    .command('add')
    .description('record a verified domain for an account (business accounts)')
    .argument('<account_id>', 'the account, e.g. acct_…')
    .argument('<domain>', 'a DNS name, e.g. shop.example.com')
    .addOption(jsonOption())
    .action(async (accountId: string, domain: string, _options: unknown, command: Command) => {
      const response = await context.admin(command, {
        method: 'POST',
        path: `/admin/v1/accounts/${pathParam(accountId)}/domains`,
        body: { domain },
      });
      context.print(command, `domain ${domain} added to ${accountId}`, response);
    });
}

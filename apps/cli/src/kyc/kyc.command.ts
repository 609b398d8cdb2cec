import { type Command } from 'commander';
import { type CommandContext, jsonOption, pathParam } from '../command-context';

export function registerKycCommand(program: Command, context: CommandContext): void {
  program
    .command('kyc')
    .description("set an account's KYC status")
    .argument('<account_id>', 'the account, e.g. acct_…')
    .argument('<status>', 'KYC status, e.g. verified')
    .addOption(jsonOption())
    .action(async (accountId: string, status: string, _options: unknown, command: Command) => {
      const response = await context.admin(command, {
        method: 'PATCH',
        path: `/admin/v1/accounts/${pathParam(accountId)}`,
        body: { kyc_status: status },
      });
      context.print(command, `KYC status of ${accountId} set to ${status}`, response);
    });
}

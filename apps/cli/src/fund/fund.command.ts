import { type Command } from 'commander';
import { type CommandContext, jsonOption } from '../command-context';

export function registerFundCommand(program: Command, context: CommandContext): void {
  program
    .command('fund')
    .description('fund a test account (authenticates with its test API key, not the admin token)')
    .argument('<api_key>', "the account's test API key, svc_test_…")
    .argument('<asset>', 'asset code, e.g. USDC')
    .argument('<amount>', 'decimal amount, e.g. 100 or 12.5')
    .addOption(jsonOption())
    .action(async (apiKey: string, asset: string, amount: string, _options: unknown, command: Command) => {
      // The amount stays a string: the API takes decimal strings and a float would lose digits.
      const response = await context.withApiKey(command, apiKey, {
        method: 'POST',
        path: '/v1/sandbox/fund',
        body: { asset, amount },
      });
      context.print(command, `funded ${amount} ${asset}`, response);
    });
}

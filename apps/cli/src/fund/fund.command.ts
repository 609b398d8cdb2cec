import { type Command } from 'commander';
import { type CommandContext, jsonOption } from '../command-context';
import { CliError, EXIT_FAILURE } from '../errors';

export function registerFundCommand(program: Command, context: CommandContext): void {
  program
    .command('fund')
    .description('fund a test account (authenticates with its test API key, not the admin token)')
    .argument(
      '[api_key]',
      "the account's test API key, svc_test_… (omit it to use env CTS_API_KEY, out of ps)",
    )
    .argument('<asset>', 'asset code, e.g. USDC')
    // Optional to commander only so that `cts fund <asset> <amount>` parses; the action requires it.
    .argument('[amount]', 'decimal amount, e.g. 100 or 12.5 (required)')
    .usage('[options] [api_key] <asset> <amount>')
    .addOption(jsonOption())
    .action(async (...args: unknown[]) => {
      // `cts fund <api_key> <asset> <amount>`, or `cts fund <asset> <amount>` with the key from the
      // environment: commander fills the arguments in order, so two values land in the first two.
      // Two values of which the first is a key are a key and an asset with the amount left out: read
      // as `<asset> <amount>`, the key would be sent as the asset under CTS_API_KEY's account.
      const command = args.at(-1) as Command;
      const given = args.slice(0, 3).filter((value): value is string => typeof value === 'string');
      const [apiKey, asset, amount] =
        given.length === 3 || looksLikeApiKey(given[0])
          ? given
          : [context.io.env.CTS_API_KEY, given[0], given[1]];
      if (!asset || !amount) {
        throw new CliError('usage: cts fund [api_key] <asset> <amount>', EXIT_FAILURE, 'invalid_usage');
      }
      if (!apiKey) {
        throw new CliError(
          'an API key is required: cts fund <api_key> <asset> <amount>, or env CTS_API_KEY',
          EXIT_FAILURE,
          'invalid_usage',
        );
      }
      // The amount stays a string: the API takes decimal strings and a float would lose digits.
      const response = await context.withApiKey(command, apiKey, {
        method: 'POST',
        path: '/v1/sandbox/fund',
        body: { asset, amount },
      });
      context.print(command, `funded ${amount} ${asset}`, response);
    });
}

function looksLikeApiKey(value: string | undefined): boolean {
  return value !== undefined && /^svc_(test|live)_/.test(value);
}

import { Command, CommanderError } from 'commander';
import { registerAccountsCommands } from './accounts/accounts.command';
import { CommandContext, DEFAULT_URL } from './command-context';
import { registerDomainsCommands } from './domains/domains.command';
import { CliError, EXIT_FAILURE } from './errors';
import { registerFundCommand } from './fund/fund.command';
import { fromSdkError } from './http/api-errors';
import { type CliIo } from './io';
import { registerKeysCommands } from './keys/keys.command';
import { registerKycCommand } from './kyc/kyc.command';
import { registerMcpCommand } from './mcp/mcp.command';
import { registerListenCommand } from './listen/listen.command';
import { registerMigrateCommand } from './migrate/migrate.command';

const EXAMPLES = `
Examples:
  cts accounts create @alice --type personal --kyc verified
  cts keys create acct_… --env test --name ci
  cts kyc acct_… verified
  cts domains add acct_… shop.example.com
  cts fund svc_test_… USDC 100
  cts listen --api-key svc_test_… --forward-to http://localhost:3000/hooks --events transfer.confirmed
  cts migrate
  cts mcp --api-key svc_test_…   (an agent's key: MCP server over stdio)

Environment:
  CTS_URL        default for --url
  CTS_API_KEY    API key of cts listen, cts mcp and cts fund when not given on the command line (kept out of ps)
  ADMIN_TOKEN    admin token when --token is not given
  CTS_DATA_DIR   where the gateway keeps admin-token (default ./.data)
  CTS_CONFIG_DIR where cts listen keeps its state (default ~/.config/cts)
`;

export interface ProgramOptions {
  /** Overrides where `cts migrate` looks for tools/migrate.mjs (tests). */
  readonly repoRoot?: string;
}

/** A fresh program per run: commander keeps parsed option values on the instance. */
export function buildProgram(io: CliIo, options: ProgramOptions = {}): Command {
  const program = new Command('cts')
    .description(
      'Operator tool for the Confidential Transfer Service: accounts, API keys, KYC, domains, test funds, migrations, and forwarding events to a local URL (listen).',
    )
    .option('--url <url>', 'gateway base URL (env CTS_URL)', io.env.CTS_URL ?? DEFAULT_URL)
    .option('--token <token>', 'admin token (else ADMIN_TOKEN, else <CTS_DATA_DIR>/admin-token)')
    .addHelpText('after', EXAMPLES)
    .showHelpAfterError('(add --help for usage)')
    // Settings above are copied to subcommands as they are created below.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  const context = new CommandContext(io);
  registerAccountsCommands(program, context);
  registerKeysCommands(program, context);
  registerKycCommand(program, context);
  registerDomainsCommands(program, context);
  registerFundCommand(program, context);
  registerMigrateCommand(program, context, options.repoRoot);
  registerMcpCommand(program, context);
  registerListenCommand(program, context);
  return program;
}

/** Runs one invocation and returns its exit code; never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo, options: ProgramOptions = {}): Promise<number> {
  try {
    await buildProgram(io, options).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Commander has already written its usage message (or the help) through configureOutput.
    return error.exitCode;
  }
  const known = error instanceof CliError ? error : fromSdkError(error);
  if (known) {
    io.stderr(`error: ${known.message}\n`);
    return known.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`error: unexpected failure: ${message}\n`);
  return EXIT_FAILURE;
}

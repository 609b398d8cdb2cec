import { Command, CommanderError } from 'commander';
import { registerAccountsCommands } from './accounts/accounts.command';
import { CommandContext, DEFAULT_URL } from './command-context';
import { registerDomainsCommands } from './domains/domains.command';
import { CliError, type ErrorJson, EXIT_FAILURE } from './errors';
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
  /** Errors as one JSON object on stderr; commander's own error text is held back for it. */
  readonly jsonErrors?: boolean;
}

/** A fresh program per run: commander keeps parsed option values on the instance. */
export function buildProgram(io: CliIo, options: ProgramOptions = {}): Command {
  // Commander writes to stderr only for errors (a usage error, help after one): report() says it.
  const writeErr = options.jsonErrors === true ? () => undefined : io.stderr;
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
    .configureOutput({ writeOut: io.stdout, writeErr });

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
  const json = wantsJson(argv);
  try {
    await buildProgram(io, { ...options, jsonErrors: json }).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    return report(error, io, json);
  }
}

/**
 * `--json` anywhere before a `--`. Read from argv rather than the parsed options: a usage error
 * stops commander before it has parsed them all.
 */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

// Warning: the exit code never depends on --json; scripts branch on it (2: retry, 1: do not).
function report(error: unknown, io: CliIo, json: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has already written its usage message (or the help) through configureOutput,
    // unless --json held it back; an exit code of 0 is --help, not an error.
    if (json && error.exitCode !== 0) {
      io.stderr(renderErrorJson(usageError(error).toJson()));
    }
    return error.exitCode;
  }
  const known = (error instanceof CliError ? error : fromSdkError(error)) ?? unexpectedFailure(error);
  io.stderr(json ? renderErrorJson(known.toJson()) : `error: ${known.message}\n`);
  return known.exitCode;
}

function usageError(error: CommanderError): CliError {
  // help() after a missing subcommand passes a placeholder, not a message.
  const message =
    error.code === 'commander.help'
      ? 'a command is required (add --help for usage)'
      : error.message.replace(/^error: /, '');
  return new CliError(message, error.exitCode, 'invalid_usage');
}

function unexpectedFailure(error: unknown): CliError {
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(`unexpected failure: ${message}`, EXIT_FAILURE, 'unexpected_failure');
}

/** One line, so a script can read it apart from anything else on stderr. */
function renderErrorJson(body: ErrorJson): string {
  return `${JSON.stringify(body)}\n`;
}

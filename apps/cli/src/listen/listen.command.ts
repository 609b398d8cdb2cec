import { type Command, InvalidArgumentError } from 'commander';
import { type CommandContext } from '../command-context';
import { CliError, EXIT_FAILURE } from '../errors';
import { listen } from './event-listener';
import { defaultStatePath } from './listen-state';

const types = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== ''),
];

const positive = (value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 100) {
    throw new InvalidArgumentError('must be a whole number of milliseconds, at least 100');
  }
  return number;
};

export function registerListenCommand(program: Command, context: CommandContext): void {
  program
    .command('listen')
    .description(
      "forward the account's events to a local URL as signed webhook deliveries (no public URL needed); resumes where it stopped",
    )
    .requiredOption('--api-key <key>', 'the API key whose account and environment to follow, svc_test_…')
    .requiredOption(
      '--forward-to <url>',
      'local URL receiving the deliveries, e.g. http://localhost:3000/hooks',
    )
    .option('--events <types>', 'only these event types, comma-separated (repeatable)', types)
    .option(
      '--state <file>',
      'where the secret and the positions (one per --events filter) are kept (default ~/.config/cts/listen/<key hash>.json)',
    )
    .option('--interval <ms>', 'how often to look for new events', positive, 2000)
    .action(
      async (
        options: { apiKey: string; forwardTo: string; events?: string[]; state?: string; interval: number },
        command: Command,
      ) => {
        if (!/^svc_(test|live)_/.test(options.apiKey)) {
          throw new CliError('--api-key must be an API key (svc_test_… or svc_live_…)', EXIT_FAILURE);
        }
        try {
          new URL(options.forwardTo);
        } catch {
          throw new CliError(`--forward-to ${options.forwardTo} is not a URL`, EXIT_FAILURE);
        }
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          await listen({
            baseUrl: context.url(command),
            apiKey: options.apiKey,
            forwardTo: options.forwardTo,
            types: options.events ?? [],
            statePath: options.state ?? defaultStatePath(context.io.env, options.apiKey),
            intervalMs: options.interval,
            fetch: context.io.fetch,
            print: (line) => context.io.stdout(`${line}\n`),
            signal: context.io.signal ?? stop.signal,
          });
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      },
    );
}

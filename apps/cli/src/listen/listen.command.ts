import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@cts/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { type CommandContext } from '../command-context';
import { CliError, EXIT_FAILURE } from '../errors';
import { listen } from './event-listener';
import { defaultStatePath } from './listen-state';

// What the events API filters on: the subscribable types and webhook.test.
const EVENT_TYPES: readonly string[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];

const types = (value: string, previous: string[] = []): string[] => {
  const given = value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
  const unknown = given.filter((type) => !EVENT_TYPES.includes(type));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `unknown event type ${unknown.join(', ')}; valid: ${EVENT_TYPES.join(', ')}`,
    );
  }
  return [...previous, ...given];
};

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
    .option(
      '--api-key <key>',
      'the API key whose account and environment to follow, svc_test_… (else env CTS_API_KEY)',
    )
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
        options: { apiKey?: string; forwardTo: string; events?: string[]; state?: string; interval: number },
        command: Command,
      ) => {
        // The environment keeps the key out of `ps` and shell history, as `cts mcp` allows.
        const apiKey = options.apiKey ?? context.io.env.CTS_API_KEY;
        if (apiKey === undefined || apiKey === '') {
          throw new CliError('an API key is required: --api-key <key> or env CTS_API_KEY', EXIT_FAILURE);
        }
        if (!/^svc_(test|live)_/.test(apiKey)) {
          throw new CliError('the API key must be svc_test_… or svc_live_…', EXIT_FAILURE);
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
            apiKey,
            forwardTo: options.forwardTo,
            types: options.events ?? [],
            statePath: options.state ?? defaultStatePath(context.io.env, apiKey),
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

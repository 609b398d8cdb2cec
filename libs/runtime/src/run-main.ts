import { stopTracing } from '@cts/platform';
import { type RunningApp } from './start-service';

/**
 * The `main.ts` of every app: start, then on SIGTERM/SIGINT close cleanly (so a restarted consumer
 * does not wait out its old session) and exit. A second signal exits at once.
 */
export function runMain(
  start: () => Promise<RunningApp[]>,
  onStopped: () => Promise<void> = () => Promise.resolve(),
): void {
  let stopping = false;
  start().then(
    (apps) => {
      const stop = (signal: string) => {
        if (stopping) {
          process.exit(1);
        }
        stopping = true;
        process.stderr.write(`${signal} received: shutting down\n`);
        Promise.all([...apps].reverse().map((app) => app.close()))
          .then(onStopped)
          .then(stopTracing)
          .then(
            () => process.exit(0),
            (error: unknown) => {
              process.stderr.write(`shutdown failed: ${String(error)}\n`);
              process.exit(1);
            },
          );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    },
    (error: unknown) => {
      process.stderr.write(
        `failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { type Logger } from 'pino';

/**
 * The logger of the service whose work is running. Nest keeps one logger per process, so in the
 * one-process mode every service's lines carried the name of the service that started last.
 */
const running = new AsyncLocalStorage<Logger>();

/** Runs `work`, and whatever it starts (timers, promises, handlers it registers), as `logger`'s service. */
export function inServiceScope<T>(logger: Logger, work: () => T): T {
  return running.run(logger, work);
}

/** The logger of the service whose work this is; undefined outside any service's scope. */
export function serviceScopeLogger(): Logger | undefined {
  return running.getStore();
}

import { type LoggerService } from '@nestjs/common';
import { type logCreator, logLevel } from 'kafkajs';
import pino, { type Logger, type DestinationStream } from 'pino';
import { serviceScopeLogger } from './service-scope';

/**
 * Fields never written to a log: secrets, and amounts (a confidential transfer's amount must not
 * appear in any log line). Pino censors these paths at any of the first four levels of nesting.
 */
const SENSITIVE_FIELDS = [
  'amount',
  'amounts',
  'memo',
  'authorization',
  'Authorization',
  'secret',
  'api_key',
  'key',
  'token',
  'password',
  'decryption_key',
  'decryption_proof',
  'x-decryption-proof',
  'cookie',
];

export const REDACTED_PATHS = SENSITIVE_FIELDS.flatMap((field) => [
  field,
  `*.${field}`,
  `*.*.${field}`,
  `*.*.*.${field}`,
]);

export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * Nest's logger interface over pino: framework logs come out as the same structured JSON lines,
 * under the service whose work is running (see inServiceScope), else under `logger`'s.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly fallback: Logger) {}

  private get logger(): Logger {
    return serviceScopeLogger() ?? this.fallback;
  }

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

/** kafkajs logs as structured lines of the app's logger; retriable broker errors are warnings, not errors. */
export function kafkaLogCreator(logger: Logger): logCreator {
  const child = logger.child({ context: 'kafkajs' });
  return () =>
    ({ level, log }) => {
      const { message, ...extra } = log;
      if (level === logLevel.ERROR || level === logLevel.WARN) {
        child.warn(extra, message);
      } else if (level === logLevel.INFO) {
        child.info(extra, message);
      } else {
        child.debug(extra, message);
      }
    };
}

/** An error the CLI reports as one message and an exit code; run() turns it into output. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const EXIT_FAILURE = 1;
/** Distinct from API errors so scripts can retry: the gateway unreachable, or answering 429/503. */
export const EXIT_UNREACHABLE = 2;

// Duck-typed rather than `instanceof Error`: errors from Node internals can come from another
// realm (Jest's VM context), where instanceof is false.
function field(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null && name in error
    ? (error as Record<string, unknown>)[name]
    : undefined;
}

export function errorMessage(error: unknown): string {
  const message = field(error, 'message');
  return typeof message === 'string' ? message : String(error);
}

export function errorCode(error: unknown): string | undefined {
  const code = field(error, 'code');
  return typeof code === 'string' ? code : undefined;
}

export function errorName(error: unknown): string | undefined {
  const name = field(error, 'name');
  return typeof name === 'string' ? name : undefined;
}

export function errorCause(error: unknown): unknown {
  return field(error, 'cause');
}

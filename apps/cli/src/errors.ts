/**
 * Codes of the errors the CLI raises itself (never one of the API's codes, so a script can tell
 * them apart): bad arguments or setup, no answer from the gateway, an answer that is not JSON, a
 * failure of the CLI's own (a file, a script), and a bug.
 */
export type CliErrorCode =
  'invalid_usage' | 'gateway_unreachable' | 'unexpected_response' | 'cli_error' | 'unexpected_failure';

/** An error as `--json` prints it: the API's error shape (docs/architecture-brief.md §6). */
export interface ErrorJson {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly request_id?: string;
    readonly param?: string;
    readonly reason?: string;
  };
}

/** An error the CLI reports as one message and an exit code; run() turns it into output. */
export class CliError extends Error {
  /** A CliErrorCode, or the API's code for an ApiError. */
  readonly code: string;

  constructor(
    message: string,
    readonly exitCode: number,
    code: CliErrorCode = 'cli_error',
  ) {
    super(message);
    this.name = 'CliError';
    this.code = code;
  }

  toJson(): ErrorJson {
    return { error: { code: this.code, message: this.message } };
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

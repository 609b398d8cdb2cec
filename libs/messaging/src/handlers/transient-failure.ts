/**
 * A failure of a dependency that is down or restarting (the database refusing or dropping
 * connections, a socket reset), not of the request: worth `service_unavailable` and a retry with
 * the same Idempotency-Key, never a 500.
 */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  // PostgreSQL: connection exceptions (class 08) and operator intervention (57P01-57P03: shutting
  // down, crash shutdown, cannot connect now).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);

const TRANSIENT_MESSAGES = [
  /Connection terminated/i,
  /connection timeout/i,
  /timeout exceeded when trying to connect/i,
  /the database system is (starting up|shutting down)/i,
];

// TypeORM releases a query runner whose connection the server dropped; its next query fails so.
const TRANSIENT_NAMES = new Set(['QueryRunnerAlreadyReleasedError']);

export function isTransientFailure(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) {
    return false;
  }
  const { code, message, cause, driverError, name } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    driverError?: unknown;
    name?: unknown;
  };
  if (typeof name === 'string' && TRANSIENT_NAMES.has(name)) {
    return true;
  }
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) {
    return true;
  }
  if (typeof message === 'string' && TRANSIENT_MESSAGES.some((pattern) => pattern.test(message))) {
    return true;
  }
  return isTransientFailure(driverError, depth + 1) || isTransientFailure(cause, depth + 1);
}

/** Postgres `unique_violation`: the loser of a race on a unique index gets this. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

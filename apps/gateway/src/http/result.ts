import { DomainError, type Result } from '@cts/contracts';

/** A command's value, or its domain error thrown for the exception filter to map. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) {
    const { code, message, param, reason } = result.error;
    throw new DomainError(code, message, {
      ...(param === undefined ? {} : { param }),
      ...(reason === undefined ? {} : { reason }),
    });
  }
  return result.value;
}

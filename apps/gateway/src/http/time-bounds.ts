/**
 * Exclusive time bounds of a list query, in UTC with millisecond precision as the times are stored.
 * A bound given finer than a millisecond is rounded so that it keeps and drops the same stored
 * times as the exact bound would: down for "after", up for "before" (`before=…06.9795Z` keeps a
 * time of …06.979Z).
 */
export function afterBound(timestamp: string | undefined): string | undefined {
  return timestamp === undefined ? undefined : new Date(timestamp).toISOString();
}

export function beforeBound(timestamp: string | undefined): string | undefined {
  if (timestamp === undefined) {
    return undefined;
  }
  const truncated = new Date(timestamp).getTime();
  const finerDigits = /\.\d{3}(\d+)/.exec(timestamp)?.[1] ?? '';
  return new Date(/[1-9]/.test(finerDigits) ? truncated + 1 : truncated).toISOString();
}

const BIGINT_MARK = '__bigint__';
const BIGINT_PATTERN = new RegExp(`"${BIGINT_MARK}(-?\\d+)"`, 'g');

/**
 * JSON with bigints written as bare integers, as Solana nodes do for u64 values (kit's HTTP transport
 * parses them back into bigints). Plain JSON.stringify throws on bigint.
 */
export function stringifyWithBigInts(value: unknown): string {
  const json = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${BIGINT_MARK}${item.toString()}` : item,
  );
  return json.replace(BIGINT_PATTERN, '$1');
}

import { formatAmount, parseAmount } from '@cts/crypto';

/**
 * Limits and the threshold are kept in millionths of an asset unit (the API allows 6 decimals), as
 * bigint: amounts are compared in base units, never as floats.
 */
export const LIMIT_DECIMALS = 6;

/** The largest limit we accept, in asset units: every value up to it with 6 decimals is an exact double. */
export const MAX_LIMIT_UNITS = 1_000_000_000;

/** Assets a policy may allow, with their decimals (ARCHITECTURE §5: USDC 6, SOL 9). */
export const POLICY_ASSETS: Readonly<Record<string, number>> = { USDC: 6, SOL: 9 };

export function assetDecimals(asset: string): number | undefined {
  return Object.hasOwn(POLICY_ASSETS, asset) ? POLICY_ASSETS[asset] : undefined;
}

export type LimitParse = { ok: true; value: bigint } | { ok: false; message: string };

/** A JSON number in asset units (≥ 0, at most 6 decimals, at most MAX_LIMIT_UNITS) → millionths. */
export function parseLimit(input: unknown): LimitParse {
  if (typeof input !== 'number' || !Number.isFinite(input)) {
    return { ok: false, message: 'must be a number' };
  }
  if (input < 0) {
    return { ok: false, message: 'must not be negative' };
  }
  if (input > MAX_LIMIT_UNITS) {
    return { ok: false, message: `must not exceed ${MAX_LIMIT_UNITS}` };
  }
  // String(n) is the shortest decimal that round-trips: its digits are the digits the client sent.
  const text = String(input);
  const parsed = /e/i.test(text) ? undefined : parseAmount(text, LIMIT_DECIMALS, { allowZero: true });
  if (!parsed?.ok) {
    return { ok: false, message: `must have at most ${LIMIT_DECIMALS} decimals` };
  }
  return { ok: true, value: parsed.value };
}

/** Millionths → the JSON number the API shows (exact: at most 15 significant digits). */
export function limitToNumber(limit: bigint): number {
  return Number(formatAmount(limit, LIMIT_DECIMALS));
}

/** A limit in millionths of a unit → base units of an asset with `decimals` (rounded down if fewer than 6). */
export function limitInBaseUnits(limit: bigint, decimals: number): bigint {
  return decimals >= LIMIT_DECIMALS
    ? limit * 10n ** BigInt(decimals - LIMIT_DECIMALS)
    : limit / 10n ** BigInt(LIMIT_DECIMALS - decimals);
}

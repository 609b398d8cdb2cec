import { U64_MAX } from './u64';

export type AmountParseFailure = 'invalid_format' | 'too_many_decimals' | 'zero_not_allowed' | 'too_large';
export type AmountParseResult = { ok: true; value: bigint } | { ok: false; reason: AmountParseFailure };

export interface ParseAmountOptions {
  /** API amounts must be > 0 (the default); balances and proofs may be 0. */
  allowZero?: boolean;
}

// Plain decimal only: no sign, exponent, whitespace, separators, leading zeros or bare dot.
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const MAX_INTEGER_DIGITS = U64_MAX.toString().length;

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) {
    throw new RangeError(`decimals must be an integer 0..18, got ${decimals}`);
  }
}

/** Decimal string in asset units → u64 base units, e.g. ("1.5", 6) → 1500000n. */
export function parseAmount(
  input: string,
  decimals: number,
  options: ParseAmountOptions = {},
): AmountParseResult {
  assertDecimals(decimals);
  const match = DECIMAL.exec(input);
  if (!match) {
    return { ok: false, reason: 'invalid_format' };
  }
  const [, integer, fraction = ''] = match;
  if (fraction.length > decimals) {
    return { ok: false, reason: 'too_many_decimals' };
  }
  // Checked before BigInt so a megabyte of digits costs nothing.
  if (integer.length > MAX_INTEGER_DIGITS) {
    return { ok: false, reason: 'too_large' };
  }
  const value = BigInt(integer + fraction.padEnd(decimals, '0'));
  if (value > U64_MAX) {
    return { ok: false, reason: 'too_large' };
  }
  if (value === 0n && options.allowZero !== true) {
    return { ok: false, reason: 'zero_not_allowed' };
  }
  return { ok: true, value };
}

/** u64 base units → shortest decimal string in asset units, e.g. (1500000n, 6) → "1.5". */
export function formatAmount(baseUnits: bigint, decimals: number): string {
  assertDecimals(decimals);
  if (baseUnits < 0n) {
    throw new RangeError('amount must not be negative');
  }
  const digits = baseUnits.toString().padStart(decimals + 1, '0');
  const integer = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? integer : `${integer}.${fraction}`;
}

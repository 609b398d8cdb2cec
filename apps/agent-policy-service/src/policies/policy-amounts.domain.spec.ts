import fc from 'fast-check';
import {
  assetDecimals,
  limitInBaseUnits,
  limitToNumber,
  MAX_LIMIT_UNITS,
  parseLimit,
} from './policy-amounts.domain';

const parsed = (input: unknown) => {
  const result = parseLimit(input);
  return result.ok ? result.value : result.message;
};

describe('parseLimit', () => {
  it.each([
    [0, 0n],
    [1, 1_000_000n],
    [1.5, 1_500_000n],
    [0.000001, 1n],
    [123.456789, 123_456_789n],
    [MAX_LIMIT_UNITS, 1_000_000_000_000_000n],
    [999_999_999.999999, 999_999_999_999_999n],
  ])('reads %p as %p millionths', (input, expected) => {
    expect(parsed(input)).toBe(expected);
  });

  it.each([
    ['100', 'must be a number'],
    [null, 'must be a number'],
    [undefined, 'must be a number'],
    [true, 'must be a number'],
    [[1], 'must be a number'],
    [Number.NaN, 'must be a number'],
    [Number.POSITIVE_INFINITY, 'must be a number'],
    [-1, 'must not be negative'],
    [-0.000001, 'must not be negative'],
    [0.0000001, 'must have at most 6 decimals'],
    [1.1234567, 'must have at most 6 decimals'],
    [0.1 + 0.2, 'must have at most 6 decimals'],
    [MAX_LIMIT_UNITS + 1, `must not exceed ${MAX_LIMIT_UNITS}`],
    [1e21, `must not exceed ${MAX_LIMIT_UNITS}`],
  ])('refuses %p: %s', (input, message) => {
    expect(parsed(input)).toBe(message);
  });

  it('round-trips every limit with at most 6 decimals through the API number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(MAX_LIMIT_UNITS) * 1_000_000n }), (micros) => {
        expect(parsed(limitToNumber(micros))).toBe(micros);
      }),
    );
  });

  it('refuses every negative number', () => {
    fc.assert(
      fc.property(fc.double({ max: -Number.MIN_VALUE, noNaN: true }), (n) => {
        expect(parseLimit(n).ok).toBe(false);
      }),
    );
  });
});

describe('limitInBaseUnits', () => {
  it('scales millionths to the asset’s base units', () => {
    expect(limitInBaseUnits(1_500_000n, assetDecimals('USDC') ?? -1)).toBe(1_500_000n);
    expect(limitInBaseUnits(1_500_000n, assetDecimals('SOL') ?? -1)).toBe(1_500_000_000n);
    expect(limitInBaseUnits(1_500_001n, 2)).toBe(150n);
  });

  it('knows USDC and SOL only', () => {
    expect(assetDecimals('USDC')).toBe(6);
    expect(assetDecimals('SOL')).toBe(9);
    expect(assetDecimals('usdc')).toBeUndefined();
    expect(assetDecimals('toString')).toBeUndefined();
    expect(assetDecimals('__proto__')).toBeUndefined();
  });
});

import fc from 'fast-check';
import { formatAmount, parseAmount } from './amount';
import { U64_MAX } from './u64';

const value = (input: string, decimals = 6) => {
  const result = parseAmount(input, decimals);
  return result.ok ? result.value : result.reason;
};

describe('parseAmount', () => {
  it.each([
    ['1', 6, 1_000_000n],
    ['1.5', 6, 1_500_000n],
    ['0.000001', 6, 1n],
    ['0.1', 9, 100_000_000n],
    ['10.000000', 6, 10_000_000n],
    ['12', 0, 12n],
    ['18446744073709.551615', 6, U64_MAX],
    ['18446744073709551615', 0, U64_MAX],
  ])('parses %p with %p decimals to %p base units', (input, decimals, expected) => {
    expect(value(input, decimals)).toBe(expected);
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '+1',
    '-1',
    '-0',
    '1e6',
    '1E6',
    '0x10',
    '.5',
    '5.',
    '1.2.3',
    '01',
    '00.5',
    '1,5',
    '1_000',
    'NaN',
    'Infinity',
    '١',
    '１',
    '1\n',
  ])('rejects %p as invalid_format', (input) => {
    expect(value(input)).toBe('invalid_format');
  });

  it('rejects more fraction digits than the asset has, even trailing zeros', () => {
    expect(value('0.0000001', 6)).toBe('too_many_decimals');
    expect(value('1.0000000', 6)).toBe('too_many_decimals');
    expect(value('0.0000000001', 9)).toBe('too_many_decimals');
    expect(value('1.5', 0)).toBe('too_many_decimals');
  });

  it('rejects zero unless allowed', () => {
    expect(value('0')).toBe('zero_not_allowed');
    expect(value('0.000000')).toBe('zero_not_allowed');
    expect(parseAmount('0', 6, { allowZero: true })).toEqual({ ok: true, value: 0n });
  });

  it('rejects amounts above u64 base units, including huge inputs, cheaply', () => {
    expect(value('18446744073709.551616', 6)).toBe('too_large');
    expect(value('18446744073709551616', 0)).toBe('too_large');
    expect(value('9'.repeat(1_000_000))).toBe('too_large');
  });

  it('refuses nonsense decimals', () => {
    expect(() => parseAmount('1', -1)).toThrow(RangeError);
    expect(() => parseAmount('1', 1.5)).toThrow(RangeError);
    expect(() => parseAmount('1', 19)).toThrow(RangeError);
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, 6, '0'],
    [1n, 6, '0.000001'],
    [1_500_000n, 6, '1.5'],
    [10_000_000n, 6, '10'],
    [123_456_789n, 9, '0.123456789'],
    [12n, 0, '12'],
    [U64_MAX, 6, '18446744073709.551615'],
  ])('formats %p with %p decimals as %p', (baseUnits, decimals, expected) => {
    expect(formatAmount(baseUnits, decimals)).toBe(expected);
  });

  it('refuses negative amounts', () => {
    expect(() => formatAmount(-1n, 6)).toThrow(RangeError);
  });
});

describe('parseAmount ∘ formatAmount', () => {
  const decimals = fc.integer({ min: 0, max: 18 });

  it('parses back every formatted u64', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), decimals, (baseUnits, d) => {
        expect(parseAmount(formatAmount(baseUnits, d), d, { allowZero: true })).toEqual({
          ok: true,
          value: baseUnits,
        });
      }),
    );
  });

  it('formats canonically: trailing zeros the asset allows parse to the same value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: U64_MAX }),
        decimals,
        fc.nat({ max: 18 }),
        (baseUnits, d, extra) => {
          const canonical = formatAmount(baseUnits, d);
          const [integer, fraction = ''] = canonical.split('.');
          const zeros = Math.min(extra, d - fraction.length);
          const padded = zeros > 0 ? `${integer}.${fraction}${'0'.repeat(zeros)}` : canonical;
          const result = parseAmount(padded, d);
          expect(result.ok && formatAmount(result.value, d)).toBe(canonical);
        },
      ),
    );
  });

  it('never accepts a string containing anything but digits and one dot', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = parseAmount(input, 9, { allowZero: true });
        return !result.ok || /^[0-9]+(\.[0-9]+)?$/.test(input);
      }),
    );
  });
});

import { stringifyWithBigInts } from './json-bigint';

describe('stringifyWithBigInts', () => {
  it('writes u64 values as bare JSON integers without losing precision', () => {
    const json = stringifyWithBigInts({ rentEpoch: 18_446_744_073_709_551_615n, lamports: 5n, text: 'x' });
    expect(json).toBe('{"rentEpoch":18446744073709551615,"lamports":5,"text":"x"}');
  });
});
